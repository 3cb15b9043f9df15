package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayWindowTest {
    private static final int SIZE = 4096;

    @Test
    void theWindowIsAtLeastAWordWide() {
        assertEquals(64, new ReplayWindow(1).size());
        assertEquals(128, new ReplayWindow(65).size());
    }

    @Test
    void eachNumberIsAcceptedOnceInAnyOrderWithinTheWindow() {
        ReplayWindow w = new ReplayWindow(SIZE);
        assertTrue(w.accept(5));
        assertTrue(w.accept(3));
        assertTrue(w.accept(9));
        assertFalse(w.accept(5), "a replay");
        assertFalse(w.accept(9), "a replay of the highest");
        assertTrue(w.accept(4));
        assertTrue(w.accept(9 + SIZE - 1));
        assertFalse(w.accept(9), "still seen, at the window's bottom");
        assertFalse(w.accept(8), "below the window: a replay whatever its age");
        assertFalse(w.accept(-1));
    }

    @Test
    void agreesWithASetOfEverythingSeenWhileReorderingStaysInsideTheWindow() {
        // a model: accepted iff never seen and not below highest - SIZE + 1
        SplittableRandom r = new SplittableRandom(4303);
        ReplayWindow w = new ReplayWindow(SIZE);
        Set<Long> seen = new HashSet<>();
        long highest = -1;
        long next = 0;
        for (int i = 0; i < 200_000; i++) {
            long seq = r.nextInt(4) == 0 ? Math.max(0, next - r.nextInt(2 * SIZE)) : next++ + r.nextInt(200);
            boolean expected = !seen.contains(seq) && seq > highest - SIZE;
            assertEquals(expected, w.accept(seq), "seq " + seq + " at step " + i + ", highest " + highest);
            if (expected) {
                seen.add(seq);
                highest = Math.max(highest, seq);
            }
        }
    }
}
