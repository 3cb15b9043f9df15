package org.bitina.node;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitina.run.BandwidthReport;
import org.bitina.run.LinkReport;
import org.bitina.run.Report;
import org.bitina.usecase.KindReport;

/**
 * The report's tables as CSV files for spreadsheets and pandas ({@code --csv DIR}):
 * {@code jobs.csv} (one row per job and mode, with nccl-tests' algbw and busbw for AllReduce
 * and BIER-INC, from their use case's {@code bandwidth}: the array's bytes over the modelled time, and that times
 * the mode's own bus factor, the most payload one host sends or receives per byte of the array: 1 for INA, N for the
 * parameter server, 2(n-1)/n for the ring; {@code HostBaselines.busFactor}),
 * {@code links.csv} and {@code switches.csv}.
 */
final class CsvReport {
    /** One job and mode. Bandwidths in GB/s of modelled time; empty where they do not apply. */
    record JobRow(
            String job,
            String kind,
            String mode,
            Integer iteration,
            String status,
            String expected,
            boolean asExpected,
            boolean verified,
            double modelledUs,
            long wallMs,
            long packetsIntoRoot,
            long maxPacketsIntoHost,
            String busiestHost,
            long maxLinkBytes,
            long totalLinkBytes,
            long headerBytes,
            long timeouts,
            long lateContributions,
            long drops,
            String missing,
            Long dataBytes,
            Double algbwGBps,
            Double busFactor,
            Double busbwGBps,
            Boolean admitted,
            String fallbackFor,
            @JsonIgnore Map<String, Object> figures) {
        /** The row by column: its components, then the kind's own figures (a column each, {@link KindReport}). */
        Map<String, Object> columns() {
            Map<String, Object> m = CSV.convertValue(this, new TypeReference<LinkedHashMap<String, Object>>() {});
            m.putAll(figures);
            return m;
        }
    }

    record SwitchRow(
            String name,
            int peakStateEntries,
            long peakBufferedBytes,
            int incTrees,
            long drops,
            String dropsByReason) {}

    static final CsvMapper CSV = new CsvMapper();

    private CsvReport() {}

    static void write(Report r, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<JobRow> jobs = jobRows(r);
        List<SwitchRow> switches = r.switches().stream()
                .map(w -> new SwitchRow(
                        w.name(),
                        w.peakStateEntries(),
                        w.peakBufferedBytes(),
                        w.incTrees(),
                        w.drops().values().stream().mapToLong(Long::longValue).sum(),
                        reasons(w.drops())))
                .toList();
        CsvSchema.Builder jb = CsvSchema.builder();
        jobColumns(jobs).forEach(jb::addColumn);
        try (SequenceWriter w = CSV.writer(jb.build().withHeader())
                .writeValues(dir.resolve("jobs.csv").toFile())) {
            for (JobRow row : jobs) {
                w.write(row.columns());
            }
        }
        rows(dir.resolve("links.csv"), LinkReport.class, r.links());
        rows(dir.resolve("switches.csv"), SwitchRow.class, switches);
    }

    /**
     * A sweep's one table: per point and job and mode, the swept values (a column per {@code --set}
     * path) before the job row's columns.
     */
    static void writeSweep(Path file, List<String> paths, List<List<String>> values, List<List<JobRow>> rows)
            throws IOException {
        CsvSchema.Builder b = CsvSchema.builder().addColumn("point");
        paths.forEach(b::addColumn);
        jobColumns(rows.stream().flatMap(List::stream).toList()).forEach(b::addColumn);
        CsvSchema schema = b.build().withHeader();
        try (SequenceWriter w = CSV.writer(schema).writeValues(file.toFile())) {
            for (int point = 0; point < rows.size(); point++) {
                for (JobRow row : rows.get(point)) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("point", point + 1);
                    for (int i = 0; i < paths.size(); i++) {
                        // a swept count as a number (64K as 65536), anything else as written
                        String v = values.get(point).get(i);
                        Long n = org.bitina.scenario.ConfigReader.wholeCount(v);
                        m.put(paths.get(i), n == null ? v : n);
                    }
                    m.putAll(row.columns());
                    w.write(m);
                }
            }
        }
    }

    /** One row per job and mode of {@code r}. */
    static List<JobRow> jobRows(Report r) {
        List<JobRow> jobs = new ArrayList<>();
        for (Report.JobReport j : r.jobs()) {
            BandwidthReport bw = j.bandwidth();
            jobs.add(new JobRow(
                    j.name(),
                    j.kind(),
                    j.mode().name(),
                    j.plan().iteration() == null ? null : j.plan().iteration().index(),
                    j.outcome().status().label(),
                    j.outcome().expected(),
                    j.outcome().asExpected(),
                    j.outcome().verified(),
                    j.timing().modeledMicros(),
                    j.timing().wallMillis(),
                    j.traffic().packetsIntoRoot(),
                    j.traffic().maxPacketsIntoHost(),
                    j.traffic().busiestHost(),
                    j.traffic().maxLinkBytes(),
                    j.traffic().totalLinkBytes(),
                    j.traffic().headerBytes(),
                    j.counts().timeouts(),
                    j.counts().lateContributions(),
                    j.traffic().drops(),
                    String.join(";", j.outcome().missing()),
                    bw.dataBytes(),
                    bw.algbwGBps(),
                    bw.busFactor(),
                    bw.busbwGBps(),
                    j.plan().admission() == null ? null : j.plan().admission().admitted(),
                    j.plan().admission() == null || j.plan().admission().fallbackFor() == null
                            ? null
                            : j.plan().admission().fallbackFor().name(),
                    figures(j.kindReport())));
        }
        return jobs;
    }

    /** A kind's own figures by column, as numbers (integral ones without a fraction). */
    private static Map<String, Object> figures(KindReport k) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KindReport.Figure f : KindFigures.of(k)) {
            out.put(f.key(), f.value() == Math.rint(f.value()) ? (Object) (long) f.value() : (Object) f.value());
        }
        return out;
    }

    /**
     * The columns of {@code jobs.csv}: the row's components, then each kind figure any row has, in the order
     * they first appear (empty in the rows of other kinds).
     */
    private static List<String> jobColumns(List<JobRow> rows) {
        Set<String> columns = new LinkedHashSet<>();
        for (RecordComponent c : JobRow.class.getRecordComponents()) {
            if (!c.getName().equals("figures")) {
                columns.add(c.getName());
            }
        }
        rows.forEach(r -> columns.addAll(r.figures().keySet()));
        return List.copyOf(columns);
    }

    private static String reasons(Map<String, Long> drops) {
        return drops.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(";"));
    }

    private static <T> void rows(Path file, Class<T> type, List<T> rows) throws IOException {
        // columns in the record's order (Jackson's own would be alphabetical): job, kind, mode first
        // a component that is itself a record, a collection or an array (a link's queue curve) is a series a flat
        // table cannot hold: it stays in the JSON report
        CsvSchema.Builder b = CsvSchema.builder();
        for (RecordComponent c : type.getRecordComponents()) {
            Class<?> t = c.getType();
            if (!t.isRecord()
                    && !t.isArray()
                    && !Iterable.class.isAssignableFrom(t)
                    && !Map.class.isAssignableFrom(t)) {
                b.addColumn(c.getName());
            }
        }
        CsvSchema schema = b.build().withHeader();
        try (SequenceWriter w =
                CSV.writer(schema).with(JsonGenerator.Feature.IGNORE_UNKNOWN).writeValues(file.toFile())) {
            w.writeAll(rows);
        }
    }
}
