package org.bitina.job;

/**
 * A job's {@code recovery { rto-min, rto-max, max-sends }} (L1): what the file changes of the one
 * retransmission rule every endpoint uses ({@code usecase.RecoveryPolicy}). Each 0 is unset: the
 * endpoint's own modelled value stands.
 *
 * @param rtoMinNanos the shortest retransmission timeout (RFC 6298's RTO floor)
 * @param rtoMaxNanos the longest: the backoff's cap, and the first timeout at most
 * @param maxSends    sends of one packet (first send and retransmissions) before its sender gives up
 */
public record RecoverySettings(long rtoMinNanos, long rtoMaxNanos, int maxSends) {
    /** Nothing set: every endpoint keeps its modelled rule. */
    public static final RecoverySettings NONE = new RecoverySettings(0, 0, 0);

    public RecoverySettings {
        if (rtoMinNanos < 0 || rtoMaxNanos < 0 || maxSends < 0) {
            throw new IllegalArgumentException("negative recovery setting");
        }
        if (rtoMaxNanos > 0 && rtoMinNanos > rtoMaxNanos) {
            throw new IllegalArgumentException("rto-min above rto-max");
        }
    }
}
