package org.bitina.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The all-pairs routing bitina used before issue 17 (two int[n][n] tables), kept as the oracle
 * that {@link Routing} must agree with (RoutingEquivalenceTest).
 *
 * Shortest-path (hop count) routing over a topology with some links or nodes down. Hosts
 * are endpoints: a path may start or end at a host but never crosses one. Among equal-cost
 * next hops the choice is a deterministic ECMP hash of (node, destination), so every run
 * and every JVM computes the same tables.
 */
final class AllPairsRouting {
    private final Topology topology;
    /** nextHop[v][d]: index of v's next hop toward d, -1 if unreachable, v itself if v == d. */
    private final int[][] nextHop;

    private final int[][] distance;
    private final Set<Link> downLinks;
    private final Set<String> downNodes;

    private AllPairsRouting(Topology topology, Set<Link> downLinks, Set<String> downNodes) {
        this.topology = topology;
        this.downLinks = Set.copyOf(downLinks);
        this.downNodes = Set.copyOf(downNodes);
        int n = topology.size();
        nextHop = new int[n][n];
        distance = new int[n][n];
        for (int[] row : nextHop) {
            Arrays.fill(row, -1);
        }
        List<Node> nodes = topology.nodes();
        boolean[] down = new boolean[n];
        for (String name : downNodes) {
            down[topology.indexOf(name)] = true;
        }
        for (int d = 0; d < n; d++) {
            int[] dist = distance[d];
            Arrays.fill(dist, Integer.MAX_VALUE);
            if (down[d]) {
                continue;
            }
            dist[d] = 0;
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(d);
            while (!queue.isEmpty()) {
                int v = queue.poll();
                // a host relays nothing: it is a destination, never a transit hop
                if (v != d && nodes.get(v).isHost()) {
                    continue;
                }
                for (Link l : topology.linksOf(nodes.get(v).name())) {
                    if (downLinks.contains(l)) {
                        continue;
                    }
                    int u = topology.indexOf(l.other(nodes.get(v).name()));
                    if (!down[u] && dist[u] == Integer.MAX_VALUE) {
                        dist[u] = dist[v] + 1;
                        queue.add(u);
                    }
                }
            }
        }
        // distance[d][v] holds dist(v -> d); transpose into per-source rows
        int[][] byDest = new int[n][];
        for (int d = 0; d < n; d++) {
            byDest[d] = distance[d].clone();
        }
        for (int v = 0; v < n; v++) {
            for (int d = 0; d < n; d++) {
                distance[v][d] = byDest[d][v];
            }
        }
        for (int v = 0; v < n; v++) {
            if (down[v]) {
                continue;
            }
            String vName = nodes.get(v).name();
            for (int d = 0; d < n; d++) {
                if (v == d) {
                    nextHop[v][d] = v;
                    continue;
                }
                int dv = byDest[d][v];
                if (dv == Integer.MAX_VALUE) {
                    continue;
                }
                List<Integer> candidates = new ArrayList<>();
                for (Link l : topology.linksOf(vName)) {
                    if (downLinks.contains(l)) {
                        continue;
                    }
                    int u = topology.indexOf(l.other(vName));
                    boolean canRelay = u == d || nodes.get(u).isSwitch();
                    if (!down[u] && canRelay && byDest[d][u] == dv - 1) {
                        candidates.add(u);
                    }
                }
                nextHop[v][d] = candidates.get(ecmpIndex(vName, nodes.get(d).name(), candidates.size()));
            }
        }
    }

    static AllPairsRouting compute(Topology topology) {
        return new AllPairsRouting(topology, Set.of(), Set.of());
    }

    /** Routing with the given links and nodes removed (a failure, F7/B5). */
    static AllPairsRouting compute(Topology topology, Set<Link> downLinks, Set<String> downNodes) {
        return new AllPairsRouting(topology, downLinks, downNodes);
    }

    static int ecmpIndex(String node, String destination, int choices) {
        if (choices == 1) {
            return 0;
        }
        long h = node.hashCode() * 0x9E3779B97F4A7C15L + destination.hashCode();
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) choices);
    }

    /** What this routing avoids: with the topology, all it is computed from (it crosses JVMs as these). */
    public Set<Link> downLinks() {
        return downLinks;
    }

    public Set<String> downNodes() {
        return downNodes;
    }

    public Topology topology() {
        return topology;
    }

    /** The neighbour of {@code from} on the way to {@code to}, or null when unreachable. */
    public String nextHop(String from, String to) {
        int h = nextHop[topology.indexOf(from)][topology.indexOf(to)];
        return h < 0 ? null : topology.nodes().get(h).name();
    }

    public boolean reachable(String from, String to) {
        return nextHop[topology.indexOf(from)][topology.indexOf(to)] >= 0;
    }

    /** Hop count, or -1 when unreachable. */
    public int hops(String from, String to) {
        int d = distance[topology.indexOf(from)][topology.indexOf(to)];
        return d == Integer.MAX_VALUE ? -1 : d;
    }

    /** The node sequence from {@code from} to {@code to}, both included; empty when unreachable. */
    public List<String> path(String from, String to) {
        if (!reachable(from, to)) {
            return List.of();
        }
        List<String> path = new ArrayList<>();
        String at = from;
        path.add(at);
        while (!at.equals(to)) {
            at = nextHop(at, to);
            path.add(at);
        }
        return path;
    }
}
