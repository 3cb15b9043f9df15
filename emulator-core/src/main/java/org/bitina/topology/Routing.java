package org.bitina.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Shortest-path (hop count) routing over a topology with some links or nodes down. Hosts
 * are endpoints: a path may start or end at a host but never crosses one. Among equal-cost
 * next hops the choice is a deterministic ECMP hash of (node, destination), so every run
 * and every JVM computes the same tables.
 *
 * <p>Nothing is all-pairs: the distances toward a destination come from one breadth-first
 * search, computed the first time that destination is asked for and kept (compactly, two
 * bytes a node). A host with a single live link shares its switch's search (its distances
 * are the switch's plus one), so a fat tree needs one search per switch that is asked for,
 * at most. A next hop is worked out from the distances of the node's neighbours when asked:
 * O(degree), the same choice an all-pairs table would hold.
 */
public final class Routing {
    private static final int UNREACHABLE = Integer.MAX_VALUE;
    private static final char NO_DISTANCE = Character.MAX_VALUE;

    private final Topology topology;
    private final Set<Link> downLinks;
    private final Set<String> downNodes;
    private final boolean[] down;
    private final boolean[] host;
    /** live[v]: v's neighbours over links that are up, toward nodes that are up, in declaration order. */
    private final int[][] live;

    private final int[] nameHash;
    /** The switch a host's every path leaves through (its only live link), or -1: that host shares the switch's search. */
    private final int[] viaSwitch;
    /** Distances toward each destination that has been asked for (char[] or, for very long paths, int[]). */
    private final OnceArray<Object> distances;

    private Routing(Topology topology, Set<Link> downLinks, Set<String> downNodes) {
        this.topology = topology;
        this.downLinks = Set.copyOf(downLinks);
        this.downNodes = Set.copyOf(downNodes);
        int n = topology.size();
        down = new boolean[n];
        host = new boolean[n];
        nameHash = new int[n];
        for (String name : downNodes) {
            down[topology.indexOf(name)] = true;
        }
        for (int v = 0; v < n; v++) {
            host[v] = topology.isHost(v);
            nameHash[v] = topology.nodes().get(v).name().hashCode();
        }
        live = new int[n][];
        for (int v = 0; v < n; v++) {
            int[] all = topology.neighbourIndices(v);
            List<Link> ls = topology.linksOf(v);
            int[] row = new int[all.length];
            int k = 0;
            for (int i = 0; i < all.length; i++) {
                if (!down[all[i]] && (this.downLinks.isEmpty() || !this.downLinks.contains(ls.get(i)))) {
                    row[k++] = all[i];
                }
            }
            live[v] = k == row.length ? row : Arrays.copyOf(row, k);
        }
        viaSwitch = new int[n];
        Arrays.fill(viaSwitch, -1);
        for (int v = 0; v < n; v++) {
            if (host[v] && !down[v] && live[v].length == 1 && !host[live[v][0]]) {
                viaSwitch[v] = live[v][0];
            }
        }
        distances = new OnceArray<>(n);
    }

    public static Routing compute(Topology topology) {
        return new Routing(topology, Set.of(), Set.of());
    }

    /** Routing with the given links and nodes removed (a failure, F7/B5). */
    public static Routing compute(Topology topology, Set<Link> downLinks, Set<String> downNodes) {
        return new Routing(topology, downLinks, downNodes);
    }

    /**
     * Computes, on every core, the searches toward the given destinations that are not known
     * yet (the answers are the same whether or not this is called first).
     */
    public Routing prepare(Collection<String> destinations) {
        int[] classes = destinations.stream()
                .mapToInt(topology::indexOf)
                .map(d -> viaSwitch[d] >= 0 ? viaSwitch[d] : d)
                .distinct()
                .filter(d -> !down[d] && distances.get(d) == null)
                .toArray();
        IntStream.of(classes).parallel().forEach(this::searched);
        return this;
    }

    static int ecmpIndex(String node, String destination, int choices) {
        return ecmpIndex(node.hashCode(), destination.hashCode(), choices);
    }

    private static int ecmpIndex(int nodeHash, int destinationHash, int choices) {
        if (choices == 1) {
            return 0;
        }
        long h = nodeHash * 0x9E3779B97F4A7C15L + destinationHash;
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
        int h = nextHop(topology.indexOf(from), topology.indexOf(to));
        return h < 0 ? null : topology.nodes().get(h).name();
    }

    /** The index of {@code v}'s next hop toward {@code d}: -1 when unreachable, {@code v} itself when {@code v == d}. */
    public int nextHop(int v, int d) {
        if (down[v] || down[d]) {
            return -1;
        }
        if (v == d) {
            return v;
        }
        int dv = distance(d, v);
        if (dv == UNREACHABLE) {
            return -1;
        }
        int[] nbrs = live[v];
        int choices = 0;
        for (int u : nbrs) {
            if ((u == d || !host[u]) && distance(d, u) == dv - 1) {
                choices++;
            }
        }
        int pick = ecmpIndex(nameHash[v], nameHash[d], choices);
        for (int u : nbrs) {
            if ((u == d || !host[u]) && distance(d, u) == dv - 1 && pick-- == 0) {
                return u;
            }
        }
        throw new IllegalStateException("no next hop from " + v + " at distance " + dv + " toward " + d);
    }

    /**
     * The next hops of {@code v} toward many destinations at once ({@link #nextHop(int, int)}
     * for each; -1 entries stay -1). Destinations behind one switch share their equal-cost
     * choices, so this costs O(degree) per such switch and O(1) per destination.
     */
    public int[] nextHops(int v, int[] destinations) {
        int[] out = new int[destinations.length];
        int[][] choices = new int[live.length][];
        for (int i = 0; i < destinations.length; i++) {
            int d = destinations[i];
            if (d < 0 || down[v] || down[d]) {
                out[i] = -1;
                continue;
            }
            if (v == d) {
                out[i] = v;
                continue;
            }
            int s = viaSwitch[d];
            // beyond d's own switch, the way toward d is the way toward that switch (only the ECMP pick differs)
            int toward = s >= 0 && s != v ? s : d;
            int[] c;
            if (toward == d) {
                c = candidates(v, d);
            } else {
                c = choices[toward];
                if (c == null) {
                    c = candidates(v, toward);
                    choices[toward] = c;
                }
            }
            out[i] = c.length == 0 ? -1 : c[ecmpIndex(nameHash[v], nameHash[d], c.length)];
        }
        return out;
    }

    /** Whether {@code v} has exactly one live link (a host on one switch): every path from it starts there. */
    public int onlyLink(int v) {
        return !down[v] && live[v].length == 1 ? live[v][0] : -1;
    }

    /** The equal-cost next hops of {@code v} toward {@code d} (v != d, both up), in declaration order. */
    private int[] candidates(int v, int d) {
        int dv = distance(d, v);
        if (dv == UNREACHABLE) {
            return new int[0];
        }
        int[] nbrs = live[v];
        int[] c = new int[nbrs.length];
        int k = 0;
        // a destination with a search of its own: read it once, not once per neighbour
        Object own = viaSwitch[d] < 0 ? searched(d) : null;
        for (int u : nbrs) {
            if ((u == d || !host[u]) && (own != null ? distanceOf(own, u) : distance(d, u)) == dv - 1) {
                c[k++] = u;
            }
        }
        return Arrays.copyOf(c, k);
    }

    /** Whether {@code d} can be reached from {@code v}: O(1) once d's search is known (nextHop(v, d) >= 0, without choosing). */
    public boolean reachable(int v, int d) {
        return !down[v] && !down[d] && (v == d || distance(d, v) != UNREACHABLE);
    }

    public boolean reachable(String from, String to) {
        return nextHop(topology.indexOf(from), topology.indexOf(to)) >= 0;
    }

    /** Hop count, or -1 when unreachable. */
    public int hops(String from, String to) {
        int v = topology.indexOf(from);
        int d = topology.indexOf(to);
        if (down[v] || down[d]) {
            return -1;
        }
        int h = distance(d, v);
        return h == UNREACHABLE ? -1 : h;
    }

    /** The node sequence from {@code from} to {@code to}, both included; empty when unreachable. */
    public List<String> path(String from, String to) {
        if (!reachable(from, to)) {
            return List.of();
        }
        List<String> path = new ArrayList<>();
        int at = topology.indexOf(from);
        int d = topology.indexOf(to);
        path.add(from);
        while (at != d) {
            at = nextHop(at, d);
            path.add(topology.nodes().get(at).name());
        }
        return path;
    }

    /** Hops from {@code v} to the live destination {@code d}, or UNREACHABLE. */
    private int distance(int d, int v) {
        int s = viaSwitch[d];
        if (s >= 0) {
            if (v == d) {
                return 0;
            }
            int through = distanceOf(searched(s), v);
            return through == UNREACHABLE ? UNREACHABLE : through + 1;
        }
        return distanceOf(searched(d), v);
    }

    private static int distanceOf(Object dist, int v) {
        if (dist instanceof char[] c) {
            return c[v] == NO_DISTANCE ? UNREACHABLE : c[v];
        }
        return ((int[]) dist)[v];
    }

    /** The breadth-first search toward {@code d} (hosts other than {@code d} relay nothing), computed once. */
    private Object searched(int d) {
        Object known = distances.get(d);
        if (known != null) {
            return known;
        }
        int n = live.length;
        int[] dist = new int[n];
        Arrays.fill(dist, UNREACHABLE);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        dist[d] = 0;
        queue[tail++] = d;
        int far = 0;
        while (head < tail) {
            int v = queue[head++];
            if (v != d && host[v]) {
                continue;
            }
            for (int u : live[v]) {
                if (dist[u] == UNREACHABLE) {
                    dist[u] = dist[v] + 1;
                    far = dist[u];
                    queue[tail++] = u;
                }
            }
        }
        Object compact = dist;
        if (far < NO_DISTANCE) {
            char[] c = new char[n];
            for (int v = 0; v < n; v++) {
                c[v] = dist[v] == UNREACHABLE ? NO_DISTANCE : (char) dist[v];
            }
            compact = c;
        }
        // two threads may search at once: both find the same distances, the first one kept
        return distances.putIfAbsent(d, compact);
    }
}
