package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bitina.run.LinkReport;
import org.bitina.run.LinkScope;
import org.bitina.run.Report;

/**
 * The HTML page's section on egress queues (T3): per phase (a mix of a shared world, or one job and
 * mode), one strip per busiest finite-buffer port, the most bytes waiting per interval of modelled
 * time, on one scale per chart (its deepest queue). Nothing when no link carries a queue curve (no
 * finite buffer anywhere).
 */
final class QueueChart {
    private QueueChart() {}

    private static final int WIDTH = 760;
    private static final int LABEL = 150;
    private static final int STRIP = 30;

    static void append(StringBuilder b, Report r) {
        // a shared run: each world's mix first, then the jobs alone, each captioned so
        boolean shared = SharedAnswer.applies(r);
        Map<String, List<LinkReport>> groups = new LinkedHashMap<>();
        Map<String, List<LinkReport>> alone = new LinkedHashMap<>();
        Map<String, String> captions = new LinkedHashMap<>();
        for (LinkReport l : r.links()) {
            if (l.queue() == null) {
                continue;
            }
            String name = l.job() + " " + l.mode();
            boolean world = LinkScope.SHARED_JOB.equals(l.job());
            captions.put(name, world ? "world " + l.mode() + " (mix)" : name + (shared ? SvgCharts.ALONE : ""));
            (world ? groups : alone)
                    .computeIfAbsent(name, k -> new ArrayList<>())
                    .add(l);
        }
        groups.putAll(alone);
        if (groups.isEmpty()) {
            return;
        }
        b.append("<section class=\"queues\"><h2>Queue depth</h2>\n<p class=\"legend\">The busiest switch egress"
                + " ports with a finite buffer: a strip per port, the most bytes waiting behind the packet on the"
                + " wire in each interval of modelled time (intervals in which nothing was sent are left out), on"
                + " the scale of the chart's deepest queue.</p>\n");
        groups.forEach((name, ports) -> chart(b, name, captions.get(name), ports));
        b.append("</section>\n");
    }

    private static void chart(StringBuilder b, String name, String caption, List<LinkReport> ports) {
        long end = 1;
        long deepest = 1;
        for (LinkReport l : ports) {
            List<long[]> d = l.queue().depth();
            if (!d.isEmpty()) {
                end = Math.max(end, d.get(d.size() - 1)[0] + l.queue().bucketNanos());
            }
            deepest = Math.max(deepest, l.maxQueueBytes());
        }
        int h = 10 + STRIP * ports.size() + 24;
        double scale = (WIDTH - LABEL - 20) / (double) end;
        b.append("<figure class=\"chart\" data-chart=\"queues-")
                .append(HtmlReport.esc(name.replace(' ', '-')))
                .append("\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(h)
                .append("\" font-size=\"11\">\n");
        int y = 10;
        for (LinkReport l : ports) {
            strip(b, l, y, scale, deepest);
            y += STRIP;
        }
        SvgCharts.timeAxis(b, LABEL, WIDTH - 20, y, end / 1000.0);
        b.append("</svg><figcaption>")
                .append(HtmlReport.esc(caption))
                .append(": queue depth over modelled time for the busiest ports (deepest ")
                .append(HtmlReport.esc(HtmlReport.bytes(deepest)))
                .append(")</figcaption></figure>\n");
    }

    /** One port: a bar per interval, its height the most bytes waiting then. */
    private static void strip(StringBuilder b, LinkReport l, int y, double scale, long deepest) {
        int inner = STRIP - 6;
        String port = l.from() + " -> " + l.to();
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"4\" y=\"%d\">%s</text><rect class=\"queue-port\" x=\"%d\" y=\"%d\" width=\"%d\""
                        + " height=\"%d\" fill=\"#f4f4f4\" stroke=\"#bbb\"><title>%s: at most %s waiting, %d"
                        + " queue drops</title></rect>\n",
                y + inner / 2 + 4,
                HtmlReport.esc(port),
                LABEL,
                y,
                WIDTH - LABEL - 20,
                inner,
                HtmlReport.esc(port),
                HtmlReport.esc(HtmlReport.bytes(l.maxQueueBytes())),
                l.queueDrops()));
        long width = l.queue().bucketNanos();
        for (long[] p : l.queue().depth()) {
            if (p[1] <= 0) {
                continue;
            }
            double hgt = inner * (p[1] / (double) deepest);
            b.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#c0392b\"><title>%s from %s:"
                            + " %s</title></rect>\n",
                    LABEL + p[0] * scale,
                    y + inner - hgt,
                    Math.max(0.5, width * scale),
                    hgt,
                    HtmlReport.esc(port),
                    HtmlReport.micros(p[0] / 1000.0),
                    HtmlReport.esc(HtmlReport.bytes(p[1]))));
        }
    }
}
