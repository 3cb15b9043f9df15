package org.bitina.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
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
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        int s = indexOf(from);
        seen[s] = true;
        queue.add(s);
        while (!queue.isEmpty()) {
            int v = queue.poll();
            Node n = nodeList.get(v);
            if (switchesOnly && n.isHost() && v != s) {
                continue;
            }
            for (Link l : adjacency.get(v)) {
                int u = index.get(l.other(n.name()));
                if (!seen[u]) {
                    seen[u] = true;
                    queue.add(u);
                }
            }
        }
        return seen;
    }

    /** True when a path from a to b crosses switches only. */
    public boolean switchConnected(String a, String b) {
        return reachFrom(a, true)[indexOf(b)];
    }
}
