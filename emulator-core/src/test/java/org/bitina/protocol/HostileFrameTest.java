package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.AllReduceWorker;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** Well-formed frames a hostile member could send: each is a counted drop or a named mismatch, never an exception. */
class HostileFrameTest {
    private static final long MS = 1_000_000L;
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(fig1);
    private final BitSpace space = new BitSpace(List.of("w1", "w2", "w3", "w4"));

    @Test
    void aFrameForANodeNoTopologyHasIsDroppedWithItsReason() {
        NodeEngine s1 = new NodeEngine("s1", routing, new AggregationTable(16, 500 * MS), true);
        s1.install(JobTables.builder("j", 1, 1, 4, 50 * MS)
                .bift(Bift.build(routing, "s1", space))
                .build());
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM);
        List<NodeEngine.Action> out = s1.onFrame(
                new Frame(
                        new InaPacket(h, EndpointSets.parse("[1000]"), Payload.of(new float[] {1f})),
                        "no-such-node",
                        0),
                0);
        assertEquals(1, s1.counters(1, 1).get(Counter.DROPS));
        assertTrue(
                out.stream()
                        .anyMatch(a -> a instanceof NodeEngine.Traced t
                                && t.event().event() == TraceEvent.Kind.DROP
                                && t.event().detail().equals("unknown destination no-such-node")),
                out.toString());
        assertTrue(out.stream().noneMatch(a -> a instanceof NodeEngine.Send), "nothing goes on");
    }

    @Test
    void aResultWhoseProvenanceIsOfAnotherBitSpaceIsNamedNotTaken() {
        DataSpec data = new DataSpec(8, ElementType.FLOAT32, ReductionOp.SUM, 8, 1, 7, 1024);
        AllReducePlan plan = AllReducePlan.builder()
                .jobName("j")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(1)
                .space(space)
                .members(space.endpoints())
                .data(data)
                .uplink(Map.of("w1", "s1", "w2", "s1", "w3", "s7", "w4", "s7"))
                .timeoutNanos(50 * MS)
                .seed(7)
                .build();
        AllReduceWorker w1 = new AllReduceWorker(plan, "w1");
        w1.start(0);
        InaHeader h =
                InaHeader.of(PacketType.RESULT, 1, 1, 0).withOp(ReductionOp.SUM).withFlags(Flags.PARTIAL);
        // 16 bits of provenance in a job of 4
        InaPacket forged = new InaPacket(h, FlatBitmap.full(4), Payload.of(new float[8]), FlatBitmap.full(16), null);
        assertEquals(List.of(), w1.onDeliver(new Frame(forged, null, 0), 0));
        assertEquals(0, w1.report().verifiedChunks());
        assertTrue(
                w1.report().mismatches().get(0).contains("not members of this job"),
                w1.report().mismatches().toString());
        assertTrue(!w1.done(), "the chunk still waits for a real result");
    }

    @Test
    void dropsAreCountedByReasonWithTheirNumbersAndBitmapsLeftOut() {
        NodeEngine s1 = new NodeEngine("s1", routing, new AggregationTable(16, 500 * MS), false);
        s1.install(JobTables.builder("j", 1, 1, 4, 50 * MS)
                .bift(Bift.build(routing, "s1", space))
                .build());
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM);
        Payload one = Payload.of(new float[] {1f});
        s1.onFrame(new Frame(new InaPacket(h, EndpointSets.parse("[1000]"), one), "no-such-node", 0), 0);
        s1.onFrame(new Frame(new InaPacket(h, EndpointSets.parse("[1000]"), one), "other-node", 0), 0);
        s1.onFrame(new Frame(new InaPacket(h, EndpointSets.parse("[10000000]"), one), "s5", 0), 0);
        InaHeader foreign = InaHeader.of(PacketType.CONTRIBUTION, 9, 9, 0).withOp(ReductionOp.SUM);
        s1.onFrame(new Frame(new InaPacket(foreign, EndpointSets.parse("[1000]"), one), "s5", 0), 0);
        assertEquals(
                Map.of(
                        "unknown destination no-such-node",
                        1L,
                        "unknown destination other-node",
                        1L,
                        "bitmap of N bits in a job of N",
                        1L),
                s1.dropsByReason(1, 1));
        assertEquals(Map.of("unknown job tN/jN", 1L), s1.unknownJobDropsByReason());
        assertEquals(4, s1.drops());
        assertEquals("unknown job t9/j9", s1.lastDropReason());
    }
}
