package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemberTallyTest {

    @Test
    void aDeviceIsDueAtItsOwnNextTimeOrAtTheEarliestFrameSentToItWhicheverComesFirst() {
        MemberTally t = new MemberTally(2, List.of("s1", "h1"));
        assertEquals(Long.MIN_VALUE, t.dueAt("s1"), "before it ran once nothing is known: it runs");
        t.open(2);
        t.deviceDone("s1", 500, List.of(), List.of(), 3, 0);
        assertTrue(t.deviceDone("h1", Long.MAX_VALUE, List.of(), List.of(), 0, 0), "the last device says so");
        assertEquals(500, t.dueAt("s1"));
        assertEquals(Long.MAX_VALUE, t.dueAt("h1"), "h1 has nothing: it sits the next windows out");
        t.arriving("h1", 1_200);
        t.arriving("h1", 1_100);
        assertEquals(1_100, t.dueAt("h1"), "a neighbour's frames make it due");
        assertEquals(500, t.next());
        assertEquals(List.of("s1"), t.takeDue(1_000), "h1's frames are due after the window's end: it sits out");
        assertEquals(List.of("s1", "h1"), t.takeDue(1_101), "in the member's order");
        assertEquals(Long.MAX_VALUE, t.dueAt("h1"), "once it runs it says its next time itself");
        t.unknown();
        assertEquals(Long.MIN_VALUE, t.dueAt("h1"), "the coordinator touched the devices: every one runs");
    }

    @Test
    void aFrameNotedByADeviceThatRanEarlyIsKeptForItsNeighbourUntilTheNeighbourRunsAgain() {
        // the cross-member determinism bug: the agent cleared each device's notes just before telling
        // it to run, so a device told earlier could run, note a frame for a local neighbour due in a
        // later window, and have the note cleared when the agent reached that neighbour; the neighbour
        // then sat out the frame's window and met it late. The notes of every due device are taken
        // at once, before any runs, so what a running device notes stays.
        MemberTally t = new MemberTally(1, List.of("s1", "s2"));
        t.open(2);
        t.deviceDone("s1", 100, List.of(), List.of(), 1, 0);
        t.deviceDone("s2", 100, List.of(), List.of(), 1, 0);
        List<String> due = t.takeDue(200);
        assertEquals(List.of("s1", "s2"), due);
        t.open(due.size());
        t.arriving("s2", 1_250); // s1 runs first and sends s2 a frame due at 1250
        t.deviceDone("s1", Long.MAX_VALUE, List.of(), List.of(), 1, 0);
        // s2 ran before the frame reached its mailbox: it says it has nothing
        assertTrue(t.deviceDone("s2", Long.MAX_VALUE, List.of(), List.of(), 1, 0));
        assertEquals(1_250, t.dueAt("s2"), "the note survives s2's own report");
        assertEquals(1_250, t.next(), "and the member says so to the coordinator");
        assertEquals(List.of("s2"), t.takeDue(1_300), "s2 runs the window the frame is due in");
    }

    @Test
    void framesForAnotherMemberWaitForTheWindowsEndInTheOrderSent() {
        MemberTally t = new MemberTally(3, List.of("s1"));
        DeviceCommand.FrameIn a = new DeviceCommand.FrameIn(null, "s1");
        DeviceCommand.FrameIn b = new DeviceCommand.FrameIn(null, "s1");
        t.mail(2, "core-1", List.of(a), 2_000);
        t.mail(2, "core-1", List.of(b), 1_500);
        t.mail(1, "core-2", List.of(b), 9_000);
        t.mail(7, "nowhere", List.of(a), 1);
        assertEquals(
                List.of(new MemberTally.Parcel("core-1", List.of(a)), new MemberTally.Parcel("core-1", List.of(b))),
                t.takeMail(2));
        assertEquals(List.of(), t.takeMail(2), "taken once");
        assertArrayEquals(new long[] {Long.MAX_VALUE, 9_000, 1_500}, t.takeMailArrivals());
        assertArrayEquals(
                new long[] {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE}, t.takeMailArrivals(), "and starts again");
    }
}
