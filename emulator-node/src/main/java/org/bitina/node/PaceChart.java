package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.protocol.TimeCurve;
import org.bitina.run.Report;
import org.bitina.run.TrafficReport;

/**
 * The HTML page's section on congestion control (issue 45), beside the queue depth: over modelled
 * time, the rate the DCQCN senders (background traffic, host baselines) ran at and the window the INA workers'
 * AIMD held, each as steps of the least per interval (the slowest sender, the smallest window:
 * where congestion bit hardest). Nothing when nobody ran congestion control.
 */
final class PaceChart {
    private PaceChart() {}

    static void append(StringBuilder b, Report r) {
        Map<String, List<double[]>> rates = new LinkedHashMap<>();
        for (TrafficReport t : r.traffic()) {
            if (t.congestion() != null && t.congestion().rate() != null) {
                String name = "traffic " + (t.entry() + 1)
                        + (t.alone() ? SvgCharts.ALONE : " " + t.world().configName() + " (mix)");
                // Gbps, as the traffic table prints the lowest rate
                rates.put(name, steps(t.congestion().rate(), 1e-9));
            }
        }
        Map<String, List<double[]>> windows = new LinkedHashMap<>();
        for (Report.JobReport j : r.jobs()) {
            String name = j.mode() + " " + j.name()
                    + (j.shared() == null ? "" : j.shared().alone() ? SvgCharts.ALONE : " (mix)");
            if (j.timing().window() != null) {
                windows.put(name, steps(j.timing().window(), 1));
            }
            if (j.timing().rate() != null) {
                rates.put(name, steps(j.timing().rate(), 1e-9)); // a host baseline's members under DCQCN
            }
        }
        if (rates.isEmpty() && windows.isEmpty()) {
            return;
        }
        b.append("<section class=\"congestion\"><h2>Congestion control</h2>\n<p class=\"legend\">Over modelled"
                + " time, per interval: the lowest rate any DCQCN sender of a traffic entry or of a host baseline"
                + " sent a packet at, and the"
                + " smallest window any INA worker of a job held after a result (AIMD on the marks results bring"
                + " back). Read beside the queue depth above.</p>\n");
        if (!rates.isEmpty()) {
            HtmlReport.figure(
                    b,
                    "pace-rates",
                    "background traffic and host baselines: the slowest sender's rate per interval (DCQCN)",
                    SvgCharts.lines(
                            "svg-pace-rates",
                            "senders' rate",
                            "modelled time",
                            "Gbps",
                            rates,
                            List.of(),
                            true,
                            620,
                            300));
        }
        if (!windows.isEmpty()) {
            HtmlReport.figure(
                    b,
                    "pace-windows",
                    "INA jobs: the smallest worker window per interval (AIMD), in chunks",
                    SvgCharts.lines(
                            "svg-pace-windows",
                            "INA workers' window",
                            "modelled time",
                            "chunks",
                            windows,
                            List.of(),
                            true,
                            620,
                            300));
        }
        b.append("</section>\n");
    }

    /** The curve's least per interval as steps in µs, times {@code scale}. */
    static List<double[]> steps(TimeCurve.Range c, double scale) {
        List<double[]> out = new ArrayList<>();
        for (long[] p : c.points()) {
            out.add(new double[] {p[0] / 1000.0, p[1] * scale});
        }
        return out;
    }
}
