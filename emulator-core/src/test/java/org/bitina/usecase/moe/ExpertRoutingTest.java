package org.bitina.usecase.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 45 item 4: Zipf routing draws each token's experts by the law of popularity, without
 * replacement; the counts over many tokens pass a chi-square test against the exact inclusion
 * probabilities, and uniform routing's counts fail the same test (so the test can fail).
 */
public class ExpertRoutingTest {
    private static final int EXPERTS = 8;

    /** Chi-square's 0.999 quantile with 7 degrees of freedom: a fair law fails it once in a thousand seeds. */
    public static final double CHI2_7_999 = 24.322;

    /**
     * The exact probability that each expert is among the {@code k} drawn one after the other, each
     * in proportion to the popularity of those left (by enumeration over the draws).
     */
    static double[] inclusion(double[] p, int k) {
        double[] out = new double[p.length];
        include(p, new boolean[p.length], k, 1.0, out);
        return out;
    }

    private static void include(double[] p, boolean[] taken, int k, double prob, double[] out) {
        if (k == 0) {
            return;
        }
        double left = 0;
        for (int e = 0; e < p.length; e++) {
            left += taken[e] ? 0 : p[e];
        }
        for (int e = 0; e < p.length; e++) {
            if (taken[e]) {
                continue;
            }
            double q = prob * p[e] / left;
            out[e] += q;
            taken[e] = true;
            include(p, taken, k - 1, q, out);
            taken[e] = false;
        }
    }

    /** Pearson's statistic of the per-expert counts of {@code tokens} draws of {@code k} against the law. */
    public static double chiSquare(long[] counts, double[] p, int k, long tokens) {
        double[] inc = inclusion(p, k);
        double x2 = 0;
        for (int e = 0; e < counts.length; e++) {
            double want = tokens * inc[e];
            x2 += (counts[e] - want) * (counts[e] - want) / want;
        }
        return x2;
    }

    private static long[] counts(ExpertRouting r, MoeModel model, int sources, int tokens, int k) {
        long[] c = new long[EXPERTS];
        for (int s = 0; s < sources; s++) {
            for (int t = 0; t < tokens; t++) {
                int[] chosen = r.choose(model, model.logits(model.token(s, t)), "h" + s, s, t, k);
                assertEquals(k, Arrays.stream(chosen).distinct().count(), "k distinct experts");
                assertTrue(Arrays.equals(chosen, Arrays.stream(chosen).sorted().toArray()), "ascending");
                for (int e : chosen) {
                    c[e]++;
                }
            }
        }
        return c;
    }

    @Test
    void theInclusionProbabilitiesOfDrawingWithoutReplacementAddUpToK() {
        double[] p = new ExpertRouting.Zipf(1.2, 1).popularity(EXPERTS);
        assertEquals(1.0, Arrays.stream(p).sum(), 1e-12);
        assertEquals(1.0 / Math.pow(2, 1.2), p[1] / p[0], 1e-12, "expert 2 is 2^-s as popular as expert 1");
        for (int k = 1; k <= 3; k++) {
            assertEquals(k, Arrays.stream(inclusion(p, k)).sum(), 1e-9);
        }
        assertArrayEquals(p, inclusion(p, 1), 1e-12, "one draw: the law itself");
    }

    @Test
    void zipfCountsFollowTheLawAndUniformCountsDoNot() {
        MoeModel model = new MoeModel(3, EXPERTS, 64);
        ExpertRouting.Zipf zipf = new ExpertRouting.Zipf(1.2, 7);
        double[] p = zipf.popularity(EXPERTS);
        for (int k = 1; k <= 3; k++) {
            long[] c = counts(zipf, model, 4, 2048, k);
            double x2 = chiSquare(c, p, k, 4 * 2048);
            assertTrue(x2 < CHI2_7_999, "top-" + k + ": chi-square " + x2 + " of " + Arrays.toString(c));
            assertTrue(c[0] > c[1] && c[1] > c[EXPERTS - 1], "hottest first: " + Arrays.toString(c));
        }
        long[] uniform = counts(new ExpertRouting.Uniform(), model, 4, 2048, 2);
        double x2 = chiSquare(uniform, p, 2, 4 * 2048);
        assertTrue(x2 > 10 * CHI2_7_999, "the router's counts are not Zipf's: " + x2 + " " + Arrays.toString(uniform));
    }

    @Test
    void aTokensChoiceDependsOnItsSeedSourceAndTokenOnly() {
        MoeModel model = new MoeModel(3, EXPERTS, 64);
        ExpertRouting.Zipf a = new ExpertRouting.Zipf(1.2, 7);
        double[] l = model.logits(model.token(0, 0));
        assertArrayEquals(a.choose(model, l, "h1", 1, 5, 2), a.choose(model, l, "h1", 1, 5, 2));
        int differ = 0;
        for (int t = 0; t < 64; t++) {
            differ += Arrays.equals(
                            a.choose(model, l, "h1", 1, t, 2),
                            new ExpertRouting.Zipf(1.2, 8).choose(model, l, "h1", 1, t, 2))
                    ? 0
                    : 1;
        }
        assertTrue(differ > 16, "another seed, other draws: " + differ + " of 64 differ");
        ExpertRouting.Zipf flat = new ExpertRouting.Zipf(0, 7);
        double x2 = chiSquare(counts(flat, model, 2, 2048, 2), flat.popularity(EXPERTS), 2, 2 * 2048);
        assertTrue(x2 < CHI2_7_999, "s = 0: every expert alike, " + x2);
    }
}
