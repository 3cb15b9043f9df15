package org.bitina.topology;

import java.util.List;

/** A job of a scenario; one record per kind. */
public sealed interface JobSpec permits JobSpec.AllReduce, JobSpec.Moe, JobSpec.Multicast {
    JobCommon common();

    default String name() {
        return common().name();
    }

    /** AllReduce (seed 000 section 3): members are the workers. */
    record AllReduce(JobCommon common, TreeSpec tree, DataSpec data) implements JobSpec {
    }

    /**
     * MoE dispatch and combine (seed 000 section 4): the bit space is the experts; members are
     * the expert hosts.
     */
    record Moe(JobCommon common, List<String> sources, List<Expert> experts, MoeParams params) implements JobSpec {
    }

    /**
     * Reliable multicast (seed 000 section 5): members are the receivers.
     *
     * @param perWindow  one ACK per window (true) or per packet
     * @param ackTree    preconfigured (A-BMs of an automatic VAT rooted at the source),
     *                   self-installed (C-BMs installed by the data), or composed (the
     *                   first round preconfigured, retransmissions self-installed)
     */
    record Multicast(JobCommon common, String source, MulticastParams params) implements JobSpec {
    }

    record MulticastParams(long bytes, int packetBytes, int window, long seed, boolean perWindow, String ackTree, int maxRounds) {
        public int packets() {
            return (int) ((bytes + packetBytes - 1) / packetBytes);
        }

        public int windows() {
            return (packets() + window - 1) / window;
        }
    }

    /** One expert, with its own bit, placed on a host. */
    record Expert(String name, String host) {
    }

    /** A token group whose expert choice the scenario fixes (e.g. Fig. 2's e2, e3, e6, e7). */
    record PinnedRoute(List<Integer> tokens, List<String> experts) {
    }

    /**
     * @param granularity {@code group}: tokens choosing the same experts share a packet (M4);
     *                    {@code pair}: one packet per (source, expert) pair
     */
    record MoeParams(int topK, int hidden, int tokensPerSource, double capacityFactor, long seed,
                     String granularity, List<PinnedRoute> pinned, int window) {
    }
}
