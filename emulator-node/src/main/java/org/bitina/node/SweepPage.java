package org.bitina.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.bitina.run.Report;
import org.bitina.run.TrafficReport;

/**
 * {@code DIR/sweep.html} of {@code bitina sweep}: one chart per metric against the first swept
 * parameter, a line per job and mode (and per value of the other swept parameters), drawn as
 * inline SVG like the run's HTML report; then the table of points. From the same rows as
 * {@code sweep.csv}.
 */
final class SweepPage {
    private SweepPage() {}

    private record Metric(String name, String unit, Function<CsvReport.JobRow, Number> value) {}

    private static final List<Metric> METRICS = List.of(
            new Metric("modelled time", "us", CsvReport.JobRow::modelledUs),
            new Metric("max link bytes", "bytes", CsvReport.JobRow::maxLinkBytes),
            new Metric("total link bytes", "bytes", CsvReport.JobRow::totalLinkBytes),
            new Metric("packets into the busiest host", "packets", CsvReport.JobRow::maxPacketsIntoHost),
            new Metric("algorithm bandwidth", "GB/s", CsvReport.JobRow::algbwGBps),
            new Metric("bus bandwidth", "GB/s", CsvReport.JobRow::busbwGBps),
            new Metric("timeouts", "timeouts", CsvReport.JobRow::timeouts));

    /** The values of the swept paths other than the first and the constants: " window=32". */
    private static String others(List<String> paths, List<Integer> varying, List<String> point) {
        StringBuilder s = new StringBuilder();
        for (int k : varying) {
            if (k > 0) {
                s.append(' ').append(paths.get(k)).append('=').append(point.get(k));
            }
        }
        return s.toString();
    }

    static void write(
            Path file,
            String scenario,
            List<String> paths,
            List<List<String>> points,
            List<List<CsvReport.JobRow>> rows,
            List<Report> reports)
            throws IOException {
        StringBuilder b = new StringBuilder(1 << 15);
        HtmlReport.head(b, "bitina sweep: " + scenario);
        // a path with one value at every point is a constant of the sweep: said once, in the title, not on every line
        List<Integer> varying = new ArrayList<>();
        List<String> constant = new ArrayList<>();
        for (int k = 0; k < paths.size(); k++) {
            final int at = k;
            if (k == 0 || points.stream().map(p -> p.get(at)).distinct().count() > 1) {
                varying.add(k);
            } else {
                constant.add(paths.get(k) + "=" + points.get(0).get(k));
            }
        }
        b.append("<h1>sweep of ")
                .append(HtmlReport.esc(scenario))
                .append(constant.isEmpty() ? "" : HtmlReport.esc(" with " + String.join(" ", constant)))
                .append("</h1>\n<p class=\"meta\">")
                .append(points.size())
                .append(" points over ")
                .append(HtmlReport.esc(String.join(", ", paths)))
                .append("; x: ")
                .append(HtmlReport.esc(paths.get(0)))
                .append(
                        paths.size() > 1
                                ? "; a line per job, mode and value of the other paths"
                                : "; a line per job and mode")
                .append(". Times are modelled network time.</p>\n");
        List<String> xs = new ArrayList<>();
        points.forEach(p -> {
            if (!xs.contains(p.get(0))) {
                xs.add(p.get(0));
            }
        });
        int n = 0;
        // first the answer: INA's speed-up over its fastest verified baseline, per job, against the swept value
        Map<String, Map<String, Double>> speedups = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            String others = others(paths, varying, points.get(i));
            for (String job :
                    rows.get(i).stream().map(CsvReport.JobRow::job).distinct().toList()) {
                Double x = NcclTable.speedup(reports.get(i), job);
                if (x != null) {
                    speedups.computeIfAbsent(job + others, k -> new LinkedHashMap<>())
                            .put(points.get(i).get(0), x);
                }
            }
        }
        if (!speedups.isEmpty()) {
            b.append("<figure class=\"chart\" data-chart=\"sweep-speedup\">")
                    .append(SvgCharts.sweep("svg" + n++, "INA's speed-up", paths.get(0), "x", xs, speedups))
                    .append("<figcaption>")
                    .append(HtmlReport.esc("INA's speed-up over its fastest verified baseline (its time over INA's;"
                            + " above 1: INA faster) against " + paths.get(0)))
                    .append("</figcaption></figure>\n");
        }
        // a shared file's answer: each job's slowdown and each traffic entry's p99, per world
        Map<String, Map<String, Double>> slowdowns = new LinkedHashMap<>();
        Map<String, Map<String, Double>> p99s = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            String others = others(paths, varying, points.get(i));
            String x = points.get(i).get(0);
            for (Report.JobReport j : reports.get(i).jobs()) {
                if (j.shared() != null && !j.shared().alone() && j.shared().slowdown() != null) {
                    slowdowns
                            .computeIfAbsent(
                                    j.name() + "/" + j.shared().world().configName() + others,
                                    k -> new LinkedHashMap<>())
                            .put(x, j.shared().slowdown());
                }
            }
            for (TrafficReport t : reports.get(i).traffic()) {
                if (t.finished() > 0) {
                    String where = t.alone() ? "alone" : t.world().configName();
                    p99s.computeIfAbsent(
                                    "traffic " + (t.entry() + 1) + "/" + where + others, k -> new LinkedHashMap<>())
                            .put(x, t.fctP99Micros());
                }
            }
        }
        if (!slowdowns.isEmpty()) {
            b.append("<figure class=\"chart\" data-chart=\"sweep-slowdown\">")
                    .append(SvgCharts.sweep(
                            "svg" + n++, "slowdown in the shared fabric", paths.get(0), "x", xs, slowdowns))
                    .append("<figcaption>")
                    .append(HtmlReport.esc(
                            "each job's JCT in its world's mix over its JCT alone against " + paths.get(0)))
                    .append("</figcaption></figure>\n");
        }
        if (!p99s.isEmpty()) {
            b.append("<figure class=\"chart\" data-chart=\"sweep-traffic-p99\">")
                    .append(SvgCharts.sweep("svg" + n++, "traffic p99 FCT", paths.get(0), "us", xs, p99s))
                    .append("<figcaption>")
                    .append(HtmlReport.esc(
                            "background traffic's p99 flow completion time (us, modelled) in each world's"
                                    + " mix and alone against " + paths.get(0)))
                    .append("</figcaption></figure>\n");
        }
        List<String> zero = new ArrayList<>();
        for (Metric m : METRICS) {
            Map<String, Map<String, Double>> series = new LinkedHashMap<>();
            for (int i = 0; i < points.size(); i++) {
                List<String> point = points.get(i);
                String others = others(paths, varying, point);
                for (CsvReport.JobRow r : rows.get(i)) {
                    Number v = m.value().apply(r);
                    if (v != null) {
                        String name =
                                r.job() + "/" + r.mode() + (r.iteration() == null ? "" : " #" + r.iteration()) + others;
                        series.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(point.get(0), v.doubleValue());
                    }
                }
            }
            if (series.isEmpty()) {
                continue;
            }
            if (series.values().stream().allMatch(v -> v.values().stream().allMatch(x -> x == 0))) {
                zero.add(m.name());
                continue;
            }
            b.append("<figure class=\"chart\" data-chart=\"sweep-")
                    .append(m.name().replace(' ', '-'))
                    .append("\">")
                    .append(SvgCharts.sweep("svg" + n++, m.name(), paths.get(0), m.unit(), xs, series))
                    .append("<figcaption>")
                    .append(HtmlReport.esc(m.name() + " (" + m.unit() + ") against " + paths.get(0)))
                    .append("</figcaption></figure>\n");
        }
        if (!zero.isEmpty()) {
            b.append("<p class=\"meta\">0 at every point, not drawn: ")
                    .append(HtmlReport.esc(String.join(", ", zero)))
                    .append(".</p>\n");
        }
        b.append("<h2>points</h2>\n<table><tr><th>point</th>");
        paths.forEach(
                p -> b.append("<th class=\"l\">").append(HtmlReport.esc(p)).append("</th>"));
        b.append(
                "<th class=\"l\">job</th><th class=\"l\">mode</th><th class=\"l\">status</th><th class=\"l\">expected</th><th>modelled time</th>"
                        + "<th>max link</th><th>total bytes</th><th>algbw GB/s</th></tr>\n");
        for (int i = 0; i < points.size(); i++) {
            for (CsvReport.JobRow r : rows.get(i)) {
                b.append("<tr><td>").append(i + 1).append("</td>");
                points.get(i)
                        .forEach(v -> b.append("<td class=\"l\">")
                                .append(HtmlReport.esc(v))
                                .append("</td>"));
                b.append("<td class=\"l\">")
                        .append(HtmlReport.esc(r.job()))
                        .append("</td><td class=\"l\">")
                        .append(HtmlReport.esc(r.mode()))
                        .append("</td><td class=\"l\">")
                        .append(HtmlReport.esc(r.status()))
                        .append("</td><td class=\"l\">")
                        .append(HtmlReport.esc(r.expected()))
                        .append(r.asExpected() ? " <span class=\"ok\">ok</span>" : " <b class=\"no\">NO</b>")
                        .append("</td><td>")
                        .append(HtmlReport.micros(r.modelledUs()))
                        .append("</td><td>")
                        .append(HtmlReport.bytes(r.maxLinkBytes()))
                        .append("</td><td>")
                        .append(HtmlReport.bytes(r.totalLinkBytes()))
                        .append("</td><td>")
                        .append(r.algbwGBps() == null ? "" : String.format(Locale.ROOT, "%.2f", r.algbwGBps()))
                        .append("</td></tr>\n");
            }
        }
        b.append("</table>\n</body></html>\n");
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }
}
