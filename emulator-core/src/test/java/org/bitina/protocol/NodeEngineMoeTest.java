package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.Bift;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The seed's Fig. 2 through the pure engines of s0 and s1: install on dispatch, aggregate on combine. */
class NodeEngineMoeTest {
    private static final long MS = 1_000_000L;

    private static NodeEngine engine(String node, Topology t, Routing r) {
        NodeEngine e = new NodeEngine(node, r, new AggregationTable(16, 500 * MS), true);
        e.install(JobTables.builder("fig2", 1, 1, 8, 50 * MS)
                .bift(Bift.build(r, node, ReplicatorTest.EXPERTS))
                .build());
        return e;
    }

    @Test
    void dispatchInstallsAndCombineClimbsTheSameTree() {
        Topology t = ReplicatorTest.fig2();
        Routing r = Routing.compute(t);
        NodeEngine s0 = engine("s0", t, r);
        NodeEngine s1 = engine("s1", t, r);
        InaHeader h = InaHeader.of(PacketType.DISPATCH, 1, 1, 0)
                .withOp(ReductionOp.SUM)
                .withDestination(0);
        Frame dispatch = new Frame(
                new InaPacket(h, EndpointSets.parse("[01100110]"), Payload.of(new float[] {1f})), null, 0, "src");
        List<NodeEngine.Action> out = s0.onFrame(dispatch, 0);
        List<Frame> toS1 = sends(out, "s1");
        assertEquals(1, toS1.size());
        assertEquals("s0", toS1.get(0).via(), "downstream copies name s0 as their branch");
        List<NodeEngine.Action> out1 = s1.onFrame(toS1.get(0), 0);
        Frame toE2 = sends(out1, "e2").get(0);
        assertEquals("s1", toE2.via());

        InaHeader c = InaHeader.of(PacketType.COMBINE, 1, 1, 0)
                .withOp(ReductionOp.SUM)
                .withDestination(0);
        s1.onFrame(
                new Frame(new InaPacket(c, EndpointSets.parse("[01000000]"), Payload.of(new float[] {2f})), "s1", 5),
                MS);
        List<NodeEngine.Action> done = s1.onFrame(
                new Frame(new InaPacket(c, EndpointSets.parse("[00100000]"), Payload.of(new float[] {3f})), "s1", 6),
                MS);
        Frame up = sends(done, "s0").get(0);
        assertEquals("s0", up.destination());
        assertEquals(EndpointSets.parse("[01100000]"), up.packet().endpoints(), "P-BM = s1's C-BM");
        assertEquals(PacketType.COMBINE, up.packet().header().type());

        List<NodeEngine.Action> at0 = s0.onFrame(up, 2 * MS);
        assertTrue(
                at0.stream()
                        .anyMatch(a ->
                                a instanceof NodeEngine.Traced tr && tr.event().event() == TraceEvent.Kind.TERMINATE),
                at0.toString());
    }

    @Test
    void theTreesObservedInAPhaseOutliveACrashButNotTheNextPhase() {
        Topology t = ReplicatorTest.fig2();
        Routing r = Routing.compute(t);
        NodeEngine s0 = engine("s0", t, r);
        InaHeader h = InaHeader.of(PacketType.DISPATCH, 1, 1, 0)
                .withOp(ReductionOp.SUM)
                .withDestination(0);
        s0.onFrame(
                new Frame(
                        new InaPacket(h, EndpointSets.parse("[01100110]"), Payload.of(new float[] {1f})),
                        null,
                        0,
                        "src"),
                0);
        List<ObservedTrees.Branch> before = s0.observedTrees(1, 1);
        assertEquals(1, before.size(), before.toString());
        assertEquals(
                before,
                s0.crashed(new AggregationTable(16, 500 * MS)).observedTrees(1, 1),
                "a crash keeps the phase's record");
        assertEquals(before, s0.emptied(new AggregationTable(16, 500 * MS)).observedTrees(1, 1), "so does a recovery");
        assertTrue(
                s0.restarted(new AggregationTable(16, 500 * MS))
                        .observedTrees(1, 1)
                        .isEmpty(),
                "a new phase starts empty");
    }

    @Test
    void aUnionPastThePrintedLimitIsCountedButNotPrinted() {
        ObservedTrees o = new ObservedTrees();
        JobKey job = new JobKey(1, 1);
        o.installed(job, ObservedTrees.Mechanism.C_BM, "up", FlatBitmap.of(ObservedTrees.MAX_PRINTED_BITS + 1, 3));
        o.installed(job, ObservedTrees.Mechanism.C_BM, "up", FlatBitmap.of(ObservedTrees.MAX_PRINTED_BITS + 1, 5));
        ObservedTrees.Branch b = o.of(job).get(0);
        assertEquals(2, b.installs());
        assertEquals(null, b.bits());
        ObservedTrees small = new ObservedTrees();
        small.installed(job, ObservedTrees.Mechanism.C_BM, "up", FlatBitmap.of(8, 3));
        assertEquals("[00010000]", small.of(job).get(0).bits());
    }

    private static List<Frame> sends(List<NodeEngine.Action> actions, String to) {
        List<Frame> out = new ArrayList<>();
        for (NodeEngine.Action a : actions) {
            if (a instanceof NodeEngine.Send s && s.neighbor().equals(to)) {
                out.add(s.frame());
            }
        }
        return out;
    }
}
