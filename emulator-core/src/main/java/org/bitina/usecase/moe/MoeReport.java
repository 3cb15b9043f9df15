package org.bitina.usecase.moe;

import java.util.List;
import java.util.Locale;
import org.bitina.usecase.KindReport;

/**
 * MoE's own part of a job row: the bytes on the sources' uplinks, the figure the in-network
 * dispatch and combine save against all-to-all (000 section 4: one packet per D-BM instead of one
 * per expert); and how the routing loaded the experts: the busiest expert's tokens against all the
 * experts took, and the (token, expert) pairs capacity dropped (M5). Each expert's own counts are
 * the row's {@code stats} ({@code expertTokens.NAME}, {@code expertDropped.NAME}, over the sources).
 *
 * @param routing       which experts the tokens chose ({@link ExpertRouting#describe})
 * @param busiestExpert the expert that took the most tokens (the first such in bit order)
 * @param busiestTokens the tokens it took
 * @param expertTokens  the tokens every expert took, summed ((token, expert) pairs within capacity)
 * @param droppedPairs  the (token, expert) pairs over an expert's capacity, dropped at the sources
 */
public record MoeReport(
        long sourceUplinkBytes,
        String routing,
        String busiestExpert,
        long busiestTokens,
        long expertTokens,
        long droppedPairs)
        implements KindReport {
    @Override
    public List<Figure> figures() {
        return List.of(
                new Figure("sourceUplinkBytes", "source uplink", sourceUplinkBytes, Unit.BYTES),
                new Figure(
                        "busiestTokens",
                        "busiest expert",
                        busiestTokens,
                        Unit.COUNT,
                        String.format(
                                Locale.ROOT,
                                "tokens, %s: %.1f %% of the %d the experts took; routing %s",
                                busiestExpert,
                                expertTokens == 0 ? 0.0 : 100.0 * busiestTokens / expertTokens,
                                expertTokens,
                                routing)),
                new Figure("droppedPairs", "over capacity", droppedPairs, Unit.COUNT, "(token, expert) pairs"));
    }
}
