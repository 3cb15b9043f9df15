package org.bitina.node;

import static org.bitina.node.ConsoleTable.Align.LEFT;
import static org.bitina.node.ConsoleTable.Align.RIGHT;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.bitina.run.Report;
import org.bitina.run.TrafficReport;
import org.bitina.usecase.traffic.TrafficFigures;

/**
 * The console's and the HTML page's table of background traffic (T3): one row per traffic entry
 * and world's mix, and one per entry alone, with its flows, flow completion times and the p99's
 * slowdown against the same traffic alone. Nothing when the scenario has no traffic.
 */
final class TrafficSummary {
    private TrafficSummary() {}

    private static final List<String> HEADERS =
            List.of("traffic", "world", "flows", "finished", "resent", "bytes", "FCT p50", "FCT p99", "slowdown");
    private static final List<ConsoleTable.Align> ALIGNS =
            List.of(LEFT, LEFT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT);

    static void print(Report r, PrintStream out, boolean colour) {
        if (r.traffic().isEmpty()) {
            return;
        }
        out.println("background traffic: flow completion times (modelled), in each world's mix and alone");
        ConsoleTable table = new ConsoleTable(HEADERS, ALIGNS);
        for (TrafficReport t : r.traffic()) {
            table.add(row(t).stream().map(ConsoleTable.Cell::plain).toList());
        }
        table.lines(colour).forEach(out::println);
        for (TrafficReport t : r.traffic()) {
            if (t.congestion() != null) {
                out.println("  traffic " + (t.entry() + 1) + " (" + where(t) + "): " + congestion(t));
            }
            t.gaveUp().forEach(g -> out.println("  traffic " + (t.entry() + 1) + " (" + where(t) + "): " + g));
        }
        out.println("(FCT: last byte's arrival minus the flow's start, resends included; resent: packets sent again"
                + " (go-back-N on timeout); slowdown: p99 in the mix over p99 alone)");
    }

    /** The small traffic table of the HTML page. */
    static void append(StringBuilder b, Report r) {
        if (r.traffic().isEmpty()) {
            return;
        }
        b.append("<section class=\"traffic\"><h2>Background traffic</h2>\n<p class=\"legend\">Open-loop unicast"
                + " flows beside the jobs, through the same ports and buffers, each a go-back-N reliable connection."
                + " FCT: last byte's arrival minus the flow's start (modelled, resends included); resent: packets"
                + " sent again; slowdown: p99 in the world's mix over p99 alone.</p>\n<table><tr>");
        HEADERS.forEach(h -> b.append("<th>").append(HtmlReport.esc(h)).append("</th>"));
        b.append("</tr>\n");
        for (TrafficReport t : r.traffic()) {
            b.append("<tr>");
            row(t).forEach(c -> b.append("<td>").append(HtmlReport.esc(c)).append("</td>"));
            b.append("</tr>\n");
        }
        b.append("</table>\n");
        for (TrafficReport t : r.traffic()) {
            if (t.congestion() != null) {
                b.append("<p class=\"congestion\">")
                        .append(HtmlReport.esc("traffic " + (t.entry() + 1) + " (" + where(t) + "): " + congestion(t)))
                        .append("</p>\n");
            }
            t.gaveUp()
                    .forEach(g -> b.append("<p class=\"gave-up\">")
                            .append(HtmlReport.esc("traffic " + (t.entry() + 1) + " (" + where(t) + "): " + g))
                            .append("</p>\n"));
        }
        b.append("</section>\n");
    }

    /** "dcqcn: 738 packets arrived ECN-marked, 320 CNPs, 317 rate cuts, lowest rate 0.286 Gbps". */
    static String congestion(TrafficReport t) {
        TrafficFigures.Congestion c = t.congestion();
        return String.format(
                Locale.ROOT,
                "%s: %d packets arrived ECN-marked, %d CNPs, %d rate cuts, lowest rate %.3g Gbps",
                c.control(),
                c.ecnMarked(),
                c.cnps(),
                c.rateCuts(),
                c.lowestRateGbps());
    }

    private static String where(TrafficReport t) {
        return t.alone() ? "alone" : t.world().configName();
    }

    private static List<String> row(TrafficReport t) {
        return List.of(
                t.entry() + 1 + ": " + t.kind(),
                where(t),
                String.valueOf(t.flows()),
                String.valueOf(t.finished()),
                String.valueOf(t.retransmissions()),
                String.valueOf(t.bytes()),
                t.finished() == 0 ? "-" : Units.micros(t.fctP50Micros()),
                t.finished() == 0 ? "-" : Units.micros(t.fctP99Micros()),
                t.slowdown() == null ? "-" : String.format(Locale.ROOT, "%.2fx", t.slowdown()));
    }
}
