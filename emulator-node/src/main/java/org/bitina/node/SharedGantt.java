package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bitina.run.Report;
import org.bitina.run.SharedRun;
import org.bitina.scenario.Schedule;

/**
 * The HTML page's section of a shared run (schedule = shared, T1): per world a Gantt chart of the
 * jobs in the mix on the modelled time axis (each bar from start to end, its alone JCT drawn as a
 * thin bar from the same start), and each job's slowdown per world. Nothing for a sequential run.
 */
final class SharedGantt {
    private SharedGantt() {}

    private static final int WIDTH = 760;
    private static final int LABEL = 130;
    private static final int ROW = 26;

    static void append(StringBuilder b, Report r) {
        List<Report.JobReport> mixed = r.jobs().stream()
                .filter(j -> j.shared() != null && !j.shared().alone())
                .toList();
        if (mixed.isEmpty()) {
            return;
        }
        b.append(
                "<section class=\"shared\"><h2>Shared fabric</h2>\n<p class=\"legend\">Each world's jobs ran at once on"
                        + " one fabric. A thick bar is a job in the mix, from its start to its end in modelled time; the thin bar"
                        + " under it is the same job alone, from the same start. Slowdown: JCT in the mix over JCT alone.</p>\n");
        double max = 0;
        for (Report.JobReport j : mixed) {
            SharedRun s = j.shared();
            max = Math.max(max, s.endMicros());
            if (s.aloneMicros() != null) {
                max = Math.max(max, Math.max(0, s.startMicros()) + s.aloneMicros());
            }
        }
        max = max <= 0 ? 1 : max;
        List<Schedule.World> worlds = new ArrayList<>();
        mixed.forEach(j -> {
            if (!worlds.contains(j.shared().world())) {
                worlds.add(j.shared().world());
            }
        });
        for (Schedule.World w : worlds) {
            List<Report.JobReport> rows =
                    mixed.stream().filter(j -> j.shared().world() == w).toList();
            gantt(b, w, rows, max);
        }
        slowdowns(b, mixed, worlds);
        b.append("</section>\n");
    }

    private static void gantt(StringBuilder b, Schedule.World world, List<Report.JobReport> rows, double max) {
        int h = 30 + ROW * rows.size() + 24;
        double scale = (WIDTH - LABEL - 20) / max;
        b.append("<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(h)
                .append("\" font-size=\"11\">\n");
        int y = 20;
        for (Report.JobReport j : rows) {
            SharedRun s = j.shared();
            double x0 = LABEL + Math.max(0, s.startMicros()) * scale;
            double x1 = LABEL + s.endMicros() * scale;
            b.append(String.format(
                    Locale.ROOT,
                    "<text x=\"4\" y=\"%d\">%s (%s)</text>"
                            + "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\"><title>%s: start %s,"
                            + " end %s, JCT %s</title></rect>\n",
                    y + 10,
                    HtmlReport.esc(j.name()),
                    HtmlReport.esc(j.mode().name()),
                    x0,
                    y,
                    Math.max(1, x1 - x0),
                    j.outcome().verified() ? "#2e86c1" : "#c0392b",
                    HtmlReport.esc(j.name()),
                    HtmlReport.micros(s.startMicros()),
                    HtmlReport.micros(s.endMicros()),
                    HtmlReport.micros(s.jctMicros())));
            if (s.aloneMicros() != null) {
                b.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"4\" fill=\"#999\"><title>alone: JCT %s</title></rect>\n",
                        x0,
                        y + 14,
                        Math.max(1, s.aloneMicros() * scale),
                        HtmlReport.micros(s.aloneMicros())));
            }
            y += ROW;
        }
        SvgCharts.timeAxis(b, LABEL, WIDTH - 20, y, max);
        b.append("</svg><figcaption>world ")
                .append(HtmlReport.esc(world.configName()))
                .append(": the jobs on the modelled time axis</figcaption></figure>\n");
    }

    private static void slowdowns(StringBuilder b, List<Report.JobReport> mixed, List<Schedule.World> worlds) {
        b.append("<table><tr><th class=\"l\">job</th>");
        worlds.forEach(w -> b.append("<th>slowdown (")
                .append(HtmlReport.esc(w.configName()))
                .append(")</th>"));
        b.append("</tr>\n");
        List<String> names = new ArrayList<>();
        mixed.forEach(j -> {
            if (!names.contains(j.name())) {
                names.add(j.name());
            }
        });
        for (String n : names) {
            b.append("<tr><td class=\"l\">").append(HtmlReport.esc(n)).append("</td>");
            for (Schedule.World w : worlds) {
                Double s = mixed.stream()
                        .filter(j -> j.name().equals(n) && j.shared().world() == w)
                        .findFirst()
                        // without alone runs there is no slowdown: findFirst would fail on the null
                        .map(j -> j.shared().slowdown())
                        .orElse(null);
                b.append("<td>")
                        .append(s == null ? "-" : String.format(Locale.ROOT, "%.2fx", s))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }
}
