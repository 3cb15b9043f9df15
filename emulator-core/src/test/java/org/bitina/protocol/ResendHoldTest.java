package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.topology.Vat;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * L1 with resend holds ({@link ResendHolds}): the retransmissions that come right after a node
 * sent something for a chunk are answered by that send. All 16 hosts of a k=4 fat-tree aggregate
 * over an automatic VAT (edges, aggregation switches, a core root); time is passed in.
 */
class ResendHoldTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final long HOLD = 2 * US;
    private final Topology ft = Topologies.fatTree(4, LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(ft);
    private final List<String> members = ft.hosts().stream().map(Node::name).toList();
    private final BitSpace space = new BitSpace(members);
    private final String root = ft.switches().get(0).name();
    private final Vat vat = AutoVat.build(ft, routing, space, members, root).vat();
    private final Map<String, NodeEngine> engines = new LinkedHashMap<>();
    /** Results each member got, by chunk. */
    private final Map<String, Map<Long, Integer>> got = new TreeMap<>();

    private void install(long hold) {
        assertNotNull(vat);
        for (Node n : ft.nodes()) {
            NodeEngine e = new NodeEngine(n.name(), routing, new AggregationTable(64, 500 * MS), false);
            boolean vatNode = vat.aBm(n.name()) != null;
            e.install(JobTables.builder("j", 1, 7, space.capacity(), 50 * MS)
                    .bift(Bift.build(routing, n.name(), space))
                    .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null)
                    .root(n.name().equals(root))
                    .resendHold(vatNode ? hold : 0)
                    .build());
            engines.put(n.name(), e);
        }
    }

    private void contribute(String member, long chunk, int flags, long now) {
        int bit = space.index(member);
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 7, chunk)
                .withOp(ReductionOp.SUM)
                .withSource(bit)
                .withFlags(flags);
        InaPacket p = new InaPacket(h, FlatBitmap.of(space.capacity(), bit), Payload.of(new float[] {bit + 1f}));
        run(member, engines.get(member).originate(new Frame(p, vat.parent(member), now), now), now);
    }

    /** Links ("from->to") that lose the next frame sent on them. */
    private final Set<String> lossy = new HashSet<>();

    /** Carries every action to its end at {@code now}: the network is instant, the order is the send order. */
    private void run(String at, List<NodeEngine.Action> first, long now) {
        ArrayDeque<Map.Entry<String, List<NodeEngine.Action>>> queue = new ArrayDeque<>();
        queue.add(Map.entry(at, first));
        while (!queue.isEmpty()) {
            var next = queue.poll();
            for (NodeEngine.Action a : next.getValue()) {
                if (a instanceof NodeEngine.Send s && lossy.remove(next.getKey() + "->" + s.neighbor())) {
                    continue;
                }
                if (a instanceof NodeEngine.Send s) {
                    queue.add(Map.entry(s.neighbor(), engines.get(s.neighbor()).onFrame(s.frame(), now)));
                } else if (a instanceof NodeEngine.Deliver d
                        && d.frame().packet().header().type() == PacketType.RESULT) {
                    assertEquals(136f, ((Payload.Float32) d.frame().packet().payload()).values()[0], "1 + ... + 16");
                    got.computeIfAbsent(next.getKey(), k -> new TreeMap<>())
                            .merge(d.frame().packet().header().seq(), 1, Integer::sum);
                }
            }
        }
    }

    private long count(String node, Counter c) {
        return engines.get(node).counters(1, 7).get(c);
    }

    private long resends() {
        return count(root, Counter.RESULTS_RESENT);
    }

    private long passedUp() {
        return ft.switches().stream()
                .mapToLong(n -> count(n.name(), Counter.RETRANSMISSIONS_PASSED_UP))
                .sum();
    }

    private void allContribute(long now) {
        members.forEach(m -> contribute(m, 0, 0, now));
    }

    /** The members below {@code node} in the VAT. */
    private List<String> below(String node) {
        return members.stream()
                .filter(m -> {
                    for (String at = vat.parent(m); at != null; at = vat.parent(at)) {
                        if (at.equals(node)) {
                            return true;
                        }
                    }
                    return false;
                })
                .toList();
    }

    @Test
    void twoWorkersOfOneEdgeAskingAtOnceAreAnsweredByOneAggregateAndOneMulticast() {
        install(HOLD);
        allContribute(0);
        got.clear();
        // the result was lost on the edge's way to both its hosts: both ask again, one microsecond apart
        String edge = vat.parent(members.get(0));
        String agg = vat.parent(edge);
        contribute(members.get(0), 0, Flags.RETRANSMIT, 100 * US);
        contribute(members.get(1), 0, Flags.RETRANSMIT, 101 * US);
        assertEquals(edge, vat.parent(members.get(1)), "h1 and h2 share their edge switch");
        Map<String, Map<Long, Integer>> once = new TreeMap<>();
        below(agg).forEach(m -> once.put(m, Map.of(0L, 1)));
        assertEquals(4, once.size());
        assertEquals(once, got, "the aggregation switch's workers get the one resend, nobody else");
        assertEquals(1, resends(), "one multicast, not one result each");
        assertEquals(2, passedUp(), "the edge's aggregate once, then the aggregation switch's own");
        assertEquals(
                1L,
                engines.get(edge)
                        .dropsByReason(1, 7)
                        .get("retransmission answered by the aggregate sent up just before"));
    }

    @Test
    void aRequestAfterTheHoldIsAnsweredAgain() {
        install(HOLD);
        allContribute(0);
        got.clear();
        contribute(members.get(0), 0, Flags.RETRANSMIT, 100 * US);
        // its answer was lost too: it asks again after its backoff, past the hold
        contribute(members.get(0), 0, Flags.RETRANSMIT, 100 * US + HOLD);
        // each answer goes to the asking aggregation switch's workers
        Map<String, Map<Long, Integer>> twice = new TreeMap<>();
        below(vat.parent(vat.parent(members.get(0)))).forEach(m -> twice.put(m, Map.of(0L, 2)));
        assertEquals(twice, got);
        assertEquals(2, resends());
    }

    @Test
    void anAggregateLostOnItsWayToTheRootIsSentAgainWholeAndNeverFoldedInPieces() {
        install(HOLD);
        String edge = vat.parent(members.get(0));
        String agg = vat.parent(edge);
        lossy.add(agg + "->" + routing.path(agg, root).get(1));
        allContribute(0);
        assertEquals(null, got.get(members.get(0)), "the chunk waits at the root for the lost aggregate");
        // every worker below the aggregation switch asks again; its edges' aggregates come to it first
        below(agg).forEach(m -> contribute(m, 0, Flags.RETRANSMIT, 100 * US));
        members.forEach(m -> assertEquals(Map.of(0L, 1), got.get(m), m));
        assertEquals(1L, count(agg, Counter.RETRANSMISSIONS_PASSED_UP), "its own aggregate, once: " + passedUp());
        assertEquals(0, resends());
        assertEquals(
                List.of(),
                engines.get(root).dropsByReason(1, 7).keySet().stream()
                        .filter(r -> r.contains("overlaps"))
                        .toList(),
                "no edge's aggregate reached the root on its own");
    }

    @Test
    void workersAskingRightAfterTheCompletingShareAreAnsweredByTheResultMulticast() {
        install(HOLD);
        // h16's share is lost: the chunk waits for it; at the timeout it comes first, then the others ask
        members.subList(0, 15).forEach(m -> contribute(m, 0, 0, 0));
        contribute(members.get(15), 0, Flags.RETRANSMIT, 100 * US);
        members.subList(0, 15).forEach(m -> contribute(m, 0, Flags.RETRANSMIT, 100 * US + US));
        members.forEach(m -> assertEquals(Map.of(0L, 1), got.get(m), m));
        assertEquals(0, resends(), "the result on its way answers them all");
    }

    @Test
    void withoutAHoldEachRequestClimbsToTheRootAndIsAnsweredAlone() {
        install(0);
        members.subList(0, 15).forEach(m -> contribute(m, 0, 0, 0));
        contribute(members.get(15), 0, Flags.RETRANSMIT, 100 * US);
        members.subList(0, 15).forEach(m -> contribute(m, 0, Flags.RETRANSMIT, 100 * US + US));
        members.subList(0, 15).forEach(m -> assertEquals(Map.of(0L, 2), got.get(m), m));
        assertEquals(15, resends(), "the storm the hold removes");
    }
}
