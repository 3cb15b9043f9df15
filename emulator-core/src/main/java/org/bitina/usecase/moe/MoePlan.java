package org.bitina.usecase.moe;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.RecoverySettings;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.Straggler;

/**
 * One phase of an MoE job: INA (dispatch by bitmap multicast, combine aggregated at the
 * branch nodes) or the all-to-all unicast baseline (M6).
 *
 * @param experts      the bit space: expert names, each placed on its host
 * @param sources      hosts holding tokens; a source's index is carried in the header's
 *                     destination field of its dispatch and combine packets
 * @param payloadBudget bytes of payload a dispatch packet may carry under the smallest MTU
 * @param stragglers   per expert host or source: delay before its experts answer or its dispatches leave
 * @param silent       expert hosts whose experts never answer
 * @param rttNanos     under the virtual clock: the modelled round trip from the farthest source to
 *                     the farthest expert and back, a window of packets serialised included
 *                     ({@link org.bitina.usecase.reduction.RoundTrip}); 0 without a path model
 * @param congestionControl whether the sources react to ECN marks ({@code congestion = dcqcn}): an expert's
 *                     answer carries its dispatch's mark, a switch's combine the OR of its answers', and a
 *                     source runs AIMD on its window of tokens
 */
public record MoePlan(
        String jobName,
        Mode mode,
        int tenant,
        int wireJob,
        BitSpace experts,
        List<String> sources,
        MoeSpec.Params params,
        long timeoutNanos,
        int payloadBudget,
        Map<String, Straggler> stragglers,
        Set<String> silent,
        long rttNanos,
        RecoverySettings recovery,
        boolean congestionControl)
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
                .experts(experts)
                .sources(sources)
                .params(params)
                .timeoutNanos(timeoutNanos)
                .payloadBudget(payloadBudget)
                .stragglers(stragglers)
                .silent(silent)
                .rttNanos(rttNanos)
                .recovery(recovery)
                .congestionControl(congestionControl);
    }

    /**
     * Builds a {@link MoePlan}. Job name, mode, experts, sources and params are required; the rest
     * defaults to a plan without stragglers or silent hosts and without a path model ({@code
     * rttNanos} = 0: re-dispatches timed by the completion timeout alone).
     */
    public static final class Builder {
        private String jobName;
        private Mode mode;
        private int tenant;
        private int wireJob;
        private BitSpace experts;
        private List<String> sources;
        private MoeSpec.Params params;
        private long timeoutNanos;
        private int payloadBudget;
        private Map<String, Straggler> stragglers = Map.of();
        private Set<String> silent = Set.of();
        private long rttNanos;
        private RecoverySettings recovery = RecoverySettings.NONE;
        private boolean congestionControl;

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

        public Builder experts(BitSpace v) {
            experts = v;
            return this;
        }

        public Builder sources(List<String> v) {
            sources = v;
            return this;
        }

        public Builder params(MoeSpec.Params v) {
            params = v;
            return this;
        }

        public Builder timeoutNanos(long v) {
            timeoutNanos = v;
            return this;
        }

        public Builder payloadBudget(int v) {
            payloadBudget = v;
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

        public Builder rttNanos(long v) {
            rttNanos = v;
            return this;
        }

        /** The job's bounds on the endpoints' retransmission rule ({@code recovery { }}). */
        public Builder recovery(RecoverySettings v) {
            recovery = v == null ? RecoverySettings.NONE : v;
            return this;
        }

        /** Whether the sources run AIMD on the marks their combines bring back ({@code congestion = dcqcn}). */
        public Builder congestionControl(boolean v) {
            congestionControl = v;
            return this;
        }

        public MoePlan build() {
            require(jobName, "jobName");
            require(mode, "mode");
            require(experts, "experts");
            require(sources, "sources");
            require(params, "params");
            return new MoePlan(
                    jobName,
                    mode,
                    tenant,
                    wireJob,
                    experts,
                    sources,
                    params,
                    timeoutNanos,
                    payloadBudget,
                    stragglers,
                    silent,
                    rttNanos,
                    recovery,
                    congestionControl);
        }

        private static void require(Object v, String field) {
            if (v == null) {
                throw new IllegalStateException("a MoePlan needs its " + field);
            }
        }
    }

    public boolean ina() {
        return mode.inNetwork();
    }

    /** One packet per (source, expert) pair instead of one per token group. */
    public boolean perPair() {
        return !ina() || "pair".equals(params.granularity());
    }
}
