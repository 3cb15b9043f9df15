package org.bitina.usecase.bierinc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;
import org.junit.jupiter.api.Test;

class RingChainTest {
    @Test
    void aBroadcastPassesTheRootsDataAlongTheRingUntilTheRootsPredecessor() {
        RingChain b = new RingChain(4, 2, IncPlan.Collective.BROADCAST);
        BitSet root = HostSchedule.only(2);
        assertEquals(root, b.contributors());
        assertEquals(List.of(new HostSchedule.Send(3, root)), b.sends(2, 0));
        assertEquals(List.of(new HostSchedule.Send(0, root)), b.sends(3, 5));
        assertEquals(List.of(new HostSchedule.Send(1, root)), b.sends(0, 1));
        assertEquals(List.of(), b.sends(1, 0), "the root's predecessor ends the chain");
        for (int m = 0; m < 4; m++) {
            assertTrue(b.keeps(m, 0), "everyone ends with the data");
        }
    }

    @Test
    void aReduceAddsEachMembersShareOnTheWayAndEndsAtTheRootAlone() {
        RingChain r = new RingChain(4, 1, IncPlan.Collective.REDUCE);
        assertEquals(HostSchedule.all(4), r.contributors());
        BitSet two = HostSchedule.only(2);
        assertEquals(List.of(new HostSchedule.Send(3, two)), r.sends(2, 0), "the root's successor starts");
        BitSet twoThree = (BitSet) two.clone();
        twoThree.set(3);
        assertEquals(List.of(new HostSchedule.Send(0, twoThree)), r.sends(3, 0));
        BitSet allButRoot = (BitSet) twoThree.clone();
        allButRoot.set(0);
        assertEquals(List.of(new HostSchedule.Send(1, allButRoot)), r.sends(0, 7));
        assertEquals(List.of(), r.sends(1, 0), "the root adds the last share");
        assertTrue(r.keeps(1, 0));
        assertFalse(r.keeps(0, 0));
    }
}
