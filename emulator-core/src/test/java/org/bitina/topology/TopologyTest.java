package org.bitina.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.EndpointSets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopologyTest {
    private static final LinkSpec L = LinkSpec.DEFAULT;

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 6, 8})
    void fatTreeHasTheTextbookCounts(int k) {
        Topology t = Topologies.fatTree(k, L);
        assertEquals(k * k * k / 4, t.hosts().size());
        assertEquals(k * k / 4 + k * k, t.switches().size());
        // every switch has k ports used; hosts have one link
        for (Node n : t.switches()) {
            int expected = n.name().startsWith("core") ? k : k;
            assertEquals(expected, t.linksOf(n.name()).size(), n.name());
        }
        t.hosts().forEach(h -> assertEquals(1, t.linksOf(h.name()).size()));
        assertTrue(t.unreachableFromFirst().isEmpty());
    }

    @Test
    void fatTreeRejectsOddK() {
        assertThrows(IllegalArgumentException.class, () -> Topologies.fatTree(3, L));
    }

    @Test
    void fatTreeK4RoutesInterPodTrafficOverSixHops() {
        Topology t = Topologies.fatTree(4, L);
        Routing r = Routing.compute(t);
        assertEquals(2, r.hops("h1", "h2"), "same edge switch");
        assertEquals(4, r.hops("h1", "h3"), "same pod, other edge");
        assertEquals(6, r.hops("h1", "h16"), "other pod, through a core");
        List<String> path = r.path("h1", "h16");
        assertEquals(7, path.size());
        assertTrue(path.get(3).startsWith("core-"));
    }

    @Test
    void ecmpChoiceIsDeterministicAndSpreadsDestinations() {
        Topology t = Topologies.fatTree(8, L);
        Routing a = Routing.compute(t);
        Routing b = Routing.compute(Topologies.fatTree(8, L));
        Set<String> cores = new HashSet<>();
        for (Node h : t.hosts()) {
            assertEquals(a.nextHop("edge-1-1", h.name()), b.nextHop("edge-1-1", h.name()));
            if (h.pod() != 1) {
                cores.add(a.path("h1", h.name()).get(3));
            }
        }
        assertTrue(cores.size() > 1, "different destinations use different cores: " + cores);
    }

    @Test
    void hostsNeverCarryTransitTraffic() {
        // a dual-homed host is the only bridge between two switch islands
        Topology t = new Topology(
                List.of(
                        new Node("a", NodeKind.SWITCH, -1),
                        new Node("b", NodeKind.SWITCH, -1),
                        new Node("h", NodeKind.HOST, -1),
                        new Node("x", NodeKind.HOST, -1)),
                List.of(new Link("a", "h", L), new Link("h", "b", L), new Link("b", "x", L)));
        Routing r = Routing.compute(t);
        assertFalse(r.reachable("a", "x"));
        assertTrue(r.reachable("h", "x"));
        assertFalse(t.switchConnected("a", "b"));
    }

    @Test
    void routingAvoidsDownLinks() {
        Topology t = Topologies.fatTree(4, L);
        Routing r = Routing.compute(t);
        String first = r.nextHop("edge-1-1", "h16");
        Link down = t.linkBetween("edge-1-1", first).orElseThrow();
        Routing rerouted = Routing.compute(t, Set.of(down), Set.of());
        String other = rerouted.nextHop("edge-1-1", "h16");
        assertTrue(other != null && !other.equals(first));
        assertEquals(6, rerouted.hops("h1", "h16"));
    }

    @Test
    void fig1PathsGoThroughTheSeedsSwitches() {
        Routing r = Routing.compute(Topologies.paperFig1(L));
        assertEquals(List.of("s1", "s5", "s7", "s6"), r.path("s1", "s6"), "s1's result passes s5 and s7");
        assertEquals(List.of("w3", "s2", "s5", "s7"), r.path("w3", "s7"));
    }

    @Test
    void fig1VatHasTheSeedsAbms() {
        Topology t = Topologies.paperFig1(L);
        BitSpace space = new BitSpace(t.hosts().stream().map(Node::name).toList());
        Vat.Result r = Vat.build(
                t,
                space,
                List.of("w1", "w2", "w3", "w4"),
                "s6",
                Map.of("s1", List.of("w1", "w2"), "s7", List.of("w3", "w4"), "s6", List.of("s1", "s7")));
        assertTrue(r.defects().isEmpty(), r.defects().toString());
        Vat vat = r.vat();
        assertEquals(EndpointSets.parse("[11000000]"), vat.aBm("s1"));
        assertEquals(EndpointSets.parse("[00110000]"), vat.aBm("s7"));
        assertEquals(EndpointSets.parse("[11110000]"), vat.aBm("s6"));
        assertNull(vat.aBm("s5"), "s5 is not a VAT node");
        assertEquals("s6", vat.parent("s7"));
        assertEquals("s1", vat.parent("w2"));
        assertNull(vat.parent("s6"));
    }

    @Test
    void vatRejectsASwitchMappedTwiceAndUnconnectedNeighbours() {
        Topology t = new Topology(
                List.of(
                        new Node("a", NodeKind.SWITCH, -1),
                        new Node("b", NodeKind.SWITCH, -1),
                        new Node("c", NodeKind.SWITCH, -1),
                        new Node("h", NodeKind.HOST, -1),
                        new Node("x", NodeKind.HOST, -1),
                        new Node("y", NodeKind.HOST, -1)),
                List.of(
                        new Link("a", "h", L),
                        new Link("h", "b", L),
                        new Link("b", "x", L),
                        new Link("a", "c", L),
                        new Link("c", "y", L)));
        BitSpace space = new BitSpace(List.of("x", "y"));
        Vat.Result twice = Vat.build(
                t,
                space,
                List.of("x", "y"),
                "a",
                Map.of("a", List.of("b", "c"), "b", List.of("c", "x"), "c", List.of("y")));
        assertTrue(
                twice.defects().stream().anyMatch(d -> d.message().contains("mapped to two VAT nodes")),
                twice.defects().toString());
        Vat.Result unconnected =
                Vat.build(t, space, List.of("x", "y"), "a", Map.of("a", List.of("b", "y"), "b", List.of("x")));
        assertTrue(
                unconnected.defects().stream().anyMatch(d -> d.message().contains("not connected")),
                unconnected.defects().toString());
    }

    @Test
    void biftGroupsBitsByNextHop() {
        Topology t = Topologies.paperFig1(L);
        BitSpace space = new BitSpace(t.hosts().stream().map(Node::name).toList());
        Bift s6 = Bift.build(Routing.compute(t), "s6", space);
        assertEquals(EndpointSets.parse("[11110000]"), s6.forwardingBitmap("s7"));
        assertEquals(EndpointSets.parse("[00001100]"), s6.forwardingBitmap("s3"));
        assertEquals(EndpointSets.parse("[00000011]"), s6.forwardingBitmap("s4"));
        assertEquals("s7", s6.neighborFor(0));
        Bift w1 = Bift.build(Routing.compute(t), "w1", space);
        assertEquals(EndpointSets.parse("[10000000]"), w1.local());
        assertEquals(EndpointSets.parse("[01111111]"), w1.forwardingBitmap("s1"));
    }
}
