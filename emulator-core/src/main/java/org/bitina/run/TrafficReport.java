package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import org.bitina.scenario.Schedule;
import org.bitina.usecase.traffic.TrafficFigures;
import org.bitina.usecase.traffic.TrafficPlan;

/**
 * The report's {@code traffic[]} (T3): one entry per background-traffic entry and world's mix, and
 * one per entry alone (no job beside it, so no world). Flow completion times are modelled.
 *
 * @param entry         the entry's index in the scenario's {@code traffic} list
 * @param world         the world of the mix it ran in; absent alone
 * @param alone         whether it ran with no job beside it (its slowdown's reference)
 * @param flows         flows started
 * @param finished      flows whose last byte arrived (every flow, unless its sender gave up on it)
 * @param bytes         bytes that arrived
 * @param aloneP99Micros the entry's p99 alone, on a mix's entry
 * @param slowdown      the mix's p99 over the p99 alone, three significant digits
 * @param retransmissions packets sent again (go-back-N)
 * @param timeouts      retransmission timers that fired
 * @param duplicatesReceived packets a receiver had already taken: a resend that was not needed (its
 *                      timer fired before the ACK came back) or whose ACK was lost
 * @param discardedPastGap packets a receiver discarded because one before them was missing (go-back-N)
 * @param gaveUp        the flows whose senders gave up, each named with why; absent when none
 * @param congestion    what the senders' congestion control did (marks, CNPs, cuts, lowest rate);
 *                      absent when they run none
 */
public record TrafficReport(
        int entry,
        String kind,
        @JsonInclude(JsonInclude.Include.NON_NULL) Schedule.World world,
        boolean alone,
        int flows,
        int finished,
        long bytes,
        double fctP50Micros,
        double fctP99Micros,
        double fctMaxMicros,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double aloneP99Micros,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double slowdown,
        long retransmissions,
        long timeouts,
        long duplicatesReceived,
        long discardedPastGap,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> gaveUp,
        @JsonInclude(JsonInclude.Include.NON_NULL) TrafficFigures.Congestion congestion) {

    public TrafficReport {
        gaveUp = gaveUp == null ? List.of() : List.copyOf(gaveUp);
    }

    static TrafficReport of(TrafficPlan plan, Schedule.World world, TrafficFigures f) {
        return new TrafficReport(
                plan.index(),
                plan.spec().kind().configName(),
                world,
                world == null,
                f.flows(),
                f.finished(),
                f.bytes(),
                f.fctP50Micros(),
                f.fctP99Micros(),
                f.fctMaxMicros(),
                null,
                null,
                f.retransmissions(),
                f.timeouts(),
                f.duplicatesReceived(),
                f.discardedPastGap(),
                f.gaveUp(),
                f.congestion());
    }

    /**
     * Each mix's entry beside the same entry alone: its p99 alone and the mix's over it. Left out when
     * either finished no flow (a time that is no completion compares nothing).
     */
    static List<TrafficReport> withSlowdowns(List<TrafficReport> rows) {
        List<TrafficReport> out = new ArrayList<>(rows.size());
        for (TrafficReport r : rows) {
            TrafficReport alone = r.alone()
                    ? null
                    : rows.stream()
                            .filter(a ->
                                    a.alone() && a.entry() == r.entry() && a.finished() > 0 && a.fctP99Micros() > 0)
                            .findFirst()
                            .orElse(null);
            if (alone == null || r.finished() == 0) {
                out.add(r);
                continue;
            }
            double s = new BigDecimal(r.fctP99Micros() / alone.fctP99Micros())
                    .round(new MathContext(3))
                    .doubleValue();
            out.add(new TrafficReport(
                    r.entry(),
                    r.kind(),
                    r.world(),
                    false,
                    r.flows(),
                    r.finished(),
                    r.bytes(),
                    r.fctP50Micros(),
                    r.fctP99Micros(),
                    r.fctMaxMicros(),
                    alone.fctP99Micros(),
                    s,
                    r.retransmissions(),
                    r.timeouts(),
                    r.duplicatesReceived(),
                    r.discardedPastGap(),
                    r.gaveUp(),
                    r.congestion()));
        }
        return out;
    }
}
