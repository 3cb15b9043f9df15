package org.bitina.usecase.moe;

import java.util.List;
import org.bitina.job.JobCommon;
import org.bitina.job.JobSpec;

/**
 * MoE dispatch and combine (seed 000 section 4): the bit space is the experts; members are
 * the expert hosts.
 */
public record MoeSpec(JobCommon common, List<String> sources, List<Expert> experts, Params params) implements JobSpec {

    /** One expert, with its own bit, placed on a host. */
    public record Expert(String name, String host) {}

    /** A token group whose expert choice the scenario fixes (e.g. Fig. 2's e2, e3, e6, e7). */
    public record PinnedRoute(List<Integer> tokens, List<String> experts) {}

    /**
     * @param granularity {@code group}: tokens choosing the same experts share a packet (M4);
     *                    {@code pair}: one packet per (source, expert) pair
     * @param routing     which experts a token chooses (a pinned route overrides it)
     */
    public record Params(
            int topK,
            int hidden,
            int tokensPerSource,
            double capacityFactor,
            long seed,
            String granularity,
            List<PinnedRoute> pinned,
            int window,
            ExpertRouting routing) {}
}
