package org.bitina.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bitina.bitmap.FlatBitmap;
import org.junit.jupiter.api.Test;

class AutoVatTest {
    private static final LinkSpec L = LinkSpec.DEFAULT;

    /** The seed's two constraints, and that every A-BM is the union of its children's. */
    private static void assertValidVat(Topology t, BitSpace space, List<String> members, Vat vat) {
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, FlatBitmap> e : vat.aBms().entrySet()) {
            String node = e.getKey();
            assertTrue(seen.add(node), "a switch maps at most one VAT node");
            FlatBitmap union = FlatBitmap.of(space.capacity());
            for (String c : vat.children(node)) {
                assertTrue(t.switchConnected(node, c), "adjacent VAT nodes " + node + " and " + c + " are connected");
                union = union.or(vat.aBm(c) != null ? vat.aBm(c) : space.setOf(List.of(c)));
            }
            assertEquals(e.getValue(), union, node);
        }
        assertEquals(space.setOf(members), vat.aBm(vat.root()));
    }

    @Test
    void fatTreeK4AggregatesAtEdgeAggregationAndCore() {
        Topology t = Topologies.fatTree(4, L);
        List<String> members = t.hosts().stream().map(Node::name).toList();
        BitSpace space = new BitSpace(members);
        Routing r = Routing.compute(t);
        Vat.Result res = AutoVat.build(t, r, space, members, "core-1");
        assertTrue(res.defects().isEmpty(), res.defects().toString());
        Vat vat = res.vat();
        assertValidVat(t, space, members, vat);
        // every edge switch merges its two hosts; one aggregation switch per pod merges the edges
        for (int p = 1; p <= 4; p++) {
            for (int e = 1; e <= 2; e++) {
                assertNotNull(vat.aBm("edge-" + p + "-" + e));
            }
        }
        long aggs =
                vat.aBms().keySet().stream().filter(n -> n.startsWith("agg-")).count();
        assertEquals(4, aggs);
        assertEquals(4, vat.children("core-1").size(), "one child per pod");
    }

    @Test
    void singlePathSwitchesOnlyForward() {
        // a chain r - x - y with hosts a, b under y: x only forwards, y merges
        Topology t = new Topology(
                List.of(
                        new Node("r", NodeKind.SWITCH, -1),
                        new Node("x", NodeKind.SWITCH, -1),
                        new Node("y", NodeKind.SWITCH, -1),
                        new Node("a", NodeKind.HOST, -1),
                        new Node("b", NodeKind.HOST, -1)),
                List.of(new Link("r", "x", L), new Link("x", "y", L), new Link("y", "a", L), new Link("y", "b", L)));
        BitSpace space = new BitSpace(List.of("a", "b"));
        Vat vat = AutoVat.build(t, Routing.compute(t), space, List.of("a", "b"), "r")
                .vat();
        assertNull(vat.aBm("x"));
        assertEquals(List.of("y"), vat.children("r"));
        assertEquals("y", vat.parent("a"));
    }

    @Test
    void irregularTopologiesGetValidVats() {
        // random connected graphs of switches with hosts hanging off them
        Random rnd = new Random(42);
        for (int trial = 0; trial < 25; trial++) {
            int switches = 3 + rnd.nextInt(10);
            List<Node> nodes = new ArrayList<>();
            List<Link> links = new ArrayList<>();
            for (int i = 0; i < switches; i++) {
                nodes.add(new Node("s" + i, NodeKind.SWITCH, -1));
                if (i > 0) {
                    links.add(new Link("s" + i, "s" + rnd.nextInt(i), L));
                }
            }
            for (int extra = 0; extra < switches / 2; extra++) {
                int a = rnd.nextInt(switches);
                int b = rnd.nextInt(switches);
                if (a != b && links.stream().noneMatch(l -> l.joins("s" + a, "s" + b))) {
                    links.add(new Link("s" + a, "s" + b, L));
                }
            }
            List<String> hosts = new ArrayList<>();
            for (int h = 0; h < 2 + rnd.nextInt(12); h++) {
                nodes.add(new Node("h" + h, NodeKind.HOST, -1));
                links.add(new Link("h" + h, "s" + rnd.nextInt(switches), L));
                hosts.add("h" + h);
            }
            Topology t = new Topology(nodes, links);
            BitSpace space = new BitSpace(hosts);
            String root = "s" + rnd.nextInt(switches);
            Vat.Result res = AutoVat.build(t, Routing.compute(t), space, hosts, root);
            assertTrue(res.defects().isEmpty(), "trial " + trial + ": " + res.defects());
            assertValidVat(t, space, hosts, res.vat());
        }
    }

    @Test
    void aParameterServerHostCanBeTheRoot() {
        Topology t = Topologies.leafSpine(2, 3, 4, L);
        List<String> members = List.of("h1", "h2", "h5", "h9", "h10");
        BitSpace space = new BitSpace(members);
        Vat.Result res = AutoVat.build(t, Routing.compute(t), space, members, "h12");
        assertTrue(res.defects().isEmpty(), res.defects().toString());
        assertValidVat(t, space, members, res.vat());
        assertEquals(List.of("leaf-3"), res.vat().children("h12"));
    }
}
