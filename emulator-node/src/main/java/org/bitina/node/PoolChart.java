package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.bitina.run.PoolReport;
import org.bitina.run.Report;

/**
 * The HTML page's section on the switches' pools of aggregation entries (T2): per shared world's
 * mix (or per best-effort row of a sequential file), one strip per switch with a pool, its
 * occupancy over modelled time stacked by job, against its capacity (the strip's height).
 * Nothing when no row has a pool.
 */
final class PoolChart {
    private PoolChart() {}

    private static final int WIDTH = 760;
    private static final int LABEL = 90;
    private static final int STRIP = 34;
    private static final String[] COLORS = {"#2e86c1", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085"};

    static void append(StringBuilder b, Report r) {
        // one chart per mix: the rows that shared the pools at once
        Map<String, List<Report.JobReport>> groups = new LinkedHashMap<>();
        for (Report.JobReport j : r.jobs()) {
            if (j.pool() == null || (j.shared() != null && j.shared().alone())) {
                continue;
            }
            String key = j.shared() != null
                    ? "world " + j.shared().world().configName()
                    : "job " + j.name() + " " + j.mode();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(j);
        }
        if (groups.isEmpty()) {
            return;
        }
        b.append("<section class=\"pool\"><h2>Pool of switch memory</h2>\n<p class=\"legend\">Each switch's"
                + " state-entries are one pool over the jobs running at once. A strip is one switch: its height is the"
                + " pool, the coloured areas the entries each job held over modelled time. A best-effort job passes"
                + " a chunk on unaggregated when it finds no free entry.</p>\n");
        groups.forEach((name, rows) -> chart(b, name, rows));
        b.append("</section>\n");
    }

    private static void chart(StringBuilder b, String name, List<Report.JobReport> rows) {
        Map<String, Integer> capacity = new LinkedHashMap<>();
        long end = 1;
        for (Report.JobReport j : rows) {
            end = Math.max(end, (long) (j.timing().modeledMicros() * 1000));
            for (PoolReport.Switch s : j.pool().switches()) {
                capacity.putIfAbsent(s.node(), s.capacity());
                for (long[] step : s.entries()) {
                    end = Math.max(end, step[0]);
                }
            }
        }
        int h = 20 + STRIP * capacity.size() + 40;
        double scale = (WIDTH - LABEL - 20) / (double) end;
        b.append("<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(h)
                .append("\" font-size=\"11\">\n");
        int y = 10;
        for (Map.Entry<String, Integer> sw : capacity.entrySet()) {
            strip(b, sw.getKey(), sw.getValue(), rows, y, scale, end);
            y += STRIP;
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                LABEL,
                y + 12,
                WIDTH - 20,
                y + 12,
                HtmlReport.micros(end / 1000.0)));
        int x = LABEL;
        for (int i = 0; i < rows.size(); i++) {
            Report.JobReport j = rows.get(i);
            String label = j.name() + " (" + j.pool().admission() + ")";
            b.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                    x,
                    y + 20,
                    COLORS[i % COLORS.length],
                    x + 14,
                    y + 29,
                    HtmlReport.esc(label)));
            x += 20 + 7 * label.length();
        }
        b.append("</svg><figcaption>")
                .append(HtmlReport.esc(name))
                .append(": each switch's pool of aggregation entries over modelled time, stacked by job</figcaption>"
                        + "</figure>\n");
    }

    /** One switch: between each two changes of any job's count, the jobs' counts stacked from the bottom. */
    private static void strip(
            StringBuilder b, String node, int capacity, List<Report.JobReport> rows, int y, double scale, long end) {
        int inner = STRIP - 6;
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"4\" y=\"%d\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\""
                        + " stroke=\"#bbb\"><title>%s: a pool of %d entries</title></rect>\n",
                y + inner / 2 + 4,
                HtmlReport.esc(node),
                LABEL,
                y,
                WIDTH - LABEL - 20,
                inner,
                HtmlReport.esc(node),
                capacity));
        List<List<long[]>> series = new ArrayList<>();
        TreeSet<Long> times = new TreeSet<>();
        for (Report.JobReport j : rows) {
            List<long[]> steps = j.pool().switches().stream()
                    .filter(s -> s.node().equals(node))
                    .map(PoolReport.Switch::entries)
                    .findFirst()
                    .orElse(List.of());
            series.add(steps);
            steps.forEach(s -> times.add(s[0]));
        }
        times.add(end);
        double unit = inner / (double) Math.max(1, capacity);
        // each series' position: the times only grow, so a step is read once
        int[] at = new int[series.size()];
        long[] count = new long[series.size()];
        Long from = null;
        for (long t : times) {
            if (from != null) {
                double base = 0;
                for (int i = 0; i < series.size(); i++) {
                    List<long[]> steps = series.get(i);
                    while (at[i] < steps.size() && steps.get(at[i])[0] <= from) {
                        count[i] = steps.get(at[i])[1];
                        at[i]++;
                    }
                    long n = count[i];
                    if (n > 0) {
                        double hgt = n * unit;
                        b.append(String.format(
                                Locale.ROOT,
                                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %d"
                                        + " entries from %s</title></rect>\n",
                                LABEL + from * scale,
                                y + inner - base - hgt,
                                Math.max(0.5, (t - from) * scale),
                                hgt,
                                COLORS[i % COLORS.length],
                                HtmlReport.esc(rows.get(i).name()),
                                n,
                                HtmlReport.micros(from / 1000.0)));
                        base += hgt;
                    }
                }
            }
            from = t;
        }
    }
}
