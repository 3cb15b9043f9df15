package org.bitina.usecase.allgather;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The all-gather's sends against the closed form: N-1 ring steps per chunk; one multicast per chunk to N-1 members. */
class GatherRoutesTest {
    @Test
    void theRingSendsEachChunkNMinusOneTimesAndEachMemberAllButItsSuccessorsChunks() {
        for (int n : new int[] {1, 2, 3, 5, 16}) {
            GatherRoutes ring = new GatherRoutes(GatherRoutes.Kind.RING, n);
            int chunks = 7 * n + 3;
            long total = 0;
            for (int m = 0; m < n; m++) {
                long sent = 0;
                for (int c = 0; c < chunks; c++) {
                    sent += ring.sends(m, c).size();
                }
                // closed form: member m passes on every chunk but those its successor owns
                int successor = (m + 1) % n;
                long successorOwns = n == 1 ? chunks : (chunks - successor + n - 1) / n;
                assertEquals(chunks - successorOwns, sent, "n=" + n + " member " + m);
                total += sent;
            }
            assertEquals((long) chunks * (n - 1), total, "n=" + n + ": N-1 steps per chunk");
        }
    }

    @Test
    void theMulticastSendsEachChunkOnceFromItsOwnerToEveryOtherMember() {
        int n = 4;
        GatherRoutes mc = new GatherRoutes(GatherRoutes.Kind.MULTICAST, n);
        for (int c = 0; c < 9; c++) {
            for (int m = 0; m < n; m++) {
                List<Integer> to = mc.targets(m, c);
                if (m == c % n) {
                    assertEquals(n - 1, to.size());
                    assertEquals(false, to.contains(m));
                } else {
                    assertEquals(List.of(), to, "only the owner sends");
                }
            }
        }
    }
}
