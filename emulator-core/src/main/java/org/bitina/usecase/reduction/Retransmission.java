package org.bitina.usecase.reduction;

/**
 * When an in-network worker sends a contribution again (L1; seed 000 sections 2 and 3:
 * "selective retransmission instead of a wholesale restart"), as SwitchML's workers do after a
 * timeout. The rule:
 *
 * <pre>
 *   RTO(n) = min(2 * rtt * 2^(n-1), cap) + allowance(chunk)     after the n-th send of the chunk
 * </pre>
 *
 * {@code rtt} is the plan's modelled round trip (the farthest member to the root and back, plus a
 * window's serialisation: {@link AllReducePlan#rttNanos()}), doubled for margin; each send doubles
 * the wait (binary exponential backoff) up to {@code cap}, the root's completion timeout, past which
 * the aggregation timers have sent a partial result anyway. {@code allowance} is what the fault plan
 * lets a result take without anything being lost: the longest delay of a straggler that delays the
 * chunk, and with a silent member the root's timeout (its results leave at the timers), so that a
 * lossless run never retransmits. A chunk is sent at most {@code maxSends} times; with the cap that
 * bounds how long a worker may still ask ({@link #horizonNanos}) below how long a root keeps its
 * results (20 timeouts), so every question finds its answer.
 *
 * <p>Without a path model ({@code rtt = 0}: the parameter server, the real clock) the rule is the
 * older one: four timeouts between sends, five sends.
 */
public record Retransmission(long baseNanos, long capNanos, int maxSends) {
    /** Sends of a chunk over the INA path before a worker gives up on its result. */
    public static final int MAX_SENDS = 16;

    /** Sends without a path model, as before there was one. */
    static final int MAX_SENDS_UNMODELLED = 5;

    public Retransmission {
        if (baseNanos <= 0 || capNanos < baseNanos || maxSends < 1) {
            throw new IllegalArgumentException("bad retransmission rule: base " + baseNanos + " ns, cap " + capNanos
                    + " ns, " + maxSends + " sends");
        }
    }

    /** The rule for a plan's workers. */
    public static Retransmission of(AllReducePlan plan) {
        long timeout = Math.max(1, plan.timeoutNanos());
        if (plan.rttNanos() <= 0) {
            return new Retransmission(4 * timeout, 4 * timeout, MAX_SENDS_UNMODELLED);
        }
        long base = Math.min(2 * plan.rttNanos(), timeout);
        return new Retransmission(base, timeout, MAX_SENDS);
    }

    /** The wait after the {@code sends}-th send (1 for the first), before the allowance. */
    public long after(int sends) {
        int doublings = Math.max(0, Math.min(sends - 1, 62));
        long wait = baseNanos;
        for (int i = 0; i < doublings && wait < capNanos; i++) {
            wait *= 2;
        }
        return Math.min(wait, capNanos);
    }

    /** The longest a worker goes on asking for one chunk after its first send, allowance left out. */
    public long horizonNanos() {
        long sum = 0;
        for (int n = 1; n <= maxSends; n++) {
            sum += after(n);
        }
        return sum;
    }
}
