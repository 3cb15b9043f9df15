package org.bitina.security;

import java.time.Duration;
import java.util.List;

/**
 * One attack of a scenario's {@code attacks} section (the security issue's attack suite): a
 * hostile endpoint on host {@code node} sends, at modelled time {@code at} into the INA phase
 * of job {@code job} (an AllReduce job; a reliable multicast for {@code spoofed-ack}), packets
 * it should not.
 *
 * @param as    the members whose bits a {@code spoof-bits} or {@code spoofed-ack} attack sets besides its own
 * @param count packets a flood sends at once (1 for the other kinds)
 */
public record AttackSpec(Kind kind, Duration at, String node, String job, List<String> as, int count) {

    public enum Kind {
        /** A contribution with an all-zero tag: a sender without the job's key (S2). */
        FORGED_MAC("forged-mac", "mac"),
        /** Its own chunk 0 contribution again, unflagged (S3). */
        REPLAY("replay", "replay"),
        /** A contribution that sets other members' bits as well as its own (S4). */
        SPOOF_BITS("spoof-bits", "spoofed bits"),
        /** A contribution with the bit of a host that holds one but is not a member (S1). */
        NON_MEMBER_BITS("non-member-bits", "bits of endpoints that are not the job's members"),
        /** A result with every bit of the space set, from a member (amplification, S1 and S4). */
        AMPLIFY("amplify", null),
        /** A contribution for a tenant and job installed nowhere (S1). */
        FOREIGN_JOB("foreign-job", "unknown job"),
        /** {@code count} contributions with numbers beyond the job's chunks: state no honest worker opens (S5). */
        SOFT_STATE_FLOOD("soft-state-flood", "sequence out of range"),
        /** {@code count} packets at once from one port: past the burst, the rate limit drops them (S4). */
        RATE_FLOOD("rate-flood", "rate"),
        /**
         * A reliable multicast receiver's ACK for the first window that also sets the bits of the
         * receivers in {@code as}: if it counted, the source would never resend to them what they lost (S4).
         */
        SPOOFED_ACK("spoofed-ack", "spoofed bits");

        private final String configName;
        private final String dropReason;

        Kind(String configName, String dropReason) {
            this.configName = configName;
            this.dropReason = dropReason;
        }

        public String configName() {
            return configName;
        }

        /** How the drop it causes begins (null: one of several, by what the space holds). */
        public String dropReason() {
            return dropReason;
        }

        public static Kind fromConfig(String name) {
            for (Kind k : values()) {
                if (k.configName.equals(name)) {
                    return k;
                }
            }
            return null;
        }
    }

    public AttackSpec {
        as = List.copyOf(as);
    }

    public AttackSpec(Kind kind, Duration at, String node, String job, List<String> as) {
        this(kind, at, node, job, as, 1);
    }

    /** Whether the attack targets a reliable multicast (else an AllReduce job). */
    public boolean onMulticast() {
        return kind == Kind.SPOOFED_ACK;
    }

    /** Whether the attack is a flood of {@code count} packets. */
    public boolean flood() {
        return kind == Kind.SOFT_STATE_FLOOD || kind == Kind.RATE_FLOOD;
    }
}
