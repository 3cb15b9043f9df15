package org.bitina.usecase.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The round and node timers from the round trip: each outlasts what it waits for by a round trip, and backs off. */
class AckTimersTest {
    private static final long RTT = 20_000;
    private static final long MS = 1_000_000;

    /** h1 (source) <- e1 <- a1 <- {e2 <- r1, r2; e3 <- r3}; the VAT adds e3 -> e2 (a pre-configured detour). */
    private final List<String[]> upward = List.of(
            new String[] {"e1", "h1"},
            new String[] {"a1", "e1"},
            new String[] {"e2", "a1"},
            new String[] {"e3", "a1"},
            new String[] {"r1", "e2"},
            new String[] {"r2", "e2"},
            new String[] {"r3", "e3"},
            new String[] {"e3", "e2"});

    private final Map<String, Long> completion =
            Map.of("h1", 100 * MS, "e1", 500 * MS, "a1", 400 * MS, "e2", 200 * MS, "e3", 100 * MS);

    @Test
    void eachNodeOutlastsEveryNodeWhoseAcksItTakesByMoreThanARoundTrip() {
        AckTimers t = AckTimers.of("h1", upward, completion, 700 * MS, RTT, 0, false);
        for (String[] e : upward) {
            if (completion.containsKey(e[0]) && !e[1].equals("h1")) {
                long child = t.nodeNanos().get(e[0]);
                long parent = t.nodeNanos().get(e[1]);
                assertTrue(child + RTT < parent, e[0] + " " + child + " vs " + e[1] + " " + parent);
            }
        }
        // e3 is below e2 on the VAT, so e2 is two levels up, a1 three, e1 four, the source five
        assertEquals(3 * RTT, t.nodeNanos().get("e3"));
        assertEquals(5 * RTT, t.nodeNanos().get("e2"));
        assertEquals(9 * RTT, t.nodeNanos().get("e1"));
        assertEquals(13 * RTT, t.roundBaseNanos());
        assertTrue(t.roundBaseNanos() > t.nodeNanos().get("e1") + RTT);
    }

    @Test
    void theSourceBacksOffEachRoundUpToTheCompletionTimeoutRule() {
        AckTimers t = AckTimers.of("h1", upward, completion, 700 * MS, RTT, 0, false);
        assertEquals(13 * RTT, t.round(0));
        assertEquals(26 * RTT, t.round(1));
        assertEquals(52 * RTT, t.round(2));
        assertEquals(64 * 13 * RTT, t.round(30), "six doublings at most");
        AckTimers slow = AckTimers.of("h1", upward, completion, 700 * MS, 5 * MS, 0, false);
        assertEquals(65 * MS, slow.round(0));
        assertEquals(700 * MS, slow.round(4), "never past the completion timeout rule");
    }

    @Test
    void aStraggleIsAddedToEveryTimer() {
        AckTimers t = AckTimers.of("h1", upward, completion, 700 * MS, RTT, 7_000, false);
        assertEquals(3 * RTT + 7_000, t.nodeNanos().get("e3"));
        assertEquals(13 * RTT + 7_000, t.roundBaseNanos());
    }

    @Test
    void silentReceiversNoPathModelOrACycleKeepTheCompletionTimeoutRule() {
        AckTimers silent = AckTimers.of("h1", upward, completion, 700 * MS, RTT, 0, true);
        assertEquals(completion, silent.nodeNanos());
        assertEquals(700 * MS, silent.round(0));
        AckTimers realClock = AckTimers.of("h1", upward, completion, 700 * MS, 0, 0, false);
        assertEquals(completion, realClock.nodeNanos());
        List<String[]> cycle = List.of(new String[] {"a", "b"}, new String[] {"b", "a"});
        assertNull(AckTimers.levels(cycle));
        AckTimers cyclic = AckTimers.of("a", cycle, Map.of("a", MS, "b", MS), 3 * MS, RTT, 0, false);
        assertEquals(3 * MS, cyclic.round(0));
        assertEquals(MS, cyclic.nodeNanos().get("a"));
    }

    @Test
    void aTimerIsNeverLongerThanTheCompletionTimeoutRule() {
        AckTimers t = AckTimers.of("h1", upward, completion, 700 * MS, 60 * MS, 0, false);
        assertEquals(100 * MS, t.nodeNanos().get("e3"), "3 round trips of 60 ms exceed e3's 100 ms");
        assertEquals(700 * MS, t.round(0));
    }
}
