package org.bitina.usecase.multicast;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.RecoverySettings;
import org.bitina.usecase.RecoveryPolicy;

/**
 * The timers of a reliable multicast's rounds (R3), from the modelled round trip instead of the
 * completion timeout alone. The rule (docs/reliable-multicast.md):
 *
 * <pre>
 *   node(n)  = min(completion-timeout rule, (2 g(n) + 1) * rtt + allowance)
 *   round(r) = min(completion-timeout rule, ((2 g(source) + 3) * rtt + allowance) * 2^min(r, 6))
 * </pre>
 *
 * {@code rtt} is the path round trip of the farthest receiver (data down, its ACK up, a window
 * serialised: {@code RoundTrip}); {@code g(n)} is a node's level in the ACK trees, one more than
 * any node whose ACKs it takes, on the pre-configured tree (VAT parents) and on the self-installed
 * one (the data's path) alike, so that a node's timer always outlasts each of its children's by at
 * least a round trip: a child starts its timer at most one round trip after its parent (the spread
 * of the data's arrivals) and its partial ACK reaches the parent within one more. The source's round
 * timer outlasts the topmost node's the same way and doubles each round, six times at most (backoff:
 * queueing the path model leaves out). {@code allowance} is the longest straggle of the fault plan. The completion
 * timeout rule stays the upper bound, and the whole rule when the plan has silent receivers (their
 * ACKs never come: the completion timeout is what the user set for that), when there is no path
 * model (the real clock), or when the two trees together have a cycle (no level exists).
 */
record AckTimers(Map<String, Long> nodeNanos, long roundBaseNanos, long roundCapNanos) {

    /**
     * @param upward     each node's next hop toward the source on either ACK tree: pairs (child, parent)
     * @param oldNode    per node the completion timeout rule's timer
     * @param oldRound   the completion timeout rule's round timer
     * @param rttNanos   the modelled round trip, 0 without a path model
     * @param allowance  the longest straggle, nanoseconds
     * @param keepOld    true to keep the completion timeout rule (silent receivers)
     */
    static AckTimers of(
            String source,
            List<String[]> upward,
            Map<String, Long> oldNode,
            long oldRound,
            long rttNanos,
            long allowance,
            boolean keepOld) {
        Map<String, Integer> level = keepOld || rttNanos <= 0 ? null : levels(upward);
        if (level == null) {
            return new AckTimers(oldNode, 0, oldRound);
        }
        Map<String, Long> node = new HashMap<>();
        oldNode.forEach((n, old) -> {
            Integer g = level.get(n);
            node.put(n, g == null ? old : Math.min(old, (2L * g + 1) * rttNanos + allowance));
        });
        long base = (2L * level.getOrDefault(source, 0) + 3) * rttNanos + allowance;
        return new AckTimers(Map.copyOf(node), Math.min(base, oldRound), oldRound);
    }

    /** Levels by relaxation over the (child, parent) pairs: a parent one above its highest child; null on a cycle. */
    static Map<String, Integer> levels(List<String[]> upward) {
        Map<String, Integer> g = new HashMap<>();
        List<String[]> edges = new ArrayList<>(upward);
        for (String[] e : edges) {
            g.putIfAbsent(e[0], 0);
            g.putIfAbsent(e[1], 0);
        }
        for (int pass = 0; pass <= g.size(); pass++) {
            boolean changed = false;
            for (String[] e : edges) {
                int want = g.get(e[0]) + 1;
                if (g.get(e[1]) < want) {
                    g.put(e[1], want);
                    changed = true;
                }
            }
            if (!changed) {
                return g;
            }
        }
        return null;
    }

    /** The source's wait for round {@code round}'s ACKs (0 for the first), under no recovery settings. */
    long round(int round) {
        return policy(roundBaseNanos, roundCapNanos, 1, RecoverySettings.NONE).after(round + 1);
    }

    /**
     * The source's rounds as the one retransmission rule ({@link RecoveryPolicy}): {@code base}
     * doubling each round, {@value RecoveryPolicy#DOUBLINGS} times at most and never past {@code cap} (the
     * completion timeout rule; every round waits {@code cap} when there is no base), bounded by the
     * job's {@code rto-min} and {@code rto-max}; its sends are the {@code rounds} (multicast's own
     * {@code max-rounds}, which {@code max-sends} leaves alone).
     */
    static RecoveryPolicy policy(long base, long cap, int rounds, RecoverySettings s) {
        long top = Math.max(1, cap);
        long first = base <= 0 ? top : Math.min(base, top);
        return RecoveryPolicy.capped(
                first,
                Math.min(top, first << RecoveryPolicy.DOUBLINGS),
                Math.max(1, rounds),
                new RecoverySettings(s.rtoMinNanos(), s.rtoMaxNanos(), 0));
    }
}
