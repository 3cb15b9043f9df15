package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * A5 with the destination from the plan ({@link ResultRoute}): four members of a k=4 fat-tree
 * aggregate over an automatic VAT; the root gives each chunk's sum to the member the plan names
 * and a payload-free notice to the others, or (the default) the sum to everyone.
 */
class ResultRouteTest {
    private static final long MS = 1_000_000L;
    private final Topology ft = Topologies.fatTree(4, LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(ft);
    private final List<String> members =
            ft.hosts().stream().map(Node::name).limit(4).toList();
    private final BitSpace space = new BitSpace(members);
    private final String root = ft.switches().get(0).name();
    private final Vat vat = AutoVat.build(ft, routing, space, members, root).vat();
    private final Map<String, NodeEngine> engines = new LinkedHashMap<>();
    /** What each member got, by chunk: "sum" (the result with its payload) or "notice". */
    private final Map<String, Map<Long, List<String>>> got = new TreeMap<>();

    private void install(ResultRoute route) {
        for (Node n : ft.nodes()) {
            NodeEngine e = new NodeEngine(n.name(), routing, new AggregationTable(64, 500 * MS), false);
            boolean vatNode = vat.aBm(n.name()) != null;
            e.install(JobTables.builder("j", 1, 7, space.capacity(), 50 * MS)
                    .bift(Bift.build(routing, n.name(), space))
                    .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null)
                    .root(n.name().equals(root))
                    .resultRoute(route)
                    .build());
            engines.put(n.name(), e);
        }
    }

    private void contribute(String member, long chunk, int flags) {
        int bit = space.index(member);
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 7, chunk)
                .withOp(ReductionOp.SUM)
                .withSource(bit)
                .withFlags(flags);
        InaPacket p = new InaPacket(h, FlatBitmap.of(space.capacity(), bit), Payload.of(new float[] {bit + 1f}));
        run(member, engines.get(member).originate(new Frame(p, vat.parent(member), 0), 0));
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
                    queue.add(new Object[] {
                        s.neighbor(), engines.get(s.neighbor()).onFrame(s.frame(), 0)
                    });
                } else if (a instanceof NodeEngine.Deliver d
                        && d.frame().packet().header().type() == PacketType.RESULT) {
                    InaPacket p = d.frame().packet();
                    String what;
                    if (p.payload().elementType() == ElementType.NONE) {
                        what = "notice";
                    } else {
                        assertEquals(10f, ((Payload.Float32) p.payload()).values()[0], "1 + 2 + 3 + 4");
                        what = "sum";
                    }
                    got.computeIfAbsent((String) next[0], k -> new TreeMap<>())
                            .computeIfAbsent(p.header().seq(), k -> new ArrayList<>())
                            .add(what);
                }
            }
        }
    }

    private void allContribute(long chunks) {
        for (long c = 0; c < chunks; c++) {
            for (String m : members) {
                contribute(m, c, 0);
            }
        }
    }

    @Test
    void eachChunksSumGoesToItsOwnerAloneAndTheOthersGetANoticeWithoutPayload() {
        assertNotNull(vat);
        // chunk s to member s mod 4, in reverse member order: the plan decides, not the member order
        List<Integer> owners = List.of(3, 2, 1, 0);
        install(ResultRoute.toOwners(owners));
        allContribute(8);
        for (String m : members) {
            int bit = space.index(m);
            for (long c = 0; c < 8; c++) {
                String expected = owners.get((int) (c % 4)) == bit ? "sum" : "notice";
                assertEquals(List.of(expected), got.get(m).get(c), m + " chunk " + c);
            }
        }
    }

    @Test
    void withoutARouteEveryMemberGetsTheSumAsBefore() {
        install(ResultRoute.NODE_BITMAP);
        allContribute(4);
        for (String m : members) {
            for (long c = 0; c < 4; c++) {
                assertEquals(List.of("sum"), got.get(m).get(c), m + " chunk " + c);
            }
        }
    }

    @Test
    void aRetransmissionIsAnsweredFromTheCacheByTheSameRule() {
        install(ResultRoute.toOwners(List.of(0, 1, 2, 3)));
        allContribute(1);
        got.clear();
        // chunk 0 is member 0's: it asks again and gets the sum; member 2 asks and gets a notice
        contribute(members.get(0), 0, Flags.RETRANSMIT);
        contribute(members.get(2), 0, Flags.RETRANSMIT);
        assertEquals(Map.of(0L, List.of("sum")), got.get(members.get(0)));
        assertEquals(Map.of(0L, List.of("notice")), got.get(members.get(2)));
        assertEquals(2, got.size(), "nobody else hears of it");
    }

    @Test
    void aRuleNeedsOwnersAndTheOwnerOfAChunkRoundsRobin() {
        assertThrows(IllegalArgumentException.class, () -> ResultRoute.toOwners(List.of()));
        assertThrows(IllegalArgumentException.class, () -> ResultRoute.toOwners(List.of(-1)));
        ResultRoute r = ResultRoute.toOwners(List.of(5, 6, 7));
        assertEquals(5, r.owner(0));
        assertEquals(7, r.owner(5));
        assertTrue(r.byOwner());
        assertEquals(false, ResultRoute.NODE_BITMAP.byOwner());
    }
}
