package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.wire.PacketCodec;

/**
 * The modelled round trip a worker's retransmission timer is derived from ({@link AllReduceWorker#policy}):
 * for the farthest member, a chunk up its VAT chain (each VAT hop routed) to the root and its result
 * back down the shortest path, each link costing its latency and one packet's serialisation, plus the
 * longest queue the job's own windows can make at one port: a window of packets of each stream that
 * crosses that link in that direction, each VAT edge's contributions up a stream (paths share links:
 * fig. 1's s5 carries three) and the results down one (replicated: a copy a link), so that a
 * lossless run never times out. Queueing behind other traffic is left out: the backoff covers it.
 */
public final class RoundTrip {
    private RoundTrip() {}

    /**
     * @param parent a node's VAT parent (null above the root)
     * @return the round trip in nanoseconds, or 0 under the real clock (its timers are wall-clock
     *     ones, which a modelled round trip does not time)
     */
    public static long of(
            Scenario s,
            Routing routing,
            Collection<String> members,
            UnaryOperator<String> parent,
            String root,
            DataSpec data,
            int capacity) {
        return of(s, routing, members, parent, root, packetBytes(data, capacity), data.window(), true);
    }

    /** The bytes of one chunk's packet on the wire: header, flat bitmap, payload and tag. */
    public static long packetBytes(DataSpec data, int capacity) {
        return PacketCodec.HEADER_BYTES
                + (capacity + 7) / 8
                + (long) data.chunk() * data.type().bytes()
                + 16;
    }

    /**
     * As {@link #of(Scenario, Routing, Collection, UnaryOperator, String, DataSpec, int)}, for packets
     * of {@code bytes} and a window of {@code window} of them (an MoE dispatch and its combine).
     */
    public static long of(
            Scenario s,
            Routing routing,
            Collection<String> members,
            UnaryOperator<String> parent,
            String root,
            long bytes,
            int window) {
        return of(s, routing, members, parent, root, bytes, window, false);
    }

    /**
     * {@code shared}: the queue a window makes counts every VAT edge's stream that shares a link
     * ({@link #sharedQueue}, the reductions' trees); else a window on the slowest link, as an MoE's
     * or a multicast's rule has it (their streams leave one source, whose port paces them).
     */
    private static long of(
            Scenario s,
            Routing routing,
            Collection<String> members,
            UnaryOperator<String> parent,
            String root,
            long bytes,
            int window,
            boolean shared) {
        if (s.clock() != Clock.VIRTUAL) {
            return 0;
        }
        Topology t = s.topology();
        // every member's chunk stream up its VAT chain and its results down: the routed paths
        List<List<List<String>>> trips = new ArrayList<>();
        for (String m : members) {
            List<List<String>> trip = new ArrayList<>();
            String at = m;
            for (int guard = 0; !at.equals(root) && guard < t.size(); guard++) {
                String next = parent.apply(at);
                if (next == null) {
                    break;
                }
                trip.add(routing.path(at, next));
                at = next;
            }
            trip.add(routing.path(root, m));
            trips.add(trip);
        }
        long worst = 0;
        for (List<List<String>> trip : trips) {
            long c = 0;
            for (List<String> path : trip) {
                c += t.pathNanos(path, bytes);
            }
            worst = Math.max(worst, c);
        }
        long slowest = 0;
        for (Link l : t.links()) {
            slowest = Math.max(slowest, l.spec().serializationNanos(bytes));
        }
        return worst + Math.max(window * slowest, shared ? sharedQueue(t, trips, bytes, window) : 0);
    }

    /** One direction of one link. */
    private record Hop(String from, String to) {}

    /**
     * The longest queue the job's windows can make at one port: a window of each stream crossing
     * that link in that direction. Each VAT edge's contributions up are a stream of their own, its
     * routed path counted once however many members are below it; the results down are replicated,
     * one copy a link.
     */
    private static long sharedQueue(Topology t, List<List<List<String>>> trips, long bytes, int window) {
        Set<List<String>> up = new HashSet<>();
        Set<Hop> down = new HashSet<>();
        for (List<List<String>> trip : trips) {
            up.addAll(trip.subList(0, trip.size() - 1));
            down.addAll(hops(trip.get(trip.size() - 1)));
        }
        Map<Hop, Integer> streams = new HashMap<>();
        up.forEach(path -> hops(path).forEach(h -> streams.merge(h, 1, Integer::sum)));
        down.forEach(h -> streams.merge(h, 1, Integer::sum));
        long queue = 0;
        for (Map.Entry<Hop, Integer> e : streams.entrySet()) {
            Hop h = e.getKey();
            queue = Math.max(
                    queue,
                    window * e.getValue() * t.specBetween(h.from(), h.to()).serializationNanos(bytes));
        }
        return queue;
    }

    private static List<Hop> hops(List<String> path) {
        List<Hop> out = new ArrayList<>();
        for (int i = 1; i < path.size(); i++) {
            out.add(new Hop(path.get(i - 1), path.get(i)));
        }
        return out;
    }

    /**
     * L1: how long a VAT node's send for a chunk answers the retransmissions of that chunk that reach
     * it afterwards (protocol.ResendHolds): twice the latency of its shortest link, the least time in
     * which anything it sends can come back past it. Under the real clock 0 (each is answered alone).
     */
    public static long resendHoldNanos(Scenario s, String node) {
        if (s.clock() != Clock.VIRTUAL) {
            return 0;
        }
        long shortest = Long.MAX_VALUE;
        for (Link l : s.topology().links()) {
            if (l.a().equals(node) || l.b().equals(node)) {
                shortest = Math.min(shortest, l.spec().latencyNanos());
            }
        }
        return shortest == Long.MAX_VALUE ? 0 : 2 * shortest;
    }
}
