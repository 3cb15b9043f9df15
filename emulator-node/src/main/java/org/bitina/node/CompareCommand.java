package org.bitina.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina compare A.json B.json [C.json ...]}: the rows of several runs' reports side by
 * side (issue 46 item 3), each figure with its ratio to the first report's: on the console, and
 * with {@code --csv} and {@code --html} as a table and as one chart per figure. A row is a job,
 * mode, iteration and, in a shared run, world and mix or alone. Reports of different scenario
 * files are refused unless {@code --force} (the usual comparison is one file with a key changed,
 * or two versions of bitina on one file).
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Puts the rows of several reports (--report of run) side by side, with ratios to the first.")
final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "2..*", paramLabel = "REPORT.json", description = "reports of runs; the first is the reference")
    List<Path> reports;

    @Option(names = "--force", description = "compare reports of different scenario files")
    boolean force;

    @Option(names = "--csv", paramLabel = "FILE.csv", description = "also write the table as CSV")
    Path csv;

    @Option(names = "--html", paramLabel = "FILE.html", description = "also write a page with one chart per figure")
    Path html;

    /** A figure of a row: its name in the table, its unit ({@code us}, {@code bytes} or a count) and where it is. */
    record Figure(String name, String unit, Function<JsonNode, Double> value) {}

    static final List<Figure> FIGURES = List.of(
            new Figure("modelled", "us", j -> number(j, "modeledMicros")),
            new Figure("total link", "bytes", j -> number(j, "totalLinkBytes")),
            new Figure("max link", "bytes", j -> number(j, "maxLinkBytes")),
            new Figure("retransmissions", "count", j -> number(j, "retransmissions")),
            new Figure("slowdown", "x", j -> number(j, "slowdown")));

    /** The reports' rows by key, in the order they first appear; per key one row (or null) per report. */
    record Table(List<String> files, Map<String, List<JsonNode>> rows) {}

    @Override
    public Integer call() {
        List<JsonNode> read = new ArrayList<>();
        for (Path p : reports) {
            try {
                JsonNode r = new ObjectMapper().readTree(p.toFile());
                if (r == null || !r.path("jobs").isArray()) {
                    System.err.println("bitina compare: " + p + " is not a report of bitina run (no jobs[])");
                    return ExitCodes.USAGE;
                }
                read.add(r);
            } catch (IOException e) {
                System.err.println("bitina compare: cannot read " + p + ": " + e.getMessage());
                return ExitCodes.USAGE;
            }
        }
        Set<String> scenarios = new LinkedHashSet<>();
        read.forEach(r -> scenarios.add(r.path("scenario").asText()));
        if (scenarios.size() > 1 && !force) {
            System.err.println(
                    "bitina compare: the reports are of different scenario files (" + String.join(", ", scenarios)
                            + "); --force compares them anyway, row by row where job and mode match");
            return ExitCodes.USAGE;
        }
        Table t = table(read);
        print(t, reports, System.out);
        try {
            if (csv != null) {
                Files.writeString(csv, csv(t, reports), StandardCharsets.UTF_8);
                System.out.println("csv: " + csv);
            }
            if (html != null) {
                Files.writeString(html, page(t, reports), StandardCharsets.UTF_8);
                System.out.println("html: " + html);
            }
        } catch (IOException e) {
            System.err.println("bitina compare: cannot write: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        return ExitCodes.OK;
    }

    /** A row's key: job, mode, and where it has them its iteration and its place in a shared run. */
    static String key(JsonNode j) {
        StringBuilder k = new StringBuilder(j.path("name").asText())
                .append(' ')
                .append(j.path("mode").asText());
        if (j.hasNonNull("iteration")) {
            k.append(" #").append(j.path("iteration").path("index").asText());
        }
        if (j.hasNonNull("world")) {
            k.append(j.path("alone").asBoolean() ? " (alone)" : " (mix)");
        }
        return k.toString();
    }

    static Table table(List<JsonNode> read) {
        Map<String, List<JsonNode>> rows = new LinkedHashMap<>();
        for (int i = 0; i < read.size(); i++) {
            for (JsonNode j : read.get(i).path("jobs")) {
                // a row has a place for every report from the start: null where a report lacks it
                List<JsonNode> row =
                        rows.computeIfAbsent(key(j), k -> new ArrayList<>(Collections.nCopies(read.size(), null)));
                if (row.get(i) == null) {
                    row.set(i, j);
                }
            }
        }
        return new Table(read.stream().map(r -> r.path("scenario").asText()).toList(), rows);
    }

    private static Double number(JsonNode j, String field) {
        JsonNode v = j.get(field);
        return v == null || !v.isNumber() ? null : v.asDouble();
    }

    static String value(Figure f, Double v) {
        if (v == null) {
            return "-";
        }
        return switch (f.unit()) {
            case "us" -> Units.micros(v);
            case "bytes" -> Units.bytes(v.longValue());
            case "x" -> String.format(Locale.ROOT, "%.3gx", v);
            default -> String.format(Locale.ROOT, "%.0f", v);
        };
    }

    /** A figure over the first report's: "1.52x"; "-" without both, or when the first is 0. */
    static String ratio(Double v, Double first) {
        return v == null || first == null || first == 0 ? "-" : String.format(Locale.ROOT, "%.3gx", v / first);
    }

    /** The figures any row of any report has (a slowdown only in shared runs). */
    static List<Figure> present(Table t) {
        return FIGURES.stream()
                .filter(f -> t.rows().values().stream()
                        .flatMap(List::stream)
                        .anyMatch(j -> j != null && f.value().apply(j) != null))
                .toList();
    }

    static void print(Table t, List<Path> files, PrintStream out) {
        for (int i = 0; i < files.size(); i++) {
            out.println(letter(i) + ": " + files.get(i) + " (" + t.files().get(i) + ")");
        }
        List<Figure> figures = present(t);
        List<String> headers = new ArrayList<>(List.of("job mode"));
        List<ConsoleTable.Align> aligns = new ArrayList<>(List.of(ConsoleTable.Align.LEFT));
        for (Figure f : figures) {
            for (int i = 0; i < files.size(); i++) {
                headers.add(f.name() + " " + letter(i));
                aligns.add(ConsoleTable.Align.RIGHT);
            }
        }
        ConsoleTable table = new ConsoleTable(headers, aligns);
        t.rows().forEach((key, row) -> {
            List<ConsoleTable.Cell> cells = new ArrayList<>(List.of(ConsoleTable.Cell.plain(key)));
            for (Figure f : figures) {
                Double first = row.get(0) == null ? null : f.value().apply(row.get(0));
                for (int i = 0; i < row.size(); i++) {
                    Double v = row.get(i) == null ? null : f.value().apply(row.get(i));
                    cells.add(
                            ConsoleTable.Cell.plain(i == 0 ? value(f, v) : value(f, v) + " (" + ratio(v, first) + ")"));
                }
            }
            table.add(cells);
        });
        table.lines(false).forEach(out::println);
        out.println(
                "(each figure of B, C, ... with its ratio to A's; '-': the row or the figure is not in that report)");
    }

    /** The table as CSV, a line per row and report, each figure and its ratio to A's as numbers (Jackson's CSV, as jobs.csv). */
    static String csv(Table t, List<Path> files) throws IOException {
        CsvSchema.Builder schema =
                CsvSchema.builder().addColumn("row").addColumn("report").addColumn("file");
        for (Figure f : FIGURES) {
            schema.addColumn(f.name().replace(' ', '_')).addColumn(f.name().replace(' ', '_') + "_ratio");
        }
        StringWriter out = new StringWriter();
        // quoted only where CSV needs it ("fig1 ina" stays as it is)
        try (SequenceWriter w = CsvReport.CSV
                .writer(schema.build().withHeader())
                .with(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
                .writeValues(out)) {
            for (Map.Entry<String, List<JsonNode>> e : t.rows().entrySet()) {
                List<JsonNode> row = e.getValue();
                for (int i = 0; i < row.size(); i++) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("row", e.getKey());
                    m.put("report", letter(i));
                    m.put("file", files.get(i).toString());
                    for (Figure f : FIGURES) {
                        Double first = row.get(0) == null ? null : f.value().apply(row.get(0));
                        Double v = row.get(i) == null ? null : f.value().apply(row.get(i));
                        m.put(f.name().replace(' ', '_'), v == null ? null : number(v));
                        m.put(
                                f.name().replace(' ', '_') + "_ratio",
                                v == null || first == null || first == 0 ? null : number(v / first));
                    }
                    w.write(m);
                }
            }
        }
        return out.toString();
    }

    /** A number as CSV reads it: whole numbers without a decimal point. */
    static Number number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Number) (long) v : (Number) v;
    }

    /** The report's letter in the table: A for the first (the reference), B, C, ... */
    private static char letter(int i) {
        return (char) ('A' + Math.min(i, 25));
    }

    static String page(Table t, List<Path> files) {
        StringBuilder b = new StringBuilder();
        HtmlReport.head(b, "bitina compare");
        b.append("<h1>compare</h1>\n<ul>");
        for (int i = 0; i < files.size(); i++) {
            b.append("<li>")
                    .append(letter(i))
                    .append(": ")
                    .append(HtmlReport.esc(files.get(i).toString()))
                    .append(" (")
                    .append(HtmlReport.esc(t.files().get(i)))
                    .append(")</li>");
        }
        b.append("</ul>\n");
        List<String> keys = List.copyOf(t.rows().keySet());
        int n = 0;
        for (Figure f : FIGURES) {
            Map<String, Map<String, Double>> series = new LinkedHashMap<>();
            for (int i = 0; i < files.size(); i++) {
                Map<String, Double> byRow = new LinkedHashMap<>();
                for (String key : keys) {
                    JsonNode j = t.rows().get(key).get(i);
                    Double v = j == null ? null : f.value().apply(j);
                    if (v != null) {
                        byRow.put(key, v);
                    }
                }
                series.put(String.valueOf(letter(i)), byRow);
            }
            if (series.values().stream().allMatch(Map::isEmpty)) {
                continue;
            }
            b.append("<figure class=\"chart\" data-chart=\"compare-")
                    .append(f.name().replace(' ', '-'))
                    .append("\">")
                    .append(SvgCharts.bars(
                            "svg" + n++, f.name(), f.unit().equals("x") ? "count" : f.unit(), keys, series))
                    .append("<figcaption>")
                    .append(HtmlReport.esc(f.name()))
                    .append(" per row, a bar per report</figcaption></figure>\n");
        }
        b.append("</body></html>\n");
        return b.toString();
    }
}
