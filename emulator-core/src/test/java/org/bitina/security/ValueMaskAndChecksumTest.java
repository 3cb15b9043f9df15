package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** S6's pieces alone: masks that cancel (and whose residue comes off), the checksum, the audit's rule. */
class ValueMaskAndChecksumTest {
    private static final byte[] SECRET = ValueKeys.endpointSecret(new byte[32], 1, 7);

    private static int[] values(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(-1024, 1024);
        }
        return v;
    }

    @Test
    void masksOfEveryMemberCancelAndASubsetsResidueComesOffKeepingTheChecksum() {
        for (int members : new int[] {2, 3, 5, 16}) {
            AdditiveMask mask = new AdditiveMask(ValueKeys.maskKey(SECRET), members);
            LinearChecksum cs = new LinearChecksum(ValueKeys.checksumKey(SECRET));
            int n = 37;
            long chunk = 3;
            int[] clearAll = new int[n + LinearChecksum.ELEMENTS];
            int[] maskedAll = new int[n + LinearChecksum.ELEMENTS];
            int[] clearOdd = new int[n + LinearChecksum.ELEMENTS];
            int[] maskedOdd = new int[n + LinearChecksum.ELEMENTS];
            boolean[] odd = new boolean[members];
            for (int p = 0; p < members; p++) {
                int[] x = cs.append(chunk, values(p, n));
                int[] m = x.clone();
                mask.mask(chunk, p, m, n, cs);
                assertFalse(Arrays.equals(x, m), "member " + p + " of " + members + " is masked");
                assertTrue(cs.holds(chunk, m), "a masked contribution keeps the checksum");
                for (int i = 0; i < x.length; i++) {
                    clearAll[i] += x[i];
                    maskedAll[i] += m[i];
                    if (p % 2 == 1) {
                        clearOdd[i] += x[i];
                        maskedOdd[i] += m[i];
                    }
                }
                odd[p] = p % 2 == 1;
            }
            assertArrayEquals(clearAll, maskedAll, members + " members: the masks cancel in the full sum");
            assertTrue(cs.holds(chunk, maskedOdd), "a partial masked sum keeps the checksum");
            mask.unmask(chunk, odd, maskedOdd, n, cs);
            assertArrayEquals(clearOdd, maskedOdd, members + " members: the residue of the absent comes off");
        }
    }

    @Test
    void theChecksumCatchesAnyChangeOfOneWordByAnOddAmountAndNotAnHonestSum() {
        LinearChecksum cs = new LinearChecksum(ValueKeys.checksumKey(SECRET));
        int[] a = cs.append(9, values(1, 100));
        int[] b = cs.append(9, values(2, 100));
        int[] sum = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            sum[i] = a[i] + b[i];
        }
        assertTrue(cs.holds(9, sum), "linear: a sum of checksummed chunks is checksummed");
        assertFalse(cs.holds(10, sum), "the coefficients are the chunk's");
        for (int i = 0; i < sum.length; i++) {
            int[] bad = sum.clone();
            bad[i] += 2 * i + 1;
            assertFalse(cs.holds(9, bad), "word " + i);
        }
        assertFalse(cs.holds(9, new int[1]), "too short to carry a checksum");
    }

    @Test
    void theSuspectIsTheSenderOfAFailingPacketThatReceivedNoneAndResultsCountOnlyWhenContributionsPassed() {
        ChecksumAudit.Failure up = new ChecksumAudit.Failure("agg-1-1", 4, false);
        ChecksumAudit.Failure upAgain = new ChecksumAudit.Failure("core-1", 4, true);
        ChecksumAudit.Failure down = new ChecksumAudit.Failure("core-1", 4, true);
        ChecksumAudit.Failure downAgain = new ChecksumAudit.Failure("agg-1-1", 4, true);
        // agg-1-1 corrupted chunk 4 on its way up: core-1 saw it, then every switch below saw the result
        assertEquals(
                List.of("agg-1-1"),
                ChecksumAudit.suspects(Map.of(
                        "core-1",
                        List.of(up),
                        "agg-2-1",
                        List.of(down),
                        "edge-2-1",
                        List.of(new ChecksumAudit.Failure("agg-2-1", 4, true)),
                        "agg-1-1",
                        List.of(upAgain),
                        "edge-1-1",
                        List.of(downAgain))));
        // a corrupting root: every contribution passed, its result fails below it
        assertEquals(
                List.of("core-1"),
                ChecksumAudit.suspects(Map.of(
                        "agg-2-1", List.of(down), "edge-2-1", List.of(new ChecksumAudit.Failure("agg-2-1", 4, true)))));
        assertEquals(List.of(), ChecksumAudit.suspects(Map.of()));
    }
}
