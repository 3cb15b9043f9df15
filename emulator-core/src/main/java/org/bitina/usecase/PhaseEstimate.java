package org.bitina.usecase;

import java.util.List;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;

/**
 * What a phase's plan says of its size when nothing is lost, as its use case counts it: the
 * packets it sends, the most bytes one endpoint puts on its link, and the round trips it makes one
 * after the other (windows, ring steps). From these, one rule for every kind: the longest the phase
 * could last in modelled time ({@link #latestEndNanos}), and the packet count past which it is a
 * storm, not a run ({@link #frameLimit}).
 *
 * @param packets        packets sent when nothing is lost: the endpoints' and the switches' own
 *                       (aggregates, results), a replicated copy not counted again
 * @param senderBytes    the most bytes one endpoint sends (its link's serialisation bounds the phase)
 * @param roundTrips     round trips made one after the other
 */
public record PhaseEstimate(long packets, long senderBytes, long roundTrips) {
    /**
     * The most sends of one packet any driver makes (BIER-INC's, and the most {@code recovery.max-sends} allows: first send and
     * retransmissions), doubled for a duplicate of each on its way and the timer each send arms.
     */
    public static final long ALLOWED_PER_PLANNED = 32;

    public PhaseEstimate {
        if (packets < 0 || senderBytes < 0 || roundTrips < 0) {
            throw new IllegalArgumentException(
                    "a phase estimate counts nothing negative: " + packets + ", " + senderBytes + ", " + roundTrips);
        }
    }

    /**
     * The most frames the phase's devices may handle (each frame's arrival on a link, and each
     * timer): {@link #ALLOWED_PER_PLANNED} times the planned packets, each crossing at most every
     * link of the topology once (a unicast follows one path, a BIER copy never crosses a link twice).
     * Past it the phase is a forwarding loop or a duplication storm, and ends failed before it
     * runs out of memory.
     */
    public long frameLimit(Topology topology) {
        long links = Math.max(1, topology.links().size());
        long perPlanned = ALLOWED_PER_PLANNED * links;
        return packets > Long.MAX_VALUE / perPlanned ? Long.MAX_VALUE : Math.max(1, packets) * perPlanned;
    }

    /**
     * About how long the phase lasts when nothing goes wrong: its busiest sender's bytes at the
     * slowest link's rate, plus its round trips, each across the longest path there and back (each
     * hop its latency and one MTU's serialisation). Queueing is left out: {@link #latestEndNanos}
     * doubles it.
     */
    public long cleanNanos(Scenario s, Routing routing) {
        Topology t = s.topology();
        long slowestBps = Long.MAX_VALUE;
        long worstHop = 0;
        for (Link l : t.links()) {
            slowestBps = Math.min(slowestBps, l.spec().bandwidthBps());
            worstHop = Math.max(
                    worstHop,
                    l.spec().latencyNanos()
                            + l.spec().serializationNanos(l.spec().mtu()));
        }
        if (t.links().isEmpty()) {
            return 0;
        }
        long hops = Math.max(1, diameter(t, routing));
        double bytesNanos = senderBytes * 8.0 * 1e9 / slowestBps;
        double tripsNanos = (double) roundTrips * 2 * hops * worstHop;
        return (long) Math.min(Long.MAX_VALUE / 4.0, bytesNanos + tripsNanos);
    }

    /**
     * The latest the phase could end, in modelled time, under the faults planned before {@code at}:
     * twice its clean length; each round trip waiting out the phase's timeout twice when one of them
     * leaves a share missing (a silent endpoint, a crash, a link down, loss, a lost member, a switch
     * that corrupts), and every unit held by the longest straggler in turn (as {@link Phase.Timing}).
     */
    public long latestEndNanos(Phase p, Scenario s, Routing routing, List<FaultSpec> before) {
        double end = 2.0 * cleanNanos(s, routing);
        if (before.stream().anyMatch(f -> waits(f.kind()))) {
            end += 2.0 * Math.max(1, roundTrips) * p.timing().timeoutNanos();
        }
        end += (double) Math.max(1, p.timing().units()) * p.timing().maxStraggleNanos();
        return (long) Math.min(Long.MAX_VALUE / 2.0, end);
    }

    private static boolean waits(FaultSpec.Kind k) {
        return switch (k) {
            case SILENT, SWITCH_CRASH, LINK_DOWN, LOSS, MEMBER_LOSS, MALICIOUS_SWITCH, DELAY -> true;
            default -> false;
        };
    }

    /**
     * At least the most hops between two hosts that reach each other: twice the farthest host from the
     * first one (any path is at most the way there and back through it), in one pass over the hosts.
     */
    private static int diameter(Topology t, Routing routing) {
        List<Node> hosts = t.hosts();
        if (hosts.isEmpty()) {
            return 0;
        }
        String first = hosts.get(0).name();
        int most = 0;
        for (Node h : hosts) {
            most = Math.max(most, routing.hops(first, h.name()));
        }
        return 2 * most;
    }
}
