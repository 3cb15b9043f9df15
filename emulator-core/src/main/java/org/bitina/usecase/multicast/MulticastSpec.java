package org.bitina.usecase.multicast;

import org.bitina.job.JobCommon;
import org.bitina.job.JobSpec;

/** Reliable multicast (seed 000 section 5): members are the receivers. */
public record MulticastSpec(JobCommon common, String source, Params params) implements JobSpec {

    /**
     * @param perWindow  one ACK per window (true) or per packet
     * @param ackTree    preconfigured (A-BMs of an automatic VAT rooted at the source),
     *                   self-installed (C-BMs installed by the data), or composed (the
     *                   first round preconfigured, retransmissions self-installed)
     */
    public record Params(
            long bytes, int packetBytes, int window, long seed, boolean perWindow, String ackTree, int maxRounds) {
        public int packets() {
            return (int) ((bytes + packetBytes - 1) / packetBytes);
        }

        public int windows() {
            return (packets() + window - 1) / window;
        }
    }
}
