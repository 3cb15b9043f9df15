package org.bitina.usecase.broadcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;
import org.junit.jupiter.api.Test;

/** The unicast baseline's schedule: the root sends each chunk to every other member, carrying its own data alone. */
class RootUnicastTest {
    @Test
    void theRootSendsEachChunkToEveryOtherMemberFromItsSuccessorOnAndNoOneElseSends() {
        RootUnicast s = new RootUnicast(4, 2);
        assertEquals(
                List.of(3, 0, 1),
                s.sends(2, 7).stream().map(HostSchedule.Send::to).toList());
        s.sends(2, 7).forEach(send -> assertEquals(HostSchedule.only(2), send.when()));
        for (int m : new int[] {0, 1, 3}) {
            assertEquals(List.of(), s.sends(m, 7));
            assertEquals(true, s.keeps(m, 7));
        }
        assertEquals(HostSchedule.only(2), s.contributors());
        assertThrows(IllegalArgumentException.class, () -> new RootUnicast(3, 3));
    }
}
