package org.bitina.usecase.reduction;

import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.wire.PacketCodec;

/**
 * The modelled round trip a worker's retransmission timer is derived from ({@link Retransmission}):
 * for the farthest member, a chunk up its VAT chain (each VAT hop routed) to the root and its result
 * back down the shortest path, each link costing its latency and one packet's serialisation, plus a
 * window of packets serialised on the slowest link (the queue a window makes at a worker's port).
 * Queueing behind other traffic is left out: the backoff covers it.
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
        return of(s, routing, members, parent, root, packetBytes(data, capacity), data.window());
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
        if (s.clock() != Clock.VIRTUAL) {
            return 0;
        }
        Topology t = s.topology();
        long slowest = 0;
        for (Link l : t.links()) {
            slowest = Math.max(slowest, l.spec().serializationNanos(bytes));
        }
        long worst = 0;
        for (String m : members) {
            long up = 0;
            String at = m;
            for (int guard = 0; !at.equals(root) && guard < t.size(); guard++) {
                String next = parent.apply(at);
                if (next == null) {
                    break;
                }
                up += cost(t, routing.path(at, next), bytes);
                at = next;
            }
            worst = Math.max(worst, up + cost(t, routing.path(root, m), bytes));
        }
        return worst + window * slowest;
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

    private static long cost(Topology t, List<String> path, long bytes) {
        long c = 0;
        for (int i = 1; i < path.size(); i++) {
            LinkSpec spec =
                    t.linkBetween(path.get(i - 1), path.get(i)).map(Link::spec).orElse(LinkSpec.DEFAULT);
            c += spec.latencyNanos() + spec.serializationNanos(bytes);
        }
        return c;
    }
}
