package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** Seed 001 through the pure engines of the Fig. 1 network, frames passed by hand. */
class BierIncEngineTest {
    private static final long MS = 1_000_000L;
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final BitSpace members = new BitSpace(List.of("w1", "w2", "w3", "w4"));
    private final Map<String, NodeEngine> engines = new LinkedHashMap<>();
    private final Map<String, List<Frame>> delivered = new LinkedHashMap<>();

    private void network(Routing r) {
        for (Node n : fig1.nodes()) {
            NodeEngine e = engines.computeIfAbsent(
                    n.name(), k -> new NodeEngine(k, r, new AggregationTable(16, 500 * MS), false));
            e.setRouting(r, Map.of(), 0);
            e.install(JobTables.builder("inc", 1, 9, 4, 50 * MS)
                    .bift(Bift.build(r, n.name(), members))
                    .build());
        }
    }

    /** Runs actions to quiescence: sends reach the neighbour's engine, deliveries are collected. */
    private void run(String at, List<NodeEngine.Action> first) {
        ArrayDeque<Object[]> queue = new ArrayDeque<>();
        queue.add(new Object[] {at, first});
        while (!queue.isEmpty()) {
            Object[] next = queue.poll();
            @SuppressWarnings("unchecked")
            List<NodeEngine.Action> actions = (List<NodeEngine.Action>) next[1];
            for (NodeEngine.Action a : actions) {
                if (a instanceof NodeEngine.Send s) {
                    queue.add(new Object[] {
                        s.neighbor(), engines.get(s.neighbor()).onFrame(s.frame(), 0)
                    });
                } else if (a instanceof NodeEngine.Deliver d) {
                    delivered
                            .computeIfAbsent((String) next[0], k -> new ArrayList<>())
                            .add(d.frame());
                }
            }
        }
    }

    private Frame forward(long seq, float[] payload) {
        InaHeader h =
                InaHeader.of(PacketType.INC_FORWARD, 1, 9, seq).withSource(0).withEntropy(9);
        return new Frame(
                new InaPacket(h, EndpointSets.parse("[0111]"), payload == null ? Payload.EMPTY : Payload.of(payload)),
                null,
                0);
    }

    private Frame reverse(int bit, float v) {
        InaHeader h = InaHeader.of(PacketType.INC_REVERSE, 1, 9, 5)
                .withOp(ReductionOp.SUM)
                .withDestination(0)
                .withEntropy(9)
                .withSource(bit);
        return new Frame(
                new InaPacket(h, EndpointSets.of(Encoding.FLAT, 4, 1, bit), Payload.of(new float[] {v})), "w1", 0);
    }

    @Test
    void theFirstForwardPacketCreatesTheTreeAndTheReductionCompletesByBitstringMatch() {
        network(Routing.compute(fig1));
        run("w1", engines.get("w1").originate(forward(0, null), 0));
        assertEquals(Set.of("w2", "w3", "w4"), delivered.keySet());
        // the tree: s1 saw [0111] from w1, s5 saw [0011] from s1 ...
        assertEquals(1, engines.get("s1").incTreeCount(1, 9));
        assertEquals(1, engines.get("s5").incTreeCount(1, 9));
        assertEquals(0, engines.get("s6").incTreeCount(1, 9), "off the tree");
        delivered.clear();
        for (int bit = 1; bit <= 3; bit++) {
            String host = "w" + (bit + 1);
            run(host, engines.get(host).originate(reverse(bit, bit * 10f), 0));
        }
        List<Frame> atRoot = delivered.get("w1");
        assertEquals(1, atRoot.size(), "one reduction reaches the BFIR");
        assertEquals(
                EndpointSets.parse("[0111]"),
                atRoot.get(0).packet().endpoints(),
                "OR of the bitstrings = the incoming bitstring");
        assertArrayEquals(
                new float[] {60f}, ((Payload.Float32) atRoot.get(0).packet().payload()).values());
        assertTrue(
                engines.get("s5").counters(1, 9).get(Counter.COMPLETIONS) > 0,
                "s5 reduced w3 and w4 before passing up");
    }

    @Test
    void theTimerSendsWhatArrivedAndTheBfirNamesWhoDidNot() {
        network(Routing.compute(fig1));
        run("w1", engines.get("w1").originate(forward(0, null), 0));
        delivered.clear();
        run("w2", engines.get("w2").originate(reverse(1, 10f), 0));
        run("w3", engines.get("w3").originate(reverse(2, 20f), 0));
        // w4 stays silent: the timers fire from the bottom up
        for (String n : List.of("s2", "s5", "s1", "w1")) {
            run(n, engines.get(n).onTimer(50 * MS));
        }
        for (String n : List.of("s5", "s1", "w1")) {
            run(n, engines.get(n).onTimer(100 * MS));
        }
        Frame last = delivered.get("w1").get(delivered.get("w1").size() - 1);
        EndpointSet heard = delivered.get("w1").stream()
                .map(f -> f.packet().endpoints())
                .reduce(EndpointSet::or)
                .orElseThrow();
        assertTrue(last.packet().header().has(Flags.PARTIAL)
                || last.packet().header().has(Flags.LATE));
        assertEquals(
                EndpointSets.parse("[0001]"), MissSet.of(EndpointSets.parse("[0111]"), heard), "the BFIR names w4");
    }

    @Test
    void aRoutingChangeRebuildsTheTreeFromTheNextForwardPacketAndNoBitmapChanges() {
        Routing before = Routing.compute(fig1);
        network(before);
        run("w1", engines.get("w1").originate(forward(0, null), 0));
        Map<String, List<Frame>> first = new LinkedHashMap<>(delivered);
        var down = fig1.linkBetween("s5", "s7").orElseThrow();
        // a routing change anywhere invalidates the trees; whatever the new routes, no bitmap may change
        network(Routing.compute(fig1, Set.of(down), Set.of()));
        assertEquals(0, engines.get("s1").incTreeCount(1, 9), "state cleared by the routing change");
        delivered.clear();
        run("w1", engines.get("w1").originate(forward(1, new float[] {1f}), 0));
        assertEquals(first.keySet(), delivered.keySet(), "the same members are reached");
        for (String m : delivered.keySet()) {
            assertEquals(
                    first.get(m).get(0).packet().endpoints(),
                    delivered.get(m).get(0).packet().endpoints(),
                    "bitmaps unchanged (F7)");
        }
        assertEquals(1, engines.get("s1").incTreeCount(1, 9), "rebuilt by the next forward packet");
    }

    @Test
    void reductionsOpenAtARoutingChangeLeaveAtOnceAndEveryShareReachesTheBfirOnce() {
        Routing before = Routing.compute(fig1);
        network(before);
        run("w1", engines.get("w1").originate(forward(0, null), 0));
        delivered.clear();
        run("w3", engines.get("w3").originate(reverse(2, 20f), 0));
        String holder = fig1.nodes().stream()
                .map(Node::name)
                .filter(n -> engines.get(n).table().liveEntries() > 0)
                .findFirst()
                .orElseThrow();
        assertEquals(1, engines.get(holder).table().liveEntries(), holder + " holds w3's share, waiting for w4's");
        Routing after =
                Routing.compute(fig1, Set.of(fig1.linkBetween("s5", "s7").orElseThrow()), Set.of());
        for (Node n : fig1.nodes()) {
            run(
                    n.name(),
                    engines.get(n.name())
                            .setRouting(after, Map.of(new JobKey(1, 9), Bift.build(after, n.name(), members)), MS));
        }
        assertEquals(
                1,
                engines.get(holder).counters(1, 9).get(Counter.REROUTE_FLUSHES),
                holder + "'s open reduction left at the routing change");
        assertEquals(0, engines.get("s1").incTreeCount(1, 9), "the trees went with the old routes");
        // shares sent after the change find no tree: they go on toward the BFIR along its BIFT, not dropped
        run("w4", engines.get("w4").originate(reverse(3, 40f), 0));
        run("w2", engines.get("w2").originate(reverse(1, 10f), 0));
        List<Frame> atRoot = delivered.get("w1");
        EndpointSet heard = EndpointSets.parse("[0000]");
        float sum = 0;
        for (Frame f : atRoot) {
            assertTrue(f.packet().header().has(Flags.LATE), "outside the tree: " + f.packet());
            assertTrue(!f.packet().endpoints().intersects(heard), "no share twice");
            heard = heard.or(f.packet().endpoints());
            sum += ((Payload.Float32) f.packet().payload()).values()[0];
        }
        assertEquals(EndpointSets.parse("[0111]"), heard);
        assertEquals(70f, sum);
        long drops = fig1.nodes().stream()
                .mapToLong(n -> engines.get(n.name()).counters(1, 9).get(Counter.DROPS))
                .sum();
        assertEquals(0, drops);
    }
}
