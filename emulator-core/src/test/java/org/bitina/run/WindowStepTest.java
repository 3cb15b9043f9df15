package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The virtual clock's next step after a window, every branch, without actors. */
class WindowStepTest {
    private static final long NONE = Long.MAX_VALUE;

    /** A window ending at 1 us, next event at {@code next}, deadline 1 ms, not finished. */
    private static WindowStep.Facts facts(long next, long fault, long begin) {
        return new WindowStep.Facts(
                1_000,
                next,
                false,
                false,
                NONE,
                () -> 0,
                fault,
                begin,
                1_000_000,
                () -> List.of("h2", "h1"),
                () -> 3,
                () -> 4);
    }

    private static WindowStep.Facts finished(long next, boolean whole, long settleUntil, long settleNanos) {
        return new WindowStep.Facts(
                1_000,
                next,
                true,
                whole,
                settleUntil,
                () -> settleNanos,
                NONE,
                NONE,
                1_000_000,
                List::of,
                () -> 4,
                () -> 4);
    }

    @Test
    void theNextWindowStartsAtTheEarliestEventAndAFaultOrAStartDueByThenComesFirst() {
        assertEquals(
                new WindowStep.Window(5_000),
                WindowStep.next(facts(5_000, NONE, NONE)).step());
        assertEquals(
                new WindowStep.Faults(4_000),
                WindowStep.next(facts(5_000, 4_000, NONE)).step());
        // a fault at the same time as a start goes in first, and at the same time as an event too
        assertEquals(
                new WindowStep.Faults(5_000),
                WindowStep.next(facts(5_000, 5_000, 5_000)).step());
        assertEquals(
                new WindowStep.Begin(4_500),
                WindowStep.next(facts(5_000, 6_000, 4_500)).step());
        assertEquals(
                new WindowStep.Begin(5_000),
                WindowStep.next(facts(5_000, NONE, 5_000)).step());
        // a start waits for nothing past the deadline
        assertEquals(
                Ending.Cause.DEADLINE,
                ((WindowStep.Stop) WindowStep.next(facts(2_000_000, NONE, 1_500_000))
                                .step())
                        .ending()
                        .cause());
    }

    @Test
    void nothingLeftAndThePassedDeadlineStopThePhaseSayingWhatWasNotDone() {
        WindowStep.Stop idle =
                (WindowStep.Stop) WindowStep.next(facts(NONE, NONE, NONE)).step();
        assertEquals(Ending.Cause.NOTHING_LEFT, idle.ending().cause());
        assertEquals(
                "nothing left to happen (no frame in flight, no timer armed) at 1.0 us of modelled time;"
                        + " not finished: [h2, h1]",
                idle.ending().why());
        WindowStep.Stop late =
                (WindowStep.Stop) WindowStep.next(facts(2_000_000, NONE, NONE)).step();
        assertEquals(
                new Ending(Ending.Cause.DEADLINE, "modelled deadline of 1 ms passed with 3 of 4 endpoints done"),
                late.ending());
    }

    @Test
    void partialResultsSettleForTheirTimeThenTheWholePhaseIsFinished() {
        WindowStep.Decision whole = WindowStep.next(finished(5_000, true, NONE, 0));
        assertEquals(new WindowStep.Finished(), whole.step());
        // partial: the phase waits 2 us past the window's end for late contributions, then finishes
        WindowStep.Decision settling = WindowStep.next(finished(2_000, false, NONE, 2_000));
        assertEquals(3_000, settling.settleUntil());
        assertEquals(new WindowStep.Window(2_000), settling.step());
        assertEquals(
                new WindowStep.Finished(),
                WindowStep.next(finished(3_000, false, settling.settleUntil(), 2_000))
                        .step());
        // never more than the cap, however long the timers
        assertEquals(
                1_000 + WindowStep.MAX_SETTLE_NANOS,
                WindowStep.next(finished(2_000, false, NONE, Long.MAX_VALUE / 2))
                        .settleUntil());
    }

    @Test
    void aDeviceThatFailedOrAPacketStormStopsTheClockNamingTheProblemsInOrder() {
        assertNull(WindowStep.stopped(List.of(), 10, new PacketBound(1, 10), 4, 1_000));
        Ending failed = WindowStep.stopped(List.of("s2: boom", "s1: bang"), 0, null, 4, 1_000);
        assertEquals(
                new Ending(Ending.Cause.CLOCK_STOPPED, "the virtual clock could not go on: [s1: bang, s2: boom]"),
                failed);
        Ending storm = WindowStep.stopped(List.of(), 11, new PacketBound(1, 10), 4, 1_000);
        assertEquals(Ending.Cause.PACKET_STORM, storm.cause());
        assertTrue(storm.why().startsWith("packet storm: 11 frames handled by 1.0 us"), storm.why());
    }
}
