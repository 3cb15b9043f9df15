package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.NodeKind;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.junit.jupiter.api.Test;

class ReplicatorTest {

    /** The seed's Fig. 2: src under s0; s0 over s1 (e1..e4) and s7 (e5..e8). */
    static Topology fig2() {
        List<Node> nodes = new ArrayList<>(List.of(
                new Node("s0", NodeKind.SWITCH, -1),
                new Node("s1", NodeKind.SWITCH, 1),
                new Node("s7", NodeKind.SWITCH, 2),
                new Node("src", NodeKind.HOST, 0)));
        List<Link> links = new ArrayList<>(List.of(
                new Link("src", "s0", LinkSpec.DEFAULT),
                new Link("s0", "s1", LinkSpec.DEFAULT),
                new Link("s0", "s7", LinkSpec.DEFAULT)));
        for (int i = 1; i <= 8; i++) {
            nodes.add(new Node("e" + i, NodeKind.HOST, i <= 4 ? 1 : 2));
            links.add(new Link(i <= 4 ? "s1" : "s7", "e" + i, LinkSpec.DEFAULT));
        }
        return new Topology(nodes, links);
    }

    static final BitSpace EXPERTS = new BitSpace(List.of("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"));

    @Test
    void fig2DispatchInstallsTheSeedsCbmsAtBranchNodesOnly() {
        Topology t = fig2();
        Routing r = Routing.compute(t);
        FlatBitmap dbm = EndpointSets.parse("[01100110]");

        Replicator.Result atSource = Replicator.replicate(dbm, Bift.build(r, "src", EXPERTS));
        assertEquals(1, atSource.copies().size());
        assertNull(atSource.cbm(), "the source forwards to one next hop and installs nothing");

        Replicator.Result s0 = Replicator.replicate(dbm, Bift.build(r, "s0", EXPERTS));
        assertEquals(EndpointSets.parse("[01100110]"), s0.cbm());
        Map<String, EndpointSet> copies = byNeighbor(s0);
        assertEquals(EndpointSets.parse("[01100000]"), copies.get("s1"));
        assertEquals(EndpointSets.parse("[00000110]"), copies.get("s7"));

        Replicator.Result s1 = Replicator.replicate(copies.get("s1"), Bift.build(r, "s1", EXPERTS));
        assertEquals(EndpointSets.parse("[01100000]"), s1.cbm());
        assertEquals(
                Map.of("e2", EndpointSets.parse("[01000000]"), "e3", EndpointSets.parse("[00100000]")), byNeighbor(s1));

        Replicator.Result s7 = Replicator.replicate(copies.get("s7"), Bift.build(r, "s7", EXPERTS));
        assertEquals(EndpointSets.parse("[00000110]"), s7.cbm());

        Replicator.Result e2 = Replicator.replicate(EndpointSets.parse("[01000000]"), Bift.build(r, "e2", EXPERTS));
        assertEquals(EndpointSets.parse("[01000000]"), e2.local());
        assertTrue(e2.copies().isEmpty());
        assertNull(e2.cbm());
    }

    @Test
    void aSingleNextHopInstallsNothing() {
        Topology t = fig2();
        Replicator.Result s0 =
                Replicator.replicate(EndpointSets.parse("[01100000]"), Bift.build(Routing.compute(t), "s0", EXPERTS));
        assertEquals(1, s0.copies().size());
        assertNull(s0.cbm());
    }

    @Test
    void fig1ResultMulticastReachesExactlyTheMembers() {
        Topology t = Topologies.paperFig1(LinkSpec.DEFAULT);
        Routing r = Routing.compute(t);
        BitSpace hosts = new BitSpace(t.hosts().stream().map(Node::name).toList());
        // walk the multicast from the root s6 with its A-BM and collect local deliveries
        List<String> delivered = new ArrayList<>();
        List<Object[]> queue = new ArrayList<>();
        queue.add(new Object[] {"s6", EndpointSets.parse("[11110000]")});
        int hops = 0;
        while (!queue.isEmpty()) {
            Object[] next = queue.remove(0);
            Replicator.Result res = Replicator.replicate((EndpointSet) next[1], Bift.build(r, (String) next[0], hosts));
            if (!res.local().isEmpty()) {
                delivered.add((String) next[0]);
            }
            for (Replicator.Copy c : res.copies()) {
                queue.add(new Object[] {c.neighbor(), c.bitmap()});
                hops++;
            }
        }
        assertEquals(
                List.of("w1", "w2", "w3", "w4"), delivered.stream().sorted().toList());
        assertEquals(8, hops, "s6>s7, s7>s5, s5>{s1,s2}, s1>{w1,w2}, s2>{w3,w4}");
    }

    @Test
    void copiesKeepThePacketsEncodingAndRfc8279ClearsForwardedBits() {
        Topology t = fig2();
        Bift s0 = Bift.build(Routing.compute(t), "s0", EXPERTS);
        for (var enc : Encoding.values()) {
            EndpointSet dbm = EndpointSets.parse("[11111111]").to(enc, 4);
            Replicator.Result res = Replicator.replicate(dbm, s0);
            assertEquals(2, res.copies().size());
            res.copies().forEach(c -> assertEquals(enc, c.bitmap().encoding()));
            EndpointSet union =
                    res.copies().get(0).bitmap().or(res.copies().get(1).bitmap());
            assertEquals(dbm, union, "every bit leaves exactly once");
            assertTrue(res.copies()
                    .get(0)
                    .bitmap()
                    .and(res.copies().get(1).bitmap())
                    .isEmpty());
        }
    }

    @Test
    void unreachableBitsAreReportedNotSent() {
        Topology t = fig2();
        Link down = t.linkBetween("s0", "s7").orElseThrow();
        Routing r = Routing.compute(t, Set.of(down), Set.of());
        Replicator.Result s0 = Replicator.replicate(EndpointSets.parse("[01100110]"), Bift.build(r, "s0", EXPERTS));
        assertEquals(EndpointSets.parse("[00000110]"), s0.unreachable());
        assertEquals(1, s0.copies().size());
        assertNull(s0.cbm(), "only one branch is left");
    }

    private static Map<String, EndpointSet> byNeighbor(Replicator.Result r) {
        Map<String, EndpointSet> m = new LinkedHashMap<>();
        r.copies().forEach(c -> m.put(c.neighbor(), c.bitmap()));
        return m;
    }
}
