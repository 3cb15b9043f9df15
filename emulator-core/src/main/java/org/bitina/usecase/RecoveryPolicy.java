package org.bitina.usecase;

import java.util.Map;
import org.bitina.job.RecoverySettings;

/**
 * The one retransmission rule of every endpoint that sends again (L1; issue 42 item 4): the
 * AllReduce workers, the fallback ring, the host baselines, AllGather, BIER-INC, MoE sources, the
 * reliable-multicast source and background traffic's flows. In the manner of RFC 6298:
 *
 * <pre>
 *   RTO(n) = min(rto * 2^(n-1), cap)      the wait after the n-th send of a packet
 *   give up after maxSends sends
 * </pre>
 *
 * Each endpoint derives {@code rto} from the modelled round trip of its own packets (what no timer
 * may fire before without a loss: a lossless run never retransmits) and its own cap and sends;
 * a job's {@code recovery { rto-min, rto-max, max-sends }} ({@link RecoverySettings}) then bounds
 * the timeout from below and above and sets the sends, the same for every endpoint of the job.
 *
 * @param rtoNanos the wait after the first send
 * @param capNanos the longest wait (the backoff stops doubling there)
 * @param maxSends sends of one packet, the first included, before the sender gives up on it
 */
public record RecoveryPolicy(long rtoNanos, long capNanos, int maxSends) {
    /** The report's keys of a driver's policy ({@link DriverReport#stats()}). */
    public static final String RTO_NANOS = "rtoNanos";

    public static final String MAX_SENDS = "maxSends";

    /**
     * Doublings of the first timeout at most (64 times it), in every mode: queueing is bounded, and
     * under loss alone a packet is lost at random, not because the network is busy, so later tries
     * come as often as the sixth (a member whose answer is lost ten times in a row still gets it in
     * modelled milliseconds, not seconds).
     */
    public static final int DOUBLINGS = 6;

    // Each mode's sends of one packet, the first included, before its sender gives up (a job's
    // recovery.max-sends sets them all), and why each is what it is:

    /** An INA worker's sends of a chunk over the path it models. */
    public static final int INA_SENDS = 16;

    /** An INA worker's sends without a path model (the parameter server, the real clock), as before there was one. */
    public static final int UNMODELLED_SENDS = 5;

    /** A fallback ring packet's sends (S6). */
    public static final int RING_SENDS = 16;

    /** A host baseline's sends of one packet before the member gives up on its acknowledgement. */
    public static final int HOST_SENDS = 10;

    /** An all-gather copy's sends to the members that did not acknowledge it. */
    public static final int GATHER_SENDS = 10;

    /** A BIER-INC owner's requests for one chunk before it settles the chunk with what it holds (enough for 5 % loss a hop). */
    public static final int INC_ASKS = 16;

    /**
     * A BIER-INC member's sends of its share of one chunk: twice the owner's asks, so that a member
     * keeps asking after its owner settled, and a round trip lost with 46 % (5 % loss on 12 links)
     * is tried often enough for 32,000 member-chunks at k=8.
     */
    public static final int INC_SENDS = 32;

    /**
     * With a member the fault plan silences, the rule before loss recovery: a few asks a long wait
     * apart, then the owner settles naming the silent (the members are not asked 16 times for what a
     * silent member will never send).
     */
    public static final int INC_ASKS_SILENT = 3;

    public static final int INC_SENDS_SILENT = 8;

    /**
     * An MoE source's dispatches of one packet: a dispatch and its combine cross 12 links on a k=8
     * fat-tree; at 5 % loss a link, 46 % of the round trips to one expert fail, and 24 tries leave
     * 1e-8 of them unanswered.
     */
    public static final int MOE_SENDS = 24;

    /**
     * A background-traffic flow's timeouts in a row without its cumulative acknowledgement moving
     * before its sender gives up on it: each one sends the rest of the flow again (go-back-N), and
     * at 2 % loss on six links a round makes no progress about one time in eight.
     */
    public static final int TRAFFIC_SENDS = 16;

    public RecoveryPolicy {
        if (rtoNanos <= 0 || capNanos < rtoNanos || maxSends < 1) {
            throw new IllegalArgumentException(
                    "bad recovery policy: rto " + rtoNanos + " ns, cap " + capNanos + " ns, " + maxSends + " sends");
        }
    }

    /** An endpoint's modelled rule, {@code rto} doubling at most {@code doublings} times, bounded by the job's {@code s}. */
    public static RecoveryPolicy doubling(long rtoNanos, int doublings, int maxSends, RecoverySettings s) {
        long rto = Math.max(1, rtoNanos);
        return capped(rto, rto << Math.min(doublings, Long.numberOfLeadingZeros(rto) - 1), maxSends, s);
    }

    /** An endpoint's modelled rule, {@code rto} doubling up to {@code capNanos}, bounded by the job's {@code s}. */
    public static RecoveryPolicy capped(long rtoNanos, long capNanos, int maxSends, RecoverySettings s) {
        long rto = Math.max(1, rtoNanos);
        long cap = Math.max(rto, capNanos);
        if (s.rtoMinNanos() > 0) {
            rto = Math.max(rto, s.rtoMinNanos());
            cap = Math.max(cap, rto);
        }
        if (s.rtoMaxNanos() > 0) {
            cap = s.rtoMaxNanos();
            rto = Math.min(rto, cap);
        }
        return new RecoveryPolicy(rto, cap, s.maxSends() > 0 ? s.maxSends() : maxSends);
    }

    /** The wait after the {@code sends}-th send (1 for the first). */
    public long after(int sends) {
        int doublings = Math.max(0, Math.min(sends - 1, 62));
        long wait = rtoNanos;
        for (int i = 0; i < doublings && wait < capNanos; i++) {
            wait *= 2;
        }
        return Math.min(wait, capNanos);
    }

    /** Whether a packet sent {@code sends} times is not sent again: its sender gives up. */
    public boolean exhausted(int sends) {
        return sends >= maxSends;
    }

    /** The longest a sender goes on with one packet after its first send. */
    public long horizonNanos() {
        long sum = 0;
        for (int n = 1; n <= maxSends; n++) {
            sum += after(n);
        }
        return sum;
    }

    /** What the report keeps of it: the first timeout and the sends ({@link #RTO_NANOS}, {@link #MAX_SENDS}). */
    public Map<String, Long> stats() {
        return Map.of(RTO_NANOS, rtoNanos, MAX_SENDS, (long) maxSends);
    }
}
