package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bitina.run.IterationReport;
import org.bitina.run.RankTimeline;
import org.bitina.run.Report;
import org.bitina.scenario.Schedule;

/**
 * The HTML page's section of a workload (W3): per world a timeline per rank on the modelled time
 * axis (compute in grey, each collective in its type's colour, one row per rank), on one scale for
 * both worlds so that their lengths compare, and the exposed communication per collective type as
 * bars, world beside world. Nothing for a run without a workload.
 */
final class WorkloadTimeline {
    private WorkloadTimeline() {}

    private static final int WIDTH = 860;
    private static final int LABEL = 60;
    private static final int ROW = 14;
    private static final Map<String, String> COLOURS = Map.of(
            "COMPUTE", "#b3b3b3",
            "ALL_REDUCE", "#2e86c1",
            "REDUCE_SCATTER", "#8e44ad",
            "ALL_GATHER", "#27ae60",
            "ALL_TO_ALL", "#e67e22",
            "BROADCAST", "#16a085",
            "REDUCE", "#c0392b",
            "SEND_RECV", "#7f6000");

    static void append(StringBuilder b, Report r) {
        if (r.rankTimelines() == null || r.rankTimelines().isEmpty()) {
            return;
        }
        b.append("<section class=\"workload\"><h2>Workload</h2>\n<p class=\"legend\">One row per rank, its steps on"
                + " the modelled time axis: compute grey; AllReduce blue, ReduceScatter purple, AllGather green,"
                + " all-to-all orange, Broadcast teal, Reduce red, send/recv brown (a collective's bar spans its start to its end on the fabric; a rank waits where"
                + " its row is empty). Both worlds on one scale. Hover a bar for its step.</p>\n");
        double max = 0;
        for (RankTimeline t : r.rankTimelines()) {
            for (RankTimeline.Span s : t.spans()) {
                max = Math.max(max, s.endMicros());
            }
        }
        max = max <= 0 ? 1 : max;
        List<Schedule.World> worlds = new ArrayList<>();
        r.rankTimelines().forEach(t -> {
            if (!worlds.contains(t.world())) {
                worlds.add(t.world());
            }
        });
        for (Schedule.World w : worlds) {
            timeline(
                    b, w, r.rankTimelines().stream().filter(t -> t.world() == w).toList(), max);
        }
        exposed(b, r.iterations(), worlds);
        b.append("</section>\n");
    }

    private static void timeline(StringBuilder b, Schedule.World world, List<RankTimeline> ranks, double max) {
        int h = 16 + ROW * ranks.size() + 24;
        double scale = (WIDTH - LABEL - 20) / max;
        b.append("<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(h)
                .append("\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(h)
                .append("\" font-size=\"10\">\n");
        int y = 10;
        for (RankTimeline t : ranks) {
            b.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">rank %d</text>\n", y + 9, t.rank()));
            for (RankTimeline.Span s : t.spans()) {
                double x0 = LABEL + s.startMicros() * scale;
                double w = Math.max(0.5, (s.endMicros() - s.startMicros()) * scale);
                boolean compute = s.type().equals("COMPUTE");
                b.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s%s: %s to %s</title></rect>\n",
                        x0,
                        compute ? y + 3 : y,
                        w,
                        compute ? ROW - 6 : ROW - 2,
                        COLOURS.getOrDefault(s.type(), "#555"),
                        HtmlReport.esc(s.step()),
                        s.job() == null ? "" : " (job " + HtmlReport.esc(s.job()) + ")",
                        HtmlReport.micros(s.startMicros()),
                        HtmlReport.micros(s.endMicros())));
            }
            y += ROW;
        }
        SvgCharts.timeAxis(b, LABEL, WIDTH - 20, y, max);
        b.append("</svg><figcaption>world ")
                .append(HtmlReport.esc(world.configName()))
                .append(": every rank's compute and collectives, all iterations</figcaption></figure>\n");
    }

    /** Per collective type, the exposed communication of every iteration summed, one bar per world. */
    private static void exposed(StringBuilder b, List<IterationReport> its, List<Schedule.World> worlds) {
        Map<String, Map<Schedule.World, Double>> byType = new LinkedHashMap<>();
        double max = 0;
        for (IterationReport it : its) {
            for (Map.Entry<String, IterationReport.Collectives> e :
                    it.collectives().entrySet()) {
                double v = byType.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>())
                        .merge(it.world(), e.getValue().exposedMicros(), Double::sum);
                max = Math.max(max, v);
            }
        }
        if (byType.isEmpty()) {
            return;
        }
        max = max <= 0 ? 1 : max;
        int bar = 16;
        int h = 10 + byType.size() * (worlds.size() * bar + 10) + 10;
        int label = 170;
        double scale = (WIDTH - label - 90) / max;
        b.append("<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(h)
                .append("\" font-size=\"11\">\n");
        int y = 10;
        for (Map.Entry<String, Map<Schedule.World, Double>> e : byType.entrySet()) {
            for (Schedule.World w : worlds) {
                double v = e.getValue().getOrDefault(w, 0.0);
                b.append(String.format(
                        Locale.ROOT,
                        "<text x=\"4\" y=\"%d\">%s, %s</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                                + " fill=\"%s\" fill-opacity=\"%s\"/><text x=\"%.1f\" y=\"%d\">%s</text>\n",
                        y + 12,
                        HtmlReport.esc(e.getKey()),
                        HtmlReport.esc(w.configName()),
                        label,
                        y,
                        Math.max(1, v * scale),
                        bar - 2,
                        COLOURS.getOrDefault(e.getKey(), "#555"),
                        w == Schedule.World.INA ? "1" : "0.5",
                        label + Math.max(1, v * scale) + 4,
                        y + 12,
                        HtmlReport.micros(v)));
                y += bar;
            }
            y += 10;
        }
        b.append("</svg><figcaption>exposed communication by collective type (the longest-waiting rank, every"
                + " iteration summed): time a rank waited for collectives of that type</figcaption></figure>\n");
    }
}
