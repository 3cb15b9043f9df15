package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.bitina.protocol.TimeCurve;
import org.bitina.protocol.TrafficFlows;
import org.bitina.usecase.DriverReport;

/**
 * What one background-traffic entry did in one phase (T3), from its hosts' reports: flows started
 * (at their senders), flows finished (at their receivers), bytes that arrived, and the flow
 * completion times (last byte's arrival minus the flow's start) at the 50th and 99th percentile,
 * from an HdrHistogram at 3 significant digits, never past the exact maximum.
 *
 * @param unfinished      flows started whose last byte never arrived (their senders gave up)
 * @param retransmissions packets sent again (go-back-N: every packet from the first unacknowledged one)
 * @param timeouts        retransmission timers that fired (each one a go-back, or a give-up)
 * @param duplicatesReceived packets a receiver had already taken (a resend that was not needed, or whose
 *                        ACK was lost): the part of the resends a better timeout could have saved
 * @param discardedPastGap   packets a receiver discarded because one before them was missing (go-back-N)
 * @param gaveUp          the flows whose senders gave up, each named with why
 * @param congestion      what congestion control did; null when the entry's senders run none
 */
public record TrafficFigures(
        int flows,
        int finished,
        int unfinished,
        long bytes,
        double fctP50Micros,
        double fctP99Micros,
        double fctMaxMicros,
        long retransmissions,
        long timeouts,
        long duplicatesReceived,
        long discardedPastGap,
        List<String> gaveUp,
        Congestion congestion) {

    public TrafficFigures {
        gaveUp = List.copyOf(gaveUp);
    }

    /**
     * What DCQCN did to one entry's flows.
     *
     * @param control        the senders' congestion control ({@code dcqcn})
     * @param ecnMarked      data packets that arrived ECN-marked
     * @param cnps           CNPs the receivers sent (at most one per flow per CNP interval)
     * @param rateCuts       rate cuts the senders made (at most one per flow per decrease period)
     * @param lowestRateGbps the lowest rate any flow ran at
     * @param rate           the senders' rates over modelled time, bits per second: per interval the least and the
     *                       most any queue pair sent a packet at
     */
    public record Congestion(
            String control, long ecnMarked, long cnps, long rateCuts, double lowestRateGbps, TimeCurve.Range rate) {}

    /** The figures of {@code plan} from the reports of its hosts (any order; one per host, others ignored). */
    public static TrafficFigures of(TrafficPlan plan, Collection<DriverReport> reports) {
        Map<String, DriverReport> byHost = new HashMap<>();
        for (DriverReport r : reports) {
            if (r.role() == DriverReport.Role.TRAFFIC) {
                byHost.put(r.endpoint(), r);
            }
        }
        Histogram h = new Histogram(3);
        long max = 0;
        int flows = 0;
        int finished = 0;
        long bytes = 0;
        long resent = 0;
        long timeouts = 0;
        long duplicates = 0;
        long discarded = 0;
        long marked = 0;
        long cnps = 0;
        long cuts = 0;
        long lowest = Long.MAX_VALUE;
        List<String> gaveUp = new ArrayList<>();
        List<TimeCurve.Range> rates = new ArrayList<>();
        for (TrafficDriverSpec d : plan.drivers()) {
            DriverReport r = byHost.get(d.host());
            if (r == null) {
                continue;
            }
            flows += r.stats().getOrDefault(TrafficHost.FLOWS_STARTED, 0L).intValue();
            bytes += r.stats().getOrDefault(TrafficHost.BYTES_RECEIVED, 0L);
            resent += r.stats().getOrDefault(TrafficHost.RETRANSMITTED, 0L);
            timeouts += r.stats().getOrDefault(TrafficHost.TIMEOUTS, 0L);
            duplicates += r.stats().getOrDefault(TrafficHost.DUPLICATES, 0L);
            discarded += r.stats().getOrDefault(TrafficHost.OUT_OF_ORDER, 0L);
            marked += r.stats().getOrDefault(TrafficHost.MARKED, 0L);
            cnps += r.stats().getOrDefault(TrafficHost.CNPS_SENT, 0L);
            cuts += r.stats().getOrDefault(TrafficHost.RATE_CUTS, 0L);
            lowest = Math.min(lowest, r.stats().getOrDefault(TrafficHost.LOWEST_RATE, d.lineBps()));
            gaveUp.addAll(r.gaveUp());
            if (r.pace() != null) {
                rates.add(r.pace());
            }
            long[] at = r.unitVt();
            List<TrafficFlows.Flow> in = d.receives();
            for (int i = 0; at != null && i < Math.min(at.length, in.size()); i++) {
                if (at[i] >= 0) {
                    long fct = Math.max(0, at[i] - in.get(i).startNanos());
                    h.recordValue(fct);
                    max = Math.max(max, fct);
                    finished++;
                }
            }
        }
        return new TrafficFigures(
                flows,
                finished,
                flows - finished,
                bytes,
                at(h, 50, max),
                at(h, 99, max),
                max / 1000.0,
                resent,
                timeouts,
                duplicates,
                discarded,
                gaveUp,
                plan.drivers().stream().allMatch(d -> d.congestion() == null)
                        ? null
                        : new Congestion(
                                "dcqcn",
                                marked,
                                cnps,
                                cuts,
                                lowest == Long.MAX_VALUE ? 0 : lowest / 1e9,
                                TimeCurve.Range.merge(rates)));
    }

    private static double at(Histogram h, double percentile, long max) {
        return h.getTotalCount() == 0 ? 0 : Math.min(max, h.getValueAtPercentile(percentile)) / 1000.0;
    }
}
