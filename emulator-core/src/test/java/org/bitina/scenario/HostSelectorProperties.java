package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.NodeKind;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;

/** Host selectors expand to the hand-written lists, in host order and without repeats, and refuse what names no host. */
class HostSelectorProperties {
    private static final Topology[] FAT_TREES = {
        Topologies.fatTree(2, LinkSpec.DEFAULT),
        Topologies.fatTree(4, LinkSpec.DEFAULT),
        Topologies.fatTree(6, LinkSpec.DEFAULT),
        Topologies.fatTree(8, LinkSpec.DEFAULT)
    };

    /** A fat-tree's arity and two numbers below a bound that depends on it. */
    record Case(int k, int a, int b) {
        Topology topology() {
            return FAT_TREES[k / 2 - 1];
        }

        int hostsPerPod() {
            return k * k / 4;
        }
    }

    @Provide
    Arbitrary<Case> podCases() {
        return Arbitraries.of(2, 4, 6, 8)
                .flatMap(k -> Combinators.combine(
                                Arbitraries.integers().between(1, k),
                                Arbitraries.integers().between(1, k))
                        .as((x, y) -> new Case(k, Math.min(x, y), Math.max(x, y))));
    }

    @Provide
    Arbitrary<Case> hostCases() {
        return Arbitraries.of(2, 4, 6, 8)
                .flatMap(k -> Combinators.combine(
                                Arbitraries.integers().between(1, k * k * k / 4),
                                Arbitraries.integers().between(1, k * k * k / 4))
                        .as((x, y) -> new Case(k, Math.min(x, y), Math.max(x, y))));
    }

    @Provide
    Arbitrary<Case> rackCases() {
        return Arbitraries.of(2, 4, 6, 8)
                .flatMap(k -> Combinators.combine(
                                Arbitraries.integers().between(1, k),
                                Arbitraries.integers().between(1, k / 2))
                        .as((p, i) -> new Case(k, p, i)));
    }

    private static List<String> hosts(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "h" + i).toList();
    }

    @Property
    void aPodRangeIsEveryHostOfThosePodsNumberedPodByPod(@ForAll("podCases") Case c) {
        String sel = c.a() == c.b() ? "pod:" + c.a() : "pod:" + c.a() + "-" + c.b();
        assertEquals(
                hosts((c.a() - 1) * c.hostsPerPod() + 1, c.b() * c.hostsPerPod()),
                HostSelector.expand(sel, c.topology()));
        assertEquals(
                HostSelector.expand(sel, c.topology()),
                HostSelector.expand("pod:" + c.a() + ".." + c.b(), c.topology()));
    }

    @Property
    void aRangeOfHostsIsTheHandList(@ForAll("hostCases") Case c) {
        assertEquals(hosts(c.a(), c.b()), HostSelector.expand("h" + c.a() + "..h" + c.b(), c.topology()));
    }

    @Property
    void aRackIsTheHalfKHostsUnderItsEdgeSwitch(@ForAll("rackCases") Case c) {
        int first = (c.a() - 1) * c.hostsPerPod() + (c.b() - 1) * (c.k() / 2) + 1;
        assertEquals(
                hosts(first, first + c.k() / 2 - 1),
                HostSelector.expand("rack:edge-" + c.a() + "-" + c.b(), c.topology()));
    }

    @Property
    void everyExpansionIsInHostOrderWithoutRepeatsAndOnlyHosts(@ForAll("anySelector") String selector) {
        Topology t = FAT_TREES[3];
        List<String> out = HostSelector.expand(selector, t);
        List<String> order = t.hosts().stream().map(Node::name).toList();
        assertEquals(out.size(), new HashSet<>(out).size(), selector + " repeats a host");
        List<Integer> at = new ArrayList<>(out.stream().map(order::indexOf).toList());
        assertTrue(at.stream().allMatch(i -> i >= 0), selector + " selects a non-host");
        assertEquals(at.stream().sorted().toList(), at, selector + " is not in host order");
    }

    @Provide
    Arbitrary<String> anySelector() {
        return Arbitraries.oneOf(
                podCases().filter(c -> c.k() == 8).map(c -> "pod:" + c.a() + "-" + c.b()),
                hostCases().filter(c -> c.k() == 8).map(c -> "h" + c.a() + "..h" + c.b()),
                rackCases().filter(c -> c.k() == 8).map(c -> "rack:edge-" + c.a() + "-" + c.b()),
                Arbitraries.just("all"));
    }

    @Example
    void allIsEveryHostInTheOrderTheTopologyHasThem() {
        Topology t = Topologies.paperFig1(LinkSpec.DEFAULT);
        assertEquals(hosts(1, 8).stream().map(h -> h.replace('h', 'w')).toList(), HostSelector.expand("all", t));
        assertEquals(List.of("w1", "w2"), HostSelector.expand("rack:s1", t));
        assertEquals(List.of("w3", "w4", "w5"), HostSelector.expand("w3..w5", t));
    }

    @Example
    void aRangeComesInTheOrderTheTopologyListsItsHosts() {
        Topology t = new Topology(
                List.of(
                        new Node("s", NodeKind.SWITCH, -1),
                        new Node("b3", NodeKind.HOST, 1),
                        new Node("b1", NodeKind.HOST, 2),
                        new Node("b2", NodeKind.HOST, 1)),
                List.of(
                        new Link("s", "b3", LinkSpec.DEFAULT),
                        new Link("s", "b1", LinkSpec.DEFAULT),
                        new Link("s", "b2", LinkSpec.DEFAULT)));
        assertEquals(List.of("b3", "b1", "b2"), HostSelector.expand("b1..b3", t));
        assertEquals(List.of("b3", "b2"), HostSelector.expand("pod:1", t));
    }

    @Example
    void whatNamesNoHostIsRefusedSayingWhy() {
        Topology t = FAT_TREES[1];
        assertRefused(t, "h9..h2", "reversed range (9 > 2)");
        assertRefused(t, "pod:3-1", "reversed range (3 > 1)");
        assertRefused(t, "pod:5", "pod 5 is not a pod of the topology (pods: [1, 2, 3, 4])");
        assertRefused(t, "pod:x", "write pod:N or pod:N-M");
        assertRefused(t, "rack:agg-1-1", "selects no host");
        assertRefused(t, "rack:h1", "'h1' is a host; rack: names a switch");
        assertRefused(t, "rack:tor-9", "'tor-9' is not a node of the topology");
        assertRefused(t, "h1..w4", "the ends have different prefixes");
        assertRefused(t, "h15..h17", "'h17' is not a node of the topology");
        assertRefused(t, "core-1..core-4", "'core-1' is a switch; hosts are needed here");
        assertRefused(t, "h..h4", "a range is FIRST..LAST");
    }

    private static void assertRefused(Topology t, String selector, String why) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> HostSelector.expand(selector, t));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }
}
