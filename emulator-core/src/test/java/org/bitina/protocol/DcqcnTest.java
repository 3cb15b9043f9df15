package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** DCQCN's reaction point against steps worked out by hand from its equations. */
class DcqcnTest {
    private static final long G100 = 100_000_000_000L;

    /** g = 1/16, alpha every 55 us, decrease checks every 4 us, increase every 100 us, fast recovery 2 steps. */
    private static final Dcqcn.Settings S = new Dcqcn.Settings(
            5 * 1024,
            200 * 1024,
            0.01,
            50_000,
            1.0 / 16,
            55_000,
            4_000,
            100_000,
            2,
            10_000_000,
            100_000_000,
            100_000_000,
            1.0,
            false);

    @Test
    void rateFallsAtTheCheckAfterACnpAndRecoversThroughFastRecoveryAdditiveAndHyperIncrease() {
        Dcqcn d = new Dcqcn(S, G100);
        assertEquals(G100, d.rateAt(1_000_000), "no CNP: line rate");

        d.cnp(1_000_000); // the first: alpha = 1, timers start; checks at 1,004,001 + 4k us
        assertEquals(G100, d.rateAt(1_004_000), "not cut before the first check");
        // first check: stage 0, no clamp -> target stays 100G; rate * (1 - 1/2)
        assertEquals(50_000_000_000L, d.rateAt(1_004_001));
        assertEquals(G100, d.target());
        assertEquals(1, d.cuts());
        // alpha at 1,055,000 with no CNP since: 15/16
        d.advance(1_055_000);
        assertEquals(0.9375, d.alpha());
        // increase at 1,104,001 (stage 0, fast recovery): half way back to 100G
        assertEquals(50_000_000_000L, d.rateAt(1_104_000));
        assertEquals(75_000_000_000L, d.rateAt(1_104_001));
        // alpha at 1,110,000 and 1,165,000; increase at 1,204,001 (stage 1): 87.5G
        assertEquals(87_500_000_000L, d.rateAt(1_204_001));
        assertEquals(0.9375 * 0.9375 * 0.9375, d.alpha());

        d.cnp(1_250_000); // alpha at 1,220,000 ran before it: 0.9375^4
        double alpha = 0.9375 * 0.9375 * 0.9375 * 0.9375;
        assertEquals(alpha, d.alpha());
        // the next check is at 1,004,001 + 62 * 4 us = 1,252,001: stage 2 -> target = 87.5G
        assertEquals(87_500_000_000L, d.rateAt(1_252_000));
        long cut = (long) (87_500_000_000L * (1 - alpha / 2));
        assertEquals(53_704_166_412L, cut);
        assertEquals(cut, d.rateAt(1_252_001));
        assertEquals(87_500_000_000L, d.target());
        // alpha at 1,275,000 saw the CNP
        d.advance(1_275_000);
        assertEquals((1 - 1.0 / 16) * alpha + 1.0 / 16, d.alpha());
        // increases every 100 us from the cut: two of fast recovery, then AI (+10M), then HAI (+100M)
        assertEquals(26_852_083_206L + 43_750_000_000L, d.rateAt(1_352_001));
        assertEquals(35_301_041_603L + 43_750_000_000L, d.rateAt(1_452_001));
        assertEquals(39_525_520_801L + 43_755_000_000L, d.rateAt(1_552_001));
        assertEquals(87_510_000_000L, d.target());
        assertEquals(41_640_260_400L + 43_805_000_000L, d.rateAt(1_652_001));
        assertEquals(87_610_000_000L, d.target());
        assertEquals(2, d.cnps());
        assertEquals(2, d.cuts());
        assertEquals(50_000_000_000L, d.lowestBps(), "the first cut went lowest");
    }

    @Test
    void manyCnpsWithinOneCheckCutOnceAndTheTargetNeverPassesTheLineRate() {
        Dcqcn d = new Dcqcn(S, G100);
        d.cnp(0);
        d.cnp(1_000);
        d.cnp(2_000);
        assertEquals(50_000_000_000L, d.rateAt(4_001));
        assertEquals(1, d.cuts());
        assertEquals(3, d.cnps());
        // a long quiet time: the target climbs back to the line rate, and the rate with it (to within the
        // truncation of halving whole bits per second, as ns-3's DataRate halves)
        long back = d.rateAt(100_000_000);
        assertEquals(G100, d.target());
        assertTrue(back >= G100 - 1 && back <= G100, "rate " + back);
    }

    @Test
    void theRateNeverFallsBelowTheMinimum() {
        Dcqcn d = new Dcqcn(S, 1_000_000_000L);
        for (long t = 0; t < 400_000; t += 4_000) {
            d.cnp(t);
        }
        assertEquals(S.minRateBps(), d.rateAt(400_000));
        assertEquals(S.minRateBps(), d.lowestBps());
    }

    @Test
    void askingOftenOrRarelyGivesTheSameRates() {
        Dcqcn often = new Dcqcn(S, G100);
        Dcqcn rarely = new Dcqcn(S, G100);
        long[] cnpsAt = {10_000, 12_000, 300_000, 301_000, 900_000};
        int next = 0;
        for (long t = 0; t <= 2_000_000; t += 997) {
            while (next < cnpsAt.length && cnpsAt[next] <= t) {
                often.cnp(cnpsAt[next]);
                rarely.cnp(cnpsAt[next]);
                next++;
            }
            often.advance(t);
        }
        assertEquals(rarely.rateAt(2_000_000), often.rateAt(2_000_000));
        assertEquals(rarely.alpha(), often.alpha());
        assertEquals(3, often.cuts());
        assertEquals(3, rarely.cuts());
    }

    @Test
    void refusesSettingsOutsideTheirRanges() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new Dcqcn.Settings(
                                10, 5, 0.01, 50_000, 1.0 / 16, 55_000, 4_000, 100_000, 2, 1, 1, 1, 1.0, false))
                .getMessage()
                .contains("kmin <= kmax"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new Dcqcn.Settings(
                                5, 10, 0.01, 50_000, 0, 55_000, 4_000, 100_000, 2, 1, 1, 1, 1.0, false))
                .getMessage()
                .contains("gain"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Dcqcn(S, 0))
                .getMessage()
                .contains("line rate"));
    }
}
