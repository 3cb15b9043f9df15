package org.bitina.usecase.reducescatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;
import org.junit.jupiter.api.Test;

/** The ring reduce-scatter's sends against the closed form: N-1 steps per chunk, (N-1)/N of the array per member. */
class RingReduceScatterTest {
    @Test
    void eachChunkTakesNMinusOneStepsAndEachMemberSendsEveryChunkButItsOwn() {
        for (int n : new int[] {1, 2, 3, 5, 16}) {
            RingReduceScatter ring = new RingReduceScatter(n);
            int chunks = 7 * n + 3;
            long total = 0;
            for (int m = 0; m < n; m++) {
                long sent = 0;
                long kept = 0;
                for (int c = 0; c < chunks; c++) {
                    List<HostSchedule.Send> s = ring.sends(m, c);
                    sent += s.size();
                    kept += ring.keeps(m, c) ? 1 : 0;
                    for (HostSchedule.Send x : s) {
                        assertEquals((m + 1) % n, x.to(), "to the successor");
                    }
                }
                // closed form: member m owns ceil((chunks - m) / n) chunks and sends each other chunk once
                long owned = (chunks - m + n - 1) / n;
                assertEquals(owned, kept, "n=" + n + " member " + m);
                assertEquals(chunks - owned, sent, "n=" + n + " member " + m);
                total += sent;
            }
            assertEquals((long) chunks * (n - 1), total, "n=" + n + ": N-1 steps per chunk");
        }
    }

    @Test
    void thePartialSumGrowsByOneMemberPerStepFromTheOwnersSuccessorAndEndsAtTheOwner() {
        int n = 4;
        RingReduceScatter ring = new RingReduceScatter(n);
        int chunk = 6; // owned by member 2: 3 starts, then 0, then 1, which sends to 2
        assertEquals(List.of(), ring.sends(2, chunk));
        assertEquals(bits(3), ring.sends(3, chunk).get(0).when());
        assertEquals(bits(3, 0), ring.sends(0, chunk).get(0).when());
        assertEquals(bits(3, 0, 1), ring.sends(1, chunk).get(0).when());
        assertEquals(2, ring.sends(1, chunk).get(0).to());
        assertTrue(ring.keeps(2, chunk));
    }

    private static BitSet bits(int... b) {
        BitSet s = new BitSet();
        for (int i : b) {
            s.set(i);
        }
        return s;
    }
}
