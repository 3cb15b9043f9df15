package org.bitina.job;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.topology.BitSpace;
import org.bitina.topology.DataSpec;

/**
 * One phase of an AllReduce job as the endpoints see it: INA over the VAT, or a baseline
 * (ring, parameter server) over the same topology.
 *
 * @param wireJob      job id in packet headers: distinct per phase, so that switches hold
 *                     state only for the INA phase and forward the baselines
 * @param uplink       where each member sends its contributions (its VAT parent, or the PS)
 * @param psHost       the parameter server's host (mode ps), else null
 * @param stragglers   per member: wall delay, jitter, and the chunks delayed (empty = all)
 * @param silent       members that send nothing
 */
public record AllReducePlan(String jobName, String mode, int tenant, int wireJob, BitSpace space, List<String> members,
                            DataSpec data, Map<String, String> uplink, String psHost, long timeoutNanos,
                            Map<String, Straggler> stragglers, Set<String> silent, long seed) {

    public record Straggler(long delayNanos, long jitterNanos, Set<Long> chunks) {
        public boolean delays(long chunk) {
            return chunks.isEmpty() || chunks.contains(chunk);
        }

        /** The fixed delay plus a seeded draw of the jitter. */
        public long draw(java.util.SplittableRandom random) {
            return delayNanos + (jitterNanos > 0 ? random.nextLong(jitterNanos + 1) : 0);
        }
    }
}
