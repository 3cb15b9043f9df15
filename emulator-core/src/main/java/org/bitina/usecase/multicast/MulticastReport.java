package org.bitina.usecase.multicast;

import java.util.List;
import java.util.Locale;
import org.bitina.usecase.KindReport;

/**
 * Reliable multicast's own part of a job row (000 section 5): the ACK packets the source's driver
 * took in (after its own NIC aggregated what the ACK tree sent it, R1-R2: the implosion the tree
 * prevents), the repair rounds (R3) and the duplicates the receivers suppressed (R5).
 *
 * @param ackPacketsIntoSource ACKs the source's driver was handed: what its own NIC gave it after terminating the
 *                             ACK tree's packets at the source's A-BM (each completed aggregate once, a partial
 *                             when its timer fired); the row's {@code packetsIntoRoot} counts every frame that
 *                             arrived at the source's port before that, so the two differ (11 frames and 10 ACKs
 *                             on {@code shrinking-miss-set.conf}: 5 frames terminated into 1 aggregate and 3
 *                             partials)
 * @param repairRounds         the most retransmission rounds one window needed
 * @param windows              windows of the block
 * @param rounds               rounds sent in all (each window's first, and its repairs)
 * @param duplicatesSuppressed data packets receivers already held
 */
public record MulticastReport(
        long ackPacketsIntoSource, long repairRounds, long windows, long rounds, long duplicatesSuppressed)
        implements KindReport {
    @Override
    public List<Figure> figures() {
        return List.of(
                new Figure(
                        "ackPacketsIntoSource",
                        "ACK packets into the source",
                        ackPacketsIntoSource,
                        Unit.COUNT,
                        String.format(
                                Locale.ROOT,
                                "%.2f per window, %.2f per round",
                                ackPacketsIntoSource / (double) Math.max(1, windows),
                                ackPacketsIntoSource / (double) Math.max(1, rounds))),
                new Figure("repairRounds", "repair rounds", repairRounds, Unit.COUNT, "the most one window needed"),
                new Figure("windows", "windows", windows, Unit.COUNT),
                new Figure("rounds", "rounds", rounds, Unit.COUNT),
                new Figure(
                        "duplicatesSuppressed",
                        "duplicates suppressed at receivers",
                        duplicatesSuppressed,
                        Unit.COUNT));
    }

    @Override
    public String note() {
        return "reliable multicast: ACK packets into the source are the ACKs its driver was handed, after the source's"
                + " own NIC aggregated what the ACK tree sent it at its A-BM (one per completed aggregate, a partial when"
                + " a timer fired); packets into the root count every frame at the source's port before that, so the"
                + " two differ";
    }
}
