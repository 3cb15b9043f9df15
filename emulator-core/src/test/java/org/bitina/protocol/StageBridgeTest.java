package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * The bridge between a partition's tree and the second stage (seed 000 section 7, H2), and the
 * second stage's bookkeeping of whose contributions it holds. Job of 8 bits in two partitions:
 * p1 = job bits 2, 5, 7 (printed [01001010]), p2 = the other five.
 */
class StageBridgeTest {
    private static final EndpointSet P1 = EndpointSets.parse("[01001010]");
    private static final EndpointSet P2 = EndpointSets.parse("[10110101]");
    /** Partition p1's root: stage job 1, p1's tree is job 5001001, its stage bit 0, its stage uplink core-1. */
    private static final SecondStage AT_P1_ROOT = new SecondStage(1, 5_001_001, 0, "core-1", List.of(P1, P2));

    private static Emission partitionAggregate(String pbm, boolean partial) {
        EndpointSet set = EndpointSets.parse(pbm);
        return new Emission(
                new StateKey(1, 5_001_001, 0, 3),
                EndpointSets.parse("[111]"),
                set,
                ReductionOp.SUM,
                Payload.of(new int[] {7}),
                partial,
                0,
                0,
                10);
    }

    @Test
    void aCompletePartitionGoesUpAsItsOneStageBitWithoutProvenance() {
        InaPacket up = StageBridge.up(AT_P1_ROOT, 1, partitionAggregate("[111]", false));
        assertEquals(PacketType.CONTRIBUTION, up.header().type());
        assertEquals(1, up.header().job(), "the second stage's wire job");
        assertEquals(3, up.header().seq(), "the chunk");
        assertEquals("[10]", up.endpoints().toString(), "p1's stage bit");
        assertNull(up.provenance());
        assertFalse(up.header().has(Flags.PARTIAL));
    }

    @Test
    void aPartialPartitionGoesUpNamingItsMembersInTheJobsSpace() {
        // p1 held its first and third members: job bits 2 and 7, not 5
        InaPacket up = StageBridge.up(AT_P1_ROOT, 1, partitionAggregate("[101]", true));
        assertTrue(up.header().has(Flags.PARTIAL));
        assertEquals("[10]", up.endpoints().toString());
        assertEquals("[01000010]", up.provenance().toString());
    }

    @Test
    void theStagesResultComesDownWithThePartitionRootsAbmAndKeepsItsProvenance() {
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 3).withOp(ReductionOp.SUM);
        EndpointSet holds = EndpointSets.parse("[11110101]");
        InaPacket down = StageBridge.down(
                AT_P1_ROOT,
                1,
                EndpointSets.parse("[111]"),
                new InaPacket(h, EndpointSets.parse("[10]"), Payload.of(new int[] {9}), holds, null));
        assertEquals(5_001_001, down.header().job());
        assertEquals(PacketType.RESULT, down.header().type());
        assertEquals("[111]", down.endpoints().toString(), "F6: the partition root's A-BM is the multicast bitmap");
        assertEquals(holds, down.provenance());
        assertTrue(down.header().has(Flags.PARTIAL));
        InaPacket whole = StageBridge.down(
                AT_P1_ROOT,
                1,
                EndpointSets.parse("[111]"),
                new InaPacket(h, EndpointSets.parse("[10]"), Payload.of(new int[] {9})));
        assertNull(whole.provenance());
        assertFalse(whole.header().has(Flags.PARTIAL));
    }

    @Test
    void aStageBitmapStandsForItsPartitionsMembers() {
        SecondStage node = SecondStage.node(1, List.of(P1, P2));
        assertEquals(P1, node.expand(EndpointSets.parse("[10]")));
        assertEquals(EndpointSets.parse("[11111111]"), node.expand(EndpointSets.parse("[11]")));
        assertEquals(EndpointSets.parse("[00000000]"), node.expand(EndpointSets.parse("[00]")));
        assertFalse(node.bridges());
        assertThrows(IllegalArgumentException.class, () -> StageBridge.toJob(P1, EndpointSets.parse("[1111]")));
    }

    @Test
    void aStageAggregationHoldsTheUnionOfWhatItsPartitionsHeld() {
        AggregationTable table = new AggregationTable(8, 1_000_000);
        SecondStage node = SecondStage.node(1, List.of(P1, P2));
        StateKey k = new StateKey(1, 1, 0, 3);
        EndpointSet abm = EndpointSets.parse("[11]");
        EndpointSet p1Partial = EndpointSets.parse("[01000010]");
        table.offer(
                k,
                abm,
                new Contribution(EndpointSets.parse("[10]"), ReductionOp.SUM, Payload.of(new int[] {1}), 0, p1Partial),
                5,
                0);
        AggregationTable.Outcome o = table.offer(
                k,
                abm,
                new Contribution(
                        EndpointSets.parse("[01]"),
                        ReductionOp.SUM,
                        Payload.of(new int[] {2}),
                        0,
                        node.expand(EndpointSets.parse("[01]"))),
                5,
                0);
        Emission e = assertInstanceOf(AggregationTable.Complete.class, o).emission();
        assertEquals(abm, e.pbm(), "every partition came: the stage is complete");
        assertEquals(p1Partial.or(P2), e.holds(), "but p1 came without job bit 5: the result holds exactly that");
        assertEquals(Payload.of(new int[] {3}), e.payload());
    }

    private static Contribution stage(String pbm, String holds, int value) {
        return new Contribution(
                EndpointSets.parse(pbm), ReductionOp.SUM, Payload.of(new int[] {value}), 0, EndpointSets.parse(holds));
    }

    @Test
    void aLateMemberOfAPartitionAlreadyHeldIsFoldedInByWhatItHoldsAndCountedOnce() {
        SecondStage node = SecondStage.node(1, List.of(P1, P2));
        EndpointSet abm = EndpointSets.parse("[11]");
        StateKey open = new StateKey(1, 1, 0, 3);
        AggregationTable table = new AggregationTable(8, 1_000_000);
        // open entry: p1 came without job bit 5; bit 5 follows late (same stage bit), then p2 completes it
        table.offer(open, abm, stage("[10]", "[01000010]", 1), 5, 0);
        assertInstanceOf(AggregationTable.Buffered.class, table.offer(open, abm, stage("[10]", "[00001000]", 4), 5, 0));
        assertInstanceOf(
                AggregationTable.Duplicate.class,
                table.offer(open, abm, stage("[10]", "[00001000]", 4), 5, 0),
                "counted once");
        Emission e = assertInstanceOf(
                        AggregationTable.Complete.class, table.offer(open, abm, stage("[01]", P2.toString(), 2), 5, 0))
                .emission();
        assertEquals(EndpointSets.parse("[11111111]"), e.holds());
        assertEquals(Payload.of(new int[] {7}), e.payload());
        // after the entry left: a member it lacked is late (folded in further up), one it held a duplicate
        StateKey left = new StateKey(1, 1, 0, 4);
        table.offer(left, abm, stage("[10]", "[01000010]", 1), 5, 0);
        table.offer(left, abm, stage("[01]", P2.toString(), 2), 5, 0);
        assertInstanceOf(
                AggregationTable.Rejected.class,
                table.offer(left, abm, stage("[10]", "[01001000]", 4), 5, 0),
                "a contribution overlapping what left would count job bit 2 twice");
        assertInstanceOf(AggregationTable.Late.class, table.offer(left, abm, stage("[10]", "[00001000]", 4), 5, 0));
        assertInstanceOf(
                AggregationTable.Duplicate.class, table.offer(left, abm, stage("[10]", "[00001000]", 4), 5, 0));
        InaPacket late = StageBridge.late(
                AT_P1_ROOT,
                1,
                new InaPacket(
                        InaHeader.of(PacketType.CONTRIBUTION, 1, 5_001_001, 4).withOp(ReductionOp.SUM),
                        EndpointSets.parse("[010]"),
                        Payload.of(new int[] {4})));
        assertEquals("[10]", late.endpoints().toString());
        assertEquals("[00001000]", late.provenance().toString(), "p1's second member is job bit 5");
        assertTrue(late.header().has(Flags.LATE) && late.header().has(Flags.PARTIAL));
    }
}
