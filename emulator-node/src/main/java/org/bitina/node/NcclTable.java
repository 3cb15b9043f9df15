package org.bitina.node;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.run.Report;
import org.bitina.scenario.Scenario;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;

/**
 * A size sweep's answer as nccl-tests prints it (issue 46 item 4): per job a row per message size
 * with its bytes per rank, element count, type and operation, then per mode the time, algbw and
 * busbw (nccl-tests' terms, the same figures as jobs.csv), and INA's speed-up over its fastest
 * baseline at that size.
 */
final class NcclTable {
    private NcclTable() {}

    static void print(
            List<Scenario> scenarios,
            List<List<String>> points,
            List<List<CsvReport.JobRow>> rows,
            List<Report> reports,
            PrintStream out) {
        Set<String> jobs = new LinkedHashSet<>();
        rows.forEach(r -> r.forEach(j -> {
            if (j.dataBytes() != null && j.iteration() == null) {
                jobs.add(j.job());
            }
        }));
        for (String job : jobs) {
            List<String> modes = new ArrayList<>();
            rows.forEach(r -> r.stream()
                    .filter(j -> j.job().equals(job) && !modes.contains(j.mode()))
                    .forEach(j -> modes.add(j.mode())));
            StringBuilder h = new StringBuilder(
                    String.format(Locale.ROOT, "%12s %11s %8s %6s", "size(B)", "count", "type", "redop"));
            for (String m : modes) {
                h.append(String.format(Locale.ROOT, "  %10s %10s %10s", m + " us", "algbw", "busbw"));
            }
            h.append("  ina speed-up");
            out.println("# " + job + ": time in modelled µs, algbw and busbw in GB/s (nccl-tests' terms)");
            out.println(h);
            for (int p = 0; p < points.size(); p++) {
                Map<String, CsvReport.JobRow> byMode = new LinkedHashMap<>();
                rows.get(p).stream().filter(j -> j.job().equals(job)).forEach(j -> byMode.putIfAbsent(j.mode(), j));
                DataSpec d = data(scenarios.get(p), job);
                if (d == null || byMode.isEmpty()) {
                    continue;
                }
                StringBuilder line = new StringBuilder(String.format(
                        Locale.ROOT,
                        "%12d %11d %8s %6s",
                        (long) d.elements() * d.type().bytes(),
                        d.elements(),
                        d.type().name().toLowerCase(Locale.ROOT),
                        d.op().name().toLowerCase(Locale.ROOT)));
                for (String m : modes) {
                    CsvReport.JobRow j = byMode.get(m);
                    line.append(
                            j == null
                                    ? String.format(Locale.ROOT, "  %10s %10s %10s", "-", "-", "-")
                                    : String.format(
                                            Locale.ROOT,
                                            "  %10.2f %10s %10s",
                                            j.modelledUs(),
                                            gbps(j.algbwGBps()),
                                            gbps(j.busbwGBps())));
                }
                Double x = speedup(reports.get(p), job);
                line.append("  ").append(x == null ? "-" : String.format(Locale.ROOT, "%.2fx", x));
                out.println(line);
            }
        }
    }

    private static String gbps(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    /**
     * INA's speed-up over its fastest baseline as the report has it (its {@code speedup}: the verified,
     * complete baselines' times over INA's), for a verified INA row of {@code job}; null without one.
     */
    static Double speedup(Report r, String job) {
        return r.jobs().stream()
                .filter(j ->
                        j.name().equals(job) && j.mode().inNetwork() && j.plan().iteration() == null)
                .findFirst()
                .filter(j -> j.outcome().verified()
                        && j.speedup() != null
                        && !j.speedup().isEmpty())
                .map(j -> Collections.min(j.speedup().values()))
                .orElse(null);
    }

    private static DataSpec data(Scenario s, String job) {
        for (JobSpec j : s.jobs()) {
            if (j.common().name().equals(job) && j instanceof ArrayPhases.JobSpecWithData d) {
                return d.data();
            }
        }
        return null;
    }
}
