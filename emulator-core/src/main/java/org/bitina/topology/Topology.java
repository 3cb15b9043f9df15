package org.bitina.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated, immutable network: switches, hosts and links. Node order is the order of
 * declaration and is used for every deterministic choice (indices, ECMP, placement).
 */
public final class Topology {
    private final Map<String, Node> nodes;
    private final List<Node> nodeList;
    private final List<Link> links;
    private final Map<String, Integer> index = new LinkedHashMap<>();
    private final List<List<Link>> adjacency = new ArrayList<>();
    /** neighbourIndex[v][i]: the index of the node at the other end of v's i-th link (declaration order). */
    private final int[][] neighbourIndex;

    private final boolean[] host;
    /** The connected component of each switch over switch-to-switch links; -1 for hosts. */
    private final int[] switchComponent;

    public Topology(List<Node> nodes, List<Link> links) {
        Map<String, Node> byName = new LinkedHashMap<>();
        for (Node n : nodes) {
            if (byName.put(n.name(), n) != null) {
                throw new IllegalArgumentException("duplicate node name " + n.name());
            }
            index.put(n.name(), adjacency.size());
            adjacency.add(new ArrayList<>());
        }
        this.nodes = Collections.unmodifiableMap(byName);
        this.nodeList = List.copyOf(nodes);
        for (Link l : links) {
            if (!byName.containsKey(l.a()) || !byName.containsKey(l.b())) {
                throw new IllegalArgumentException("link " + l + " names an unknown node");
            }
            if (l.a().equals(l.b())) {
                throw new IllegalArgumentException("link " + l + " is a self-loop");
            }
            if (linkBetween(l.a(), l.b()).isPresent()) {
                throw new IllegalArgumentException("duplicate link " + l);
            }
            adjacency.get(index.get(l.a())).add(l);
            adjacency.get(index.get(l.b())).add(l);
        }
        this.links = List.copyOf(links);
        int n = nodeList.size();
        neighbourIndex = new int[n][];
        host = new boolean[n];
        for (int v = 0; v < n; v++) {
            host[v] = nodeList.get(v).isHost();
            List<Link> ls = adjacency.get(v);
            int[] row = new int[ls.size()];
            String name = nodeList.get(v).name();
            for (int i = 0; i < row.length; i++) {
                row[i] = index.get(ls.get(i).other(name));
            }
            neighbourIndex[v] = row;
        }
        switchComponent = switchComponents();
    }

    private int[] switchComponents() {
        int n = nodeList.size();
        int[] comp = new int[n];
        Arrays.fill(comp, -1);
        int next = 0;
        int[] stack = new int[n];
        for (int s = 0; s < n; s++) {
            if (host[s] || comp[s] >= 0) {
                continue;
            }
            int top = 0;
            stack[top++] = s;
            comp[s] = next;
            while (top > 0) {
                int v = stack[--top];
                for (int u : neighbourIndex[v]) {
                    if (!host[u] && comp[u] < 0) {
                        comp[u] = next;
                        stack[top++] = u;
                    }
                }
            }
            next++;
        }
        return comp;
    }

    public List<Node> nodes() {
        return nodeList;
    }

    public List<Link> links() {
        return links;
    }

    public boolean has(String name) {
        return nodes.containsKey(name);
    }

    public Node node(String name) {
        Node n = nodes.get(name);
        if (n == null) {
            throw new IllegalArgumentException("unknown node " + name);
        }
        return n;
    }

    /** Position of the node in declaration order. */
    public int indexOf(String name) {
        Integer i = index.get(name);
        if (i == null) {
            throw new IllegalArgumentException("unknown node " + name);
        }
        return i;
    }

    /** The indices of a node's neighbours, one per link in declaration order (do not modify). */
    public int[] neighbourIndices(int v) {
        return neighbourIndex[v];
    }

    /** The links of node {@code v}, in the order of {@link #neighbourIndices(int)}. */
    public List<Link> linksOf(int v) {
        return Collections.unmodifiableList(adjacency.get(v));
    }

    public boolean isHost(int v) {
        return host[v];
    }

    public int size() {
        return nodeList.size();
    }

    public List<Node> switches() {
        return nodeList.stream().filter(Node::isSwitch).toList();
    }

    public List<Node> hosts() {
        return nodeList.stream().filter(Node::isHost).toList();
    }

    /** Links of a node, in declaration order. */
    public List<Link> linksOf(String name) {
        return Collections.unmodifiableList(adjacency.get(indexOf(name)));
    }

    public List<String> neighbors(String name) {
        return linksOf(name).stream().map(l -> l.other(name)).toList();
    }

    /** The fastest of {@code node}'s links' properties (a host has one in every shipped topology); empty without a link. */
    public Optional<LinkSpec> fastestLink(String node) {
        return linksOf(node).stream().map(Link::spec).max(Comparator.comparingLong(LinkSpec::bandwidthBps));
    }

    /** A host's link rate: its fastest link's; 1 bit/s without a link (a divisor, never zero). */
    public long hostBps(String host) {
        return fastestLink(host).map(LinkSpec::bandwidthBps).orElse(1L);
    }

    /** The link between {@code x} and {@code y}'s properties, the default link's where they share none. */
    public LinkSpec specBetween(String x, String y) {
        return linkBetween(x, y).map(Link::spec).orElse(LinkSpec.DEFAULT);
    }

    /** The modelled time of one packet of {@code bytes} along {@code path}: each hop's latency and serialisation, no queueing. */
    public long pathNanos(List<String> path, long bytes) {
        long t = 0;
        for (int i = 1; i < path.size(); i++) {
            LinkSpec l = specBetween(path.get(i - 1), path.get(i));
            t += l.latencyNanos() + l.serializationNanos(bytes);
        }
        return t;
    }

    public Optional<Link> linkBetween(String x, String y) {
        Integer i = index.get(x);
        if (i == null) {
            return Optional.empty();
        }
        for (Link l : adjacency.get(i)) {
            if (l.joins(x, y)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    /** Nodes not reachable from the first node (hosts relay nothing, but count as reached). */
    public List<String> unreachableFromFirst() {
        if (nodeList.isEmpty()) {
            return List.of();
        }
        boolean[] seen = reachFrom(nodeList.get(0).name(), false);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                out.add(nodeList.get(i).name());
            }
        }
        return out;
    }

    /**
     * Nodes reachable from {@code from}; with {@code switchesOnly} the path may pass through
     * switches only (hosts are reached but not crossed), as a packet between two switches would.
     */
    public boolean[] reachFrom(String from, boolean switchesOnly) {
        boolean[] seen = new boolean[nodeList.size()];
        int[] queue = new int[nodeList.size()];
        int head = 0;
        int tail = 0;
        int s = indexOf(from);
        seen[s] = true;
        queue[tail++] = s;
        while (head < tail) {
            int v = queue[head++];
            if (switchesOnly && host[v] && v != s) {
                continue;
            }
            for (int u : neighbourIndex[v]) {
                if (!seen[u]) {
                    seen[u] = true;
                    queue[tail++] = u;
                }
            }
        }
        return seen;
    }

    /** True when a path from a to b crosses switches only. */
    public boolean switchConnected(String a, String b) {
        int x = indexOf(a);
        int y = indexOf(b);
        if (x == y) {
            return true;
        }
        for (int u : neighbourIndex[x]) {
            if (u == y) {
                return true;
            }
        }
        // otherwise the path's inner nodes are switches of one component, next to (or being) both ends
        for (int cx : componentsAt(x)) {
            for (int cy : componentsAt(y)) {
                if (cx == cy) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The switch components a path leaving {@code v} can enter: its own, or for a host those of its switches. */
    private int[] componentsAt(int v) {
        if (!host[v]) {
            return new int[] {switchComponent[v]};
        }
        return Arrays.stream(neighbourIndex[v])
                .filter(u -> !host[u])
                .map(u -> switchComponent[u])
                .distinct()
                .toArray();
    }
}
