package org.bitina.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Topology generators. Names are stable and readable so that scenario files can refer to
 * generated nodes: a fat-tree has {@code core-J}, {@code agg-P-I}, {@code edge-P-I} and
 * hosts {@code h1..hN} numbered pod by pod; a leaf-spine has {@code spine-I},
 * {@code leaf-I} and hosts {@code h1..hN} numbered leaf by leaf.
 */
public final class Topologies {
    private Topologies() {}

    /**
     * The k-ary fat-tree of Al-Fares et al.: k pods of k/2 edge and k/2 aggregation
     * switches, (k/2)^2 core switches, k^3/4 hosts; host pods are 1..k.
     */
    public static Topology fatTree(int k, LinkSpec spec) {
        if (k < 2 || k % 2 != 0 || k > 64) {
            throw new IllegalArgumentException("fat-tree k must be even and in 2..64, got " + k);
        }
        int half = k / 2;
        List<Node> nodes = new ArrayList<>();
        List<Link> links = new ArrayList<>();
        for (int c = 1; c <= half * half; c++) {
            nodes.add(new Node("core-" + c, NodeKind.SWITCH, -1));
        }
        int host = 1;
        for (int p = 1; p <= k; p++) {
            for (int i = 1; i <= half; i++) {
                nodes.add(new Node("agg-" + p + "-" + i, NodeKind.SWITCH, p));
            }
            for (int i = 1; i <= half; i++) {
                nodes.add(new Node("edge-" + p + "-" + i, NodeKind.SWITCH, p));
            }
            for (int i = 1; i <= half; i++) {
                String agg = "agg-" + p + "-" + i;
                for (int j = 1; j <= half; j++) {
                    links.add(new Link(agg, "core-" + ((i - 1) * half + j), spec));
                    links.add(new Link(agg, "edge-" + p + "-" + j, spec));
                }
            }
            for (int i = 1; i <= half; i++) {
                for (int j = 0; j < half; j++) {
                    String h = "h" + host++;
                    nodes.add(new Node(h, NodeKind.HOST, p));
                    links.add(new Link("edge-" + p + "-" + i, h, spec));
                }
            }
        }
        return new Topology(nodes, links);
    }

    /** Two-tier Clos: every leaf links every spine; each leaf is a pod of its hosts. */
    public static Topology leafSpine(int spines, int leaves, int hostsPerLeaf, LinkSpec spec) {
        if (spines < 1 || leaves < 1 || hostsPerLeaf < 1 || (long) leaves * hostsPerLeaf > 65536) {
            throw new IllegalArgumentException(
                    "leaf-spine needs at least one spine, leaf and host per leaf, at most 65536 hosts");
        }
        List<Node> nodes = new ArrayList<>();
        List<Link> links = new ArrayList<>();
        for (int s = 1; s <= spines; s++) {
            nodes.add(new Node("spine-" + s, NodeKind.SWITCH, -1));
        }
        int host = 1;
        for (int l = 1; l <= leaves; l++) {
            String leaf = "leaf-" + l;
            nodes.add(new Node(leaf, NodeKind.SWITCH, l));
            for (int s = 1; s <= spines; s++) {
                links.add(new Link(leaf, "spine-" + s, spec));
            }
            for (int h = 0; h < hostsPerLeaf; h++) {
                String name = "h" + host++;
                nodes.add(new Node(name, NodeKind.HOST, l));
                links.add(new Link(leaf, name, spec));
            }
        }
        return new Topology(nodes, links);
    }

    /**
     * The seed's Fig. 1: s7 on top over s5 and s6; s5 over s1, s2; s6 over s3, s4; servers
     * w1..w8, two under each leaf.
     */
    public static Topology paperFig1(LinkSpec spec) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            nodes.add(new Node("s" + i, NodeKind.SWITCH, i <= 4 ? i : -1));
        }
        for (int i = 1; i <= 8; i++) {
            nodes.add(new Node("w" + i, NodeKind.HOST, (i + 1) / 2));
        }
        List<Link> links = new ArrayList<>(List.of(
                new Link("s7", "s5", spec), new Link("s7", "s6", spec),
                new Link("s5", "s1", spec), new Link("s5", "s2", spec),
                new Link("s6", "s3", spec), new Link("s6", "s4", spec)));
        for (int i = 1; i <= 8; i++) {
            links.add(new Link("s" + ((i + 1) / 2), "w" + i, spec));
        }
        return new Topology(nodes, links);
    }
}
