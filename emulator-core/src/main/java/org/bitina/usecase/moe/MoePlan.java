package org.bitina.usecase.moe;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
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
        long rttNanos)
        implements JobPlan {
    /** A plan without a path model (its re-dispatches timed by the completion timeout alone). */
    public MoePlan(
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
            Set<String> silent) {
        this(
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
                0);
    }

    public boolean ina() {
        return mode.inNetwork();
    }

    /** One packet per (source, expert) pair instead of one per token group. */
    public boolean perPair() {
        return !ina() || "pair".equals(params.granularity());
    }
}
