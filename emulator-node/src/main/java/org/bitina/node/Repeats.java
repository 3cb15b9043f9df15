package org.bitina.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The figures of N runs of one file, each with every seed moved ({@code --repeat N}, issue 46
 * item 6): per row (job, mode, and where it has them its iteration and mix or alone, as {@code
 * bitina compare} keys them) and figure ({@link CompareCommand#FIGURES}), the mean and its 95 %
 * confidence interval by Student's t over the runs that have the figure. A shared run's slowdown
 * is each run's own (its mix over its alone run, both of that run's draw), so the interval is
 * over draw pairs, not over a mix of one draw against the alone run of another.
 */
final class Repeats {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Repeats() {}

    /**
     * One figure of one row over the runs.
     *
     * @param values the figure in each run that has it, in run order
     * @param half   the confidence interval's half width; 0 with one value (no spread to estimate)
     */
    record Stat(String unit, List<Double> values, double mean, double half) {
        double low() {
            return mean - half;
        }

        double high() {
            return mean + half;
        }

        double min() {
            return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max() {
            return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /** A row of the table: its key and its figures by name (those some run has). */
    record Row(String key, Map<String, Stat> figures) {}

    /** The rows of {@code reports} (the runs' reports as JSON, in run order). */
    static List<Row> of(List<JsonNode> reports) {
        CompareCommand.Table t = CompareCommand.table(reports);
        List<Row> rows = new ArrayList<>();
        t.rows().forEach((key, runs) -> {
            Map<String, Stat> figures = new LinkedHashMap<>();
            for (CompareCommand.Figure f : CompareCommand.FIGURES) {
                List<Double> values = new ArrayList<>();
                for (JsonNode j : runs) {
                    Double v = j == null ? null : f.value().apply(j);
                    if (v != null) {
                        values.add(v);
                    }
                }
                if (!values.isEmpty()) {
                    figures.put(f.name(), stat(f.unit(), values));
                }
            }
            rows.add(new Row(key, figures));
        });
        return rows;
    }

    /** Mean and 95 % interval of {@code values}: t(0.975, n-1) times the standard error. */
    static Stat stat(String unit, List<Double> values) {
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
        if (n < 2) {
            return new Stat(unit, List.copyOf(values), mean, 0);
        }
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975);
        return new Stat(unit, List.copyOf(values), mean, t * sd / Math.sqrt(n));
    }

    /** "31.5 us ± 0.42 us" in the figure's unit; the bare mean when every run gave the same. */
    static String shown(CompareCommand.Figure f, Stat s) {
        String mean = CompareCommand.value(f, s.mean());
        return s.half() == 0 ? mean : mean + " ± " + CompareCommand.value(f, s.half());
    }

    /** The console table: a row per job and mode, a column per figure, each "mean ± half width". */
    static void print(List<Row> rows, int runs, PrintStream out) {
        List<CompareCommand.Figure> figures = present(rows);
        List<String> headers = new ArrayList<>(List.of("job mode", "runs"));
        List<ConsoleTable.Align> aligns = new ArrayList<>(List.of(ConsoleTable.Align.LEFT, ConsoleTable.Align.RIGHT));
        figures.forEach(f -> {
            headers.add(f.name());
            aligns.add(ConsoleTable.Align.RIGHT);
        });
        ConsoleTable table = new ConsoleTable(headers, aligns);
        for (Row r : rows) {
            List<ConsoleTable.Cell> cells = new ArrayList<>();
            cells.add(ConsoleTable.Cell.plain(r.key()));
            int n = r.figures().values().stream()
                    .mapToInt(s -> s.values().size())
                    .max()
                    .orElse(0);
            cells.add(ConsoleTable.Cell.plain(Integer.toString(n)));
            for (CompareCommand.Figure f : figures) {
                Stat s = r.figures().get(f.name());
                cells.add(ConsoleTable.Cell.plain(s == null ? "-" : shown(f, s)));
            }
            table.add(cells);
        }
        table.lines(false).forEach(out::println);
        out.println(
                "(" + runs + " runs of the file, every seed moved per run (run 1: the file's own); each figure: mean"
                        + " ± half width of its 95 % confidence interval, Student's t; a shared run's slowdown per run, its mix"
                        + " over its own alone run)");
    }

    /** The figures any row has, in {@link CompareCommand#FIGURES}' order. */
    private static List<CompareCommand.Figure> present(List<Row> rows) {
        return CompareCommand.FIGURES.stream()
                .filter(f -> rows.stream().anyMatch(r -> r.figures().containsKey(f.name())))
                .toList();
    }

    /** The report's {@code repeats}: the runs, whether each ended as expected, and every row's figures. */
    static ObjectNode json(List<Row> rows, List<Boolean> asExpected) {
        ObjectNode out = JSON.createObjectNode();
        out.put("runs", asExpected.size());
        ArrayNode ok = out.putArray("asExpected");
        asExpected.forEach(ok::add);
        ArrayNode rs = out.putArray("rows");
        for (Row r : rows) {
            ObjectNode row = rs.addObject();
            row.put("row", r.key());
            ObjectNode figures = row.putObject("figures");
            r.figures().forEach((name, s) -> {
                ObjectNode f = figures.putObject(name);
                f.put("unit", s.unit());
                f.put("runs", s.values().size());
                f.put("mean", s.mean());
                f.put("ci95Low", s.low());
                f.put("ci95High", s.high());
                f.put("min", s.min());
                f.put("max", s.max());
                ArrayNode values = f.putArray("values");
                s.values().forEach(values::add);
            });
        }
        return out;
    }

    /** {@code repeats.csv}: a line per row and figure, numbers as numbers. */
    static String csv(List<Row> rows) throws IOException {
        CsvSchema schema = CsvSchema.builder()
                .addColumn("row")
                .addColumn("figure")
                .addColumn("unit")
                .addColumn("runs")
                .addColumn("mean")
                .addColumn("ci95_low")
                .addColumn("ci95_high")
                .addColumn("min")
                .addColumn("max")
                .build()
                .withHeader();
        StringWriter out = new StringWriter();
        try (SequenceWriter w = CsvReport.CSV
                .writer(schema)
                .with(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
                .writeValues(out)) {
            for (Row r : rows) {
                for (Map.Entry<String, Stat> e : r.figures().entrySet()) {
                    Stat s = e.getValue();
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("row", r.key());
                    m.put("figure", e.getKey());
                    m.put("unit", s.unit());
                    m.put("runs", s.values().size());
                    m.put("mean", CompareCommand.number(s.mean()));
                    m.put("ci95_low", CompareCommand.number(s.low()));
                    m.put("ci95_high", CompareCommand.number(s.high()));
                    m.put("min", CompareCommand.number(s.min()));
                    m.put("max", CompareCommand.number(s.max()));
                    w.write(m);
                }
            }
        }
        return out.toString();
    }

    /** The page's section: one chart per figure, a bar per row at its mean with the interval as error bars. */
    static String section(List<Row> rows, int runs) {
        StringBuilder b = new StringBuilder("<section class=\"repeats\"><h2>")
                .append(runs)
                .append(" runs: mean and 95 % confidence interval</h2>\n<p class=\"meta\">")
                .append("every seed moved per run (run 1: the file's own); the rest of the page is run 1</p>\n");
        int n = 0;
        for (CompareCommand.Figure f : present(rows)) {
            Map<String, double[]> bars = new LinkedHashMap<>();
            rows.forEach(r -> {
                Stat s = r.figures().get(f.name());
                if (s != null) {
                    bars.put(r.key(), new double[] {s.mean(), s.half()});
                }
            });
            b.append("<figure class=\"chart\" data-chart=\"repeats-")
                    .append(f.name().replace(' ', '-'))
                    .append("\">")
                    .append(SvgCharts.errorBars("rep" + n++, f.name(), f.unit().equals("x") ? "count" : f.unit(), bars))
                    .append("<figcaption>")
                    .append(HtmlReport.esc(f.name()))
                    .append(String.format(Locale.ROOT, " per row over %d runs, error bars the 95 %% interval", runs))
                    .append("</figcaption></figure>\n");
        }
        return b.append("</section>\n").toString();
    }
}
