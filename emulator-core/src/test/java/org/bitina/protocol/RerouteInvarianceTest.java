package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * F7 and B5: a link of the trees fails, routing and BIFTs are recomputed, and the trees are
 * built again over other links; the bitmaps that packets carry and that nodes register do
 * not change, for a data-driven BIER-INC tree and for a self-installed (C-BM) tree alike.
 */
class RerouteInvarianceTest {
    private static final long MS = 1_000_000L;
    private final Topology ft = Topologies.fatTree(4, LinkSpec.DEFAULT);
    private final Map<String, NodeEngine> engines = new LinkedHashMap<>();
    private final Map<String, List<Frame>> delivered = new TreeMap<>();
    /** Every hop a packet took, "from>to", and what each node registered. */
    private final Set<String> hops = new LinkedHashSet<>();

    private void network(Routing r, BitSpace space) {
        for (Node n : ft.nodes()) {
            NodeEngine e = engines.computeIfAbsent(
                    n.name(), k -> new NodeEngine(k, r, new AggregationTable(64, 500 * MS), false));
            e.setRouting(r, Map.of(), 0);
            e.install(JobTables.builder("j", 1, 7, space.capacity(), 50 * MS)
                    .bift(Bift.build(r, n.name(), space))
                    .build());
        }
    }

    private void run(String at, List<NodeEngine.Action> first) {
        ArrayDeque<Object[]> queue = new ArrayDeque<>();
        queue.add(new Object[] {at, first});
        while (!queue.isEmpty()) {
            Object[] next = queue.poll();
            @SuppressWarnings("unchecked")
            List<NodeEngine.Action> actions = (List<NodeEngine.Action>) next[1];
            for (NodeEngine.Action a : actions) {
                if (a instanceof NodeEngine.Send s) {
                    hops.add(next[0] + ">" + s.neighbor());
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

    private Routing without(String a, String b) {
        Link down = ft.linkBetween(a, b).orElseThrow();
        return Routing.compute(ft, Set.of(down), Set.of());
    }

    /** What the members saw: per node, the bitmaps delivered to it. */
    private Map<String, List<EndpointSet>> seen() {
        Map<String, List<EndpointSet>> out = new TreeMap<>();
        delivered.forEach((n, fs) ->
                out.put(n, fs.stream().map(f -> f.packet().endpoints()).toList()));
        return out;
    }

    @Test
    void bierIncTreeBitmapsAreTheSameOverTheNewRoutes() {
        List<String> members = List.of("h1", "h5", "h6", "h9", "h13", "h16");
        BitSpace space = new BitSpace(members);
        EndpointSet others = space.setOf(members.subList(1, members.size()));
        Map<String, List<EndpointSet>> before = null;
        Set<String> hopsBefore = null;
        float[] resultBefore = null;
        for (Routing r : List.of(Routing.compute(ft), without("agg-1-1", "core-1"), without("agg-1-2", "core-3"))) {
            network(r, space);
            delivered.clear();
            hops.clear();
            InaHeader fwd =
                    InaHeader.of(PacketType.INC_FORWARD, 1, 7, -1).withSource(0).withEntropy(7);
            run("h1", engines.get("h1").originate(new Frame(new InaPacket(fwd, others, Payload.EMPTY), null, 0), 0));
            for (int i = 1; i < members.size(); i++) {
                InaHeader rev = InaHeader.of(PacketType.INC_REVERSE, 1, 7, 3)
                        .withOp(ReductionOp.SUM)
                        .withSource(i)
                        .withDestination(0)
                        .withEntropy(7);
                String m = members.get(i);
                run(
                        m,
                        engines.get(m)
                                .originate(
                                        new Frame(
                                                new InaPacket(rev, FlatBitmap.of(6, i), Payload.of(new float[] {i})),
                                                "h1",
                                                0),
                                        0));
            }
            List<Frame> atRoot = delivered.get("h1");
            assertEquals(1, atRoot.size(), "the reduction reaches the BFIR once, aggregated: " + atRoot);
            assertEquals(
                    others, atRoot.get(0).packet().endpoints(), "OR of the bitstrings = the BFIR's incoming bitstring");
            float[] result = ((Payload.Float32) atRoot.get(0).packet().payload()).values();
            Map<String, List<EndpointSet>> now = seen();
            if (before == null) {
                before = now;
                hopsBefore = Set.copyOf(hops);
                resultBefore = result;
            } else {
                assertEquals(before, now, "every member got the same bitmaps (F7)");
                assertArrayEquals(resultBefore, result);
                assertNotEquals(hopsBefore, hops, "the tree itself moved to other links");
            }
        }
    }

    @Test
    void selfInstalledTreeBitmapsAreTheSameOverTheNewRoutes() {
        // MoE: source h1 dispatches one token to four experts; branch nodes install C-BMs (M2)
        List<String> experts = List.of("e1", "e2", "e3", "e4");
        BitSpace space = new BitSpace(experts, Map.of("e1", "h5", "e2", "h9", "e3", "h13", "e4", "h16"));
        Map<String, List<EndpointSet>> before = null;
        Set<String> hopsBefore = null;
        long seq = 11;
        for (Routing r : List.of(Routing.compute(ft), without("agg-1-1", "core-1"), without("agg-1-2", "core-3"))) {
            network(r, space);
            delivered.clear();
            hops.clear();
            seq++;
            InaHeader d = InaHeader.of(PacketType.DISPATCH, 1, 7, seq)
                    .withOp(ReductionOp.SUM)
                    .withDestination(0);
            run(
                    "h1",
                    engines.get("h1")
                            .originate(
                                    new Frame(
                                            new InaPacket(d, FlatBitmap.full(4), Payload.of(new float[] {1f})),
                                            null,
                                            0,
                                            "h1"),
                                    0));
            Map<String, List<EndpointSet>> dispatched = seen();
            Map<String, Frame> copies = new LinkedHashMap<>();
            delivered.forEach((n, fs) -> copies.put(n, fs.get(0)));
            delivered.clear();
            int bit = 0;
            for (String host : List.of("h5", "h9", "h13", "h16")) {
                Frame got = copies.get(host);
                assertTrue(got != null, host + " got its copy");
                InaHeader c = InaHeader.of(PacketType.COMBINE, 1, 7, seq)
                        .withOp(ReductionOp.SUM)
                        .withSource(bit)
                        .withDestination(0);
                Frame combine = new Frame(
                        new InaPacket(c, FlatBitmap.of(4, bit), Payload.of(new float[] {bit + 1f})), got.via(), 0);
                run(host, engines.get(host).originate(combine, 0));
                bit++;
            }
            List<Frame> atSource = delivered.get("h1");
            assertTrue(
                    atSource != null, "combines went to " + delivered + " over " + hops + " dispatch copies " + copies);
            assertEquals(
                    EndpointSets4.ALL,
                    atSource.stream()
                            .map(f -> f.packet().endpoints())
                            .reduce(EndpointSet::or)
                            .orElseThrow());
            assertEquals(1, atSource.size(), "the combine reached the source aggregated on the installed tree");
            assertArrayEquals(
                    new float[] {10f},
                    ((Payload.Float32) atSource.get(0).packet().payload()).values());
            if (before == null) {
                before = dispatched;
                hopsBefore = Set.copyOf(hops);
            } else {
                assertEquals(before, dispatched, "every expert got the same bitmap (F7)");
                assertNotEquals(hopsBefore, hops, "the tree itself moved to other links");
            }
        }
    }

    private static final class EndpointSets4 {
        static final EndpointSet ALL = FlatBitmap.full(4);
    }
}
