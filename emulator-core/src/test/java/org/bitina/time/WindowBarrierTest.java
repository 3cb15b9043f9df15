package org.bitina.time;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WindowBarrierTest {
    @Test
    void theLookaheadIsTheSmallestLatencyPlusTheShortestPossibleSerialisation() {
        assertEquals(1, WindowBarrier.lookahead(0));
        assertEquals(1001, WindowBarrier.lookahead(1000));
    }

    @Test
    void aWindowEndsOneLookaheadLaterOrAtTheNextFault() {
        WindowBarrier b = new WindowBarrier(1, 1000);
        assertEquals(1500, b.end(500, Long.MAX_VALUE));
        assertEquals(800, b.end(500, 800), "a fault lands between windows, at its time");
        assertEquals(1500, b.end(500, 500), "a fault at the window's start is applied already");
        assertEquals(Long.MAX_VALUE, b.end(Long.MAX_VALUE - 10, Long.MAX_VALUE));
    }

    @Test
    void aWindowIsOverOnlyWhenEveryMemberReportedAndNothingIsInFlightBetweenThem() {
        WindowBarrier b = new WindowBarrier(3, 100);
        b.open(1);
        b.report(0, 1, new long[] {0, 2, 1}, 0, 500);
        b.report(1, 1, new long[] {0, 0, 0}, 2, 300);
        assertFalse(b.complete(), "member 2 has not reported");
        b.report(2, 1, new long[] {0, 0, 0}, 0, Long.MAX_VALUE);
        assertFalse(b.complete(), "member 0 sent member 2 a message it has not received yet");
        b.received(2, 1);
        assertTrue(b.complete());
        assertEquals(300, b.next());
    }

    @Test
    void reportsOfAnotherWindowOrTwiceDoNotCount() {
        WindowBarrier b = new WindowBarrier(2, 100);
        b.open(7);
        b.report(0, 6, new long[] {0, 0}, 0, 10);
        assertFalse(b.complete());
        b.report(0, 7, new long[] {0, 0}, 0, 50);
        b.report(0, 7, new long[] {0, 0}, 0, 50);
        assertFalse(b.complete(), "one report per member per window");
        b.report(1, 7, new long[] {0, 0}, 0, 40);
        assertTrue(b.complete());
        assertEquals(40, b.next());
        b.open(8);
        assertFalse(b.complete());
        assertEquals(Long.MAX_VALUE, b.next());
    }

    @Test
    void countsAreCumulativeAndAStaleLowerReceiptNeverUndoesALaterOne() {
        WindowBarrier b = new WindowBarrier(2, 100);
        b.open(1);
        b.report(0, 1, new long[] {0, 3}, 0, 10);
        b.received(1, 3);
        b.report(1, 1, new long[] {0, 0}, 2, 10);
        assertTrue(b.complete());
    }

    @Test
    void aMemberWithNothingDueBeforeTheEndSitsTheWindowOutAndKeepsItsNextTime() {
        WindowBarrier b = new WindowBarrier(3, 100);
        boolean[] first = b.open(1, false, 100);
        assertArrayEquals(new boolean[] {true, true, true}, first, "nothing is known before the first reports");
        b.report(0, 1, new long[] {0, 0, 0}, 0, 150, new long[] {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE});
        b.report(1, 1, new long[] {0, 0, 0}, 0, 900, null);
        b.report(2, 1, new long[] {0, 0, 0}, 0, 5_000, null);
        assertTrue(b.complete());
        assertEquals(150, b.next());
        boolean[] second = b.open(2, false, 250);
        assertArrayEquals(new boolean[] {true, false, false}, second, "members 1 and 2 have nothing before 250");
        assertFalse(b.complete(), "member 0 runs it");
        // member 0 sends member 2 frames due at 240: member 2 has work in the next window, member 1 still none
        b.report(0, 2, new long[] {0, 0, 1}, 0, Long.MAX_VALUE, new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 240});
        assertFalse(b.complete(), "the frames for member 2 are still in flight");
        b.received(2, 1);
        assertTrue(b.complete());
        assertEquals(240, b.next(), "the frames in flight count as member 2's next time");
        assertArrayEquals(new boolean[] {false, false, true}, b.open(3, false, 340));
        assertArrayEquals(
                new boolean[] {true, true, true}, b.open(4, true, 440), "the coordinator touched every device");
    }
}
