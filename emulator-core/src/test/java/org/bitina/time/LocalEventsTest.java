package org.bitina.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalEventsTest {
    /** Records what it handled; its timer fires at the given deadlines, one after the other. */
    private static final class Recorder implements LocalEvents.Handler<String> {
        final List<String> seen = new ArrayList<>();
        final List<Long> deadlines;

        Recorder(Long... deadlines) {
            this.deadlines = new ArrayList<>(List.of(deadlines));
        }

        @Override
        public void event(String what, long vt) {
            seen.add(what + "@" + vt);
        }

        @Override
        public long nextTimer() {
            return deadlines.isEmpty() ? Long.MAX_VALUE : deadlines.get(0);
        }

        @Override
        public void timer(long vt) {
            seen.add("timer@" + vt);
            deadlines.remove(0);
        }
    }

    @Test
    void eventsRunInTimeThenSenderThenSendersOrderWhateverTheOrderTheyCameIn() {
        LocalEvents<String> q = new LocalEvents<>();
        q.add(30, "b", "b1");
        q.add(10, "c", "c1");
        q.add(30, "a", "a1");
        q.add(30, "b", "b2");
        q.add(20, "a", "a2");
        Recorder r = new Recorder();
        assertTrue(q.runWindow(0, 100, r));
        assertEquals(List.of("c1@10", "a2@20", "a1@30", "b1@30", "b2@30"), r.seen);
        assertEquals(5, q.processed());
    }

    @Test
    void aWindowStopsBeforeItsEndAndTimersInterleaveWithFramesFirstAtTheSameTime() {
        LocalEvents<String> q = new LocalEvents<>();
        q.add(10, "a", "x");
        q.add(20, "a", "y");
        q.add(40, "a", "z");
        Recorder r = new Recorder(10L, 25L, 40L);
        assertTrue(q.runWindow(0, 40, r));
        assertEquals(List.of("x@10", "timer@10", "y@20", "timer@25"), r.seen);
        assertEquals(25, q.now());
        assertEquals(40, q.next(r), "the frame and the timer at 40 are next");
        q.runWindow(40, 41, r);
        assertEquals(List.of("x@10", "timer@10", "y@20", "timer@25", "z@40", "timer@40"), r.seen);
        assertEquals(Long.MAX_VALUE, q.next(r));
    }

    @Test
    void anEventBehindTheDevicesTimeHappensNowAndIsCounted() {
        LocalEvents<String> q = new LocalEvents<>();
        q.runWindow(100, 200, new Recorder());
        assertEquals(100, q.now());
        q.add(50, "a", "late");
        assertEquals(1, q.behind());
        Recorder r = new Recorder();
        q.runWindow(200, 300, r);
        assertEquals(List.of("late@200"), r.seen, "never earlier than the window it is processed in");
    }

    @Test
    void anEventStillQueuedWhenAWindowStartsAfterItsTimeIsCountedNotMovedSilently() {
        // a device that sat out the window its frame was due in (a missed wake-up) meets the frame
        // at a later window's start: that must show as a problem, not as a slower valid-looking run
        LocalEvents<String> q = new LocalEvents<>();
        q.add(150, "a", "missed");
        q.add(900, "a", "later");
        Recorder r = new Recorder();
        q.runWindow(400, 500, r);
        assertEquals(1, q.behind(), "the one event before the start");
        assertEquals(List.of("missed@400"), r.seen);
        q.runWindow(900, 1_000, r);
        assertEquals(1, q.behind(), "an event on time is not counted");
    }

    @Test
    void aTimerThatNeverMovesOnStopsTheWindowInsteadOfSpinning() {
        LocalEvents<String> q = new LocalEvents<>();
        LocalEvents.Handler<String> stuck = new LocalEvents.Handler<>() {
            @Override
            public void event(String what, long vt) {}

            @Override
            public long nextTimer() {
                return 5;
            }

            @Override
            public void timer(long vt) {}
        };
        assertFalse(q.runWindow(0, 10, stuck));
    }

    @Test
    void clearStartsAPhaseAtTimeZero() {
        LocalEvents<String> q = new LocalEvents<>();
        q.add(10, "a", "x");
        q.runWindow(0, 5, new Recorder());
        q.clear();
        assertEquals(0, q.now());
        assertEquals(0, q.size());
        assertEquals(Long.MAX_VALUE, q.nextEvent());
    }
}
