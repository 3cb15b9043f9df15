package org.bitina.usecase.multicast;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.RecoverySettings;
import org.bitina.protocol.Dcqcn;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.Straggler;

/**
 * One phase of a reliable-multicast job: INA (ACKs aggregated in the network) or the
 * unicast-ACK baseline (R6).
 *
 * @param uplink         per receiver, its VAT parent on the pre-configured ACK tree
 * @param roundTimeoutNanos how long the source waits for a round's ACK before it takes what it has, at most
 * @param roundBaseNanos the first round's wait, doubled each round up to {@code roundTimeoutNanos} ({@link
 *     AckTimers}); 0 to wait {@code roundTimeoutNanos} every round
 * @param congestion     DCQCN's settings when the source reacts to ECN marks ({@code congestion = dcqcn}), else null:
 *                       a receiver's ACK carries a CNP for marked data, and the source paces its packets at DCQCN's rate
 * @param lineBps        the source's link rate, where its DCQCN rate starts (0 without congestion control)
 */
public record MulticastPlan(
        String jobName,
        Mode mode,
        int tenant,
        int wireJob,
        String source,
        BitSpace receivers,
        MulticastSpec.Params params,
        Map<String, String> uplink,
        long roundTimeoutNanos,
        long roundBaseNanos,
        Map<String, Straggler> stragglers,
        Set<String> silent,
        List<String> members,
        RecoverySettings recovery,
        Dcqcn.Settings congestion,
        long lineBps)
        implements JobPlan {

    /** A plan built field by field: every field named, none counted ({@link Builder}). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this plan's fields, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .jobName(jobName)
                .mode(mode)
                .tenant(tenant)
                .wireJob(wireJob)
                .source(source)
                .receivers(receivers)
                .params(params)
                .uplink(uplink)
                .roundTimeoutNanos(roundTimeoutNanos)
                .roundBaseNanos(roundBaseNanos)
                .stragglers(stragglers)
                .silent(silent)
                .members(members)
                .recovery(recovery)
                .congestion(congestion, lineBps);
    }

    /**
     * Builds a {@link MulticastPlan}. Job name, mode, source, receivers, params and members are
     * required; the rest defaults to a plan without uplinks (no pre-configured ACK tree), stragglers
     * or silent receivers.
     */
    public static final class Builder {
        private String jobName;
        private Mode mode;
        private int tenant;
        private int wireJob;
        private String source;
        private BitSpace receivers;
        private MulticastSpec.Params params;
        private Map<String, String> uplink = Map.of();
        private long roundTimeoutNanos;
        private long roundBaseNanos;
        private Map<String, Straggler> stragglers = Map.of();
        private Set<String> silent = Set.of();
        private List<String> members;
        private RecoverySettings recovery = RecoverySettings.NONE;
        private Dcqcn.Settings congestion;
        private long lineBps;

        private Builder() {}

        public Builder jobName(String v) {
            jobName = v;
            return this;
        }

        public Builder mode(Mode v) {
            mode = v;
            return this;
        }

        public Builder tenant(int v) {
            tenant = v;
            return this;
        }

        public Builder wireJob(int v) {
            wireJob = v;
            return this;
        }

        public Builder source(String v) {
            source = v;
            return this;
        }

        public Builder receivers(BitSpace v) {
            receivers = v;
            return this;
        }

        public Builder params(MulticastSpec.Params v) {
            params = v;
            return this;
        }

        public Builder uplink(Map<String, String> v) {
            uplink = v;
            return this;
        }

        public Builder roundTimeoutNanos(long v) {
            roundTimeoutNanos = v;
            return this;
        }

        public Builder roundBaseNanos(long v) {
            roundBaseNanos = v;
            return this;
        }

        public Builder stragglers(Map<String, Straggler> v) {
            stragglers = v;
            return this;
        }

        public Builder silent(Set<String> v) {
            silent = v;
            return this;
        }

        public Builder members(List<String> v) {
            members = v;
            return this;
        }

        /** The job's bounds on the endpoints' retransmission rule ({@code recovery { }}). */
        public Builder recovery(RecoverySettings v) {
            recovery = v == null ? RecoverySettings.NONE : v;
            return this;
        }

        /** DCQCN's settings when the source reacts to ECN marks ({@code congestion = dcqcn}), its link's rate. */
        public Builder congestion(Dcqcn.Settings v, long rate) {
            congestion = v;
            lineBps = rate;
            return this;
        }

        public MulticastPlan build() {
            require(jobName, "jobName");
            require(mode, "mode");
            require(source, "source");
            require(receivers, "receivers");
            require(params, "params");
            require(members, "members");
            return new MulticastPlan(
                    jobName,
                    mode,
                    tenant,
                    wireJob,
                    source,
                    receivers,
                    params,
                    uplink,
                    roundTimeoutNanos,
                    roundBaseNanos,
                    stragglers,
                    silent,
                    members,
                    recovery,
                    congestion,
                    lineBps);
        }

        private static void require(Object v, String field) {
            if (v == null) {
                throw new IllegalStateException("a MulticastPlan needs its " + field);
            }
        }
    }

    /** How long the source waits for the ACKs of round {@code round} (0 for the first). */
    public long roundTimeout(int round) {
        return roundPolicy().after(round + 1);
    }

    /**
     * The source's rounds under the one retransmission rule ({@link RecoveryPolicy}): the first
     * round's wait ({@link AckTimers}) doubling each round, six times at most and never past the
     * completion timeout rule, bounded by the job's {@code recovery} settings; its sends are the
     * rounds ({@code max-rounds}, the kind's own key).
     */
    public RecoveryPolicy roundPolicy() {
        return AckTimers.policy(roundBaseNanos, roundTimeoutNanos, params.maxRounds(), recovery);
    }

    public boolean aggregated() {
        return mode.inNetwork();
    }

    /** Whether the ACKs of this round climb the self-installed tree (toward the frame's via) or the pre-configured one. */
    public boolean selfInstalled(int round) {
        return aggregated()
                && (params.ackTree().equals("self-installed")
                        || (params.ackTree().equals("composed") && round > 0));
    }
}
