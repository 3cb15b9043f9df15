package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    private final Set<Long> live = new HashSet<>();
    private final Deadlines deadlines = new Deadlines((key, generation) -> live.contains(generation));

    @Test
    void completedEntriesDoNotPileUpInTheQueue() {
        int most = 0;
        for (long g = 1; g <= 10_000; g++) {
            live.add(g);
            deadlines.add(1_000_000 + g, g, new StateKey(1, 1, 0, g), live.size());
            // past twice the live entries (+ 64) the queue compacts before adding: one live entry here
            assertTrue(
                    deadlines.size() <= 2 * live.size() + 65,
                    "queue holds " + deadlines.size() + " deadlines for one live entry");
            most = Math.max(most, deadlines.size());
            live.remove(g); // completed at once: its deadline is stale
        }
        assertTrue(most > 2, "the queue was compacted, not merely small: " + most);
    }

    @Test
    void onlyLiveDeadlinesAreDueAndInTimeOrder() {
        for (long g = 1; g <= 200; g++) {
            deadlines.add(1_000 - g, g, new StateKey(1, 1, 0, g), live.size());
            if (g % 3 == 0) {
                live.add(g);
            }
        }
        assertEquals(1_000 - 198, deadlines.next());
        long last = Long.MIN_VALUE;
        int due = 0;
        for (StateKey k = deadlines.pollDue(1_000); k != null; k = deadlines.pollDue(1_000)) {
            assertTrue(live.contains(k.seq()));
            assertTrue(1_000 - k.seq() >= last);
            last = 1_000 - k.seq();
            due++;
        }
        assertEquals(66, due);
        assertNull(deadlines.pollDue(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, deadlines.next());
    }
}
