package org.bitina.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The on-demand {@link Routing} answers exactly as the all-pairs tables it replaced
 * ({@link AllPairsRouting}): every next hop, hop count and reachability, on fat trees,
 * leaf-spines and random graphs, with and without links and nodes down.
 */
class RoutingEquivalenceProperties {
    private static final LinkSpec L = LinkSpec.DEFAULT;

    private static void assertSameRouting(Topology t, Set<Link> downLinks, Set<String> downNodes) {
        Routing fresh = Routing.compute(t, downLinks, downNodes);
        AllPairsRouting oracle = AllPairsRouting.compute(t, downLinks, downNodes);
        // half the destinations searched up front in parallel, the rest on demand: same answers
        List<String> names = t.nodes().stream().map(Node::name).toList();
        fresh.prepare(names.subList(0, names.size() / 2));
        for (String from : names) {
            for (String to : names) {
                assertEquals(oracle.nextHop(from, to), fresh.nextHop(from, to), "next hop " + from + " -> " + to);
                assertEquals(oracle.hops(from, to), fresh.hops(from, to), "hops " + from + " -> " + to);
                assertEquals(oracle.reachable(from, to), fresh.reachable(from, to), "reachable " + from + " -> " + to);
                assertEquals(
                        oracle.reachable(from, to),
                        fresh.reachable(t.indexOf(from), t.indexOf(to)),
                        "reachable " + from + " -> " + to);
            }
        }
        assertEquals(
                oracle.path(names.get(names.size() - 1), names.get(0)),
                fresh.path(names.get(names.size() - 1), names.get(0)));
        // every node's BIFT over a bit space of the hosts, a gap, a switch and a second endpoint on a host: the
        // oracle's next hop per bit
        List<String> bits = new ArrayList<>(t.hosts().stream().map(Node::name).toList());
        bits.add(null);
        bits.add(t.nodes().get(0).name());
        bits.add("x");
        // "x" lives on the last host beside its own bit, as MoE experts do
        BitSpace space = new BitSpace(
                bits, Map.of("x", t.hosts().get(t.hosts().size() - 1).name()));
        Map<String, Bift> bifts = Bift.buildAll(fresh, names, space);
        for (String node : names) {
            Bift b = bifts.get(node);
            for (int i = 0; i < space.capacity(); i++) {
                String e = space.node(i);
                String expected = e == null || e.equals(node) ? null : oracle.nextHop(node, e);
                assertEquals(expected, b.neighborFor(i), "BIFT of " + node + ", bit " + i + " (" + e + ")");
                assertEquals(e != null && e.equals(node), b.isLocal(i), "local bit " + i + " of " + node);
                assertEquals(
                        e != null && !e.equals(node) && expected == null,
                        b.unreachable().contains(i),
                        "unreachable bit " + i + " of " + node);
            }
        }
    }

    /** Some links and nodes down, drawn from the seed. */
    private static void assertSameWithFailures(Topology t, long seed) {
        assertSameRouting(t, Set.of(), Set.of());
        Random rnd = new Random(seed);
        Set<Link> downLinks = new HashSet<>();
        for (Link l : t.links()) {
            if (rnd.nextInt(10) == 0) {
                downLinks.add(l);
            }
        }
        Set<String> downNodes = new HashSet<>();
        for (Node n : t.nodes()) {
            if (rnd.nextInt(15) == 0) {
                downNodes.add(n.name());
            }
        }
        assertSameRouting(t, downLinks, downNodes);
    }

    @Property(tries = 6)
    void fatTreesRouteAsTheAllPairsTables(@ForAll @IntRange(min = 1, max = 3) int half, @ForAll long seed) {
        assertSameWithFailures(Topologies.fatTree(2 * half, L), seed);
    }

    @Property(tries = 10)
    void leafSpinesRouteAsTheAllPairsTables(
            @ForAll @IntRange(min = 1, max = 4) int spines,
            @ForAll @IntRange(min = 1, max = 6) int leaves,
            @ForAll @IntRange(min = 1, max = 4) int hostsPerLeaf,
            @ForAll long seed) {
        assertSameWithFailures(Topologies.leafSpine(spines, leaves, hostsPerLeaf, L), seed);
    }

    /** Random graphs: switches joined at random, hosts on one or more switches, some hosts wired to each other. */
    @Property(tries = 60)
    void randomGraphsRouteAsTheAllPairsTables(
            @ForAll @IntRange(min = 1, max = 14) int switches,
            @ForAll @IntRange(min = 1, max = 12) int hosts,
            @ForAll long seed) {
        Random rnd = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < switches; i++) {
            nodes.add(new Node("s" + i, NodeKind.SWITCH, -1));
        }
        for (int i = 0; i < hosts; i++) {
            nodes.add(new Node("h" + i, NodeKind.HOST, -1));
        }
        List<Link> links = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < switches; i++) {
            for (int j = i + 1; j < switches; j++) {
                if (rnd.nextInt(3) == 0 && seen.add(i + "-" + j)) {
                    links.add(new Link("s" + i, "s" + j, L));
                }
            }
        }
        for (int h = 0; h < hosts; h++) {
            int homes = 1 + (rnd.nextInt(4) == 0 ? 1 : 0);
            Set<Integer> at = new HashSet<>();
            for (int k = 0; k < homes; k++) {
                int s = rnd.nextInt(switches);
                if (at.add(s)) {
                    links.add(new Link("h" + h, "s" + s, L));
                }
            }
            if (h > 0 && rnd.nextInt(6) == 0) {
                links.add(new Link("h" + h, "h" + (h - 1), L));
            }
        }
        assertSameWithFailures(new Topology(nodes, links), seed);
    }
}
