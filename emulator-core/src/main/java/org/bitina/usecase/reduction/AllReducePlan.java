package org.bitina.usecase.reduction;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.Straggler;

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
 * @param values       S6: masking and checksum (off for the jobs that reuse this plan: BIER-INC's baselines)
 * @param wire         the bit space of the packets the endpoints send and receive: the job's ({@code space}), or in a
 *                     job over partitions (H2) the endpoint's partition's, whose tree is {@code wireJob}; data,
 *                     results and their provenance stay in the job's space
 * @param rttNanos     INA under the virtual clock: the modelled round trip of a chunk from the farthest member to the
 *                     root and back, without queueing ({@link Retransmission}); 0: no path model (the baselines, the real
 *                     clock), and a worker waits {@code 4 * timeoutNanos} for a result before it sends again
 */
public record AllReducePlan(
        String jobName,
        Mode mode,
        int tenant,
        int wireJob,
        BitSpace space,
        List<String> members,
        DataSpec data,
        Map<String, String> uplink,
        String psHost,
        long timeoutNanos,
        Map<String, Straggler> stragglers,
        Set<String> silent,
        long seed,
        ValueSecurity values,
        BitSpace wire,
        long rttNanos)
        implements JobPlan {
    public AllReducePlan(
            String jobName,
            Mode mode,
            int tenant,
            int wireJob,
            BitSpace space,
            List<String> members,
            DataSpec data,
            Map<String, String> uplink,
            String psHost,
            long timeoutNanos,
            Map<String, Straggler> stragglers,
            Set<String> silent,
            long seed,
            ValueSecurity values,
            BitSpace wire) {
        this(
                jobName,
                mode,
                tenant,
                wireJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                silent,
                seed,
                values,
                wire,
                0);
    }

    public AllReducePlan(
            String jobName,
            Mode mode,
            int tenant,
            int wireJob,
            BitSpace space,
            List<String> members,
            DataSpec data,
            Map<String, String> uplink,
            String psHost,
            long timeoutNanos,
            Map<String, Straggler> stragglers,
            Set<String> silent,
            long seed,
            ValueSecurity values) {
        this(
                jobName,
                mode,
                tenant,
                wireJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                silent,
                seed,
                values,
                space);
    }

    /** The plan of the endpoints of one partition (H2): their tree's wire job and bit space. */
    public AllReducePlan onPartition(int partitionJob, BitSpace partitionSpace) {
        return new AllReducePlan(
                jobName,
                mode,
                tenant,
                partitionJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                silent,
                seed,
                values,
                partitionSpace,
                rttNanos);
    }

    public AllReducePlan(
            String jobName,
            Mode mode,
            int tenant,
            int wireJob,
            BitSpace space,
            List<String> members,
            DataSpec data,
            Map<String, String> uplink,
            String psHost,
            long timeoutNanos,
            Map<String, Straggler> stragglers,
            Set<String> silent,
            long seed) {
        this(
                jobName,
                mode,
                tenant,
                wireJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                silent,
                seed,
                ValueSecurity.OFF);
    }

    /** The plan with {@code more} members silent as well (an elastic job's members that fail during an iteration). */
    public AllReducePlan silencing(Set<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        Set<String> all = new LinkedHashSet<>(silent);
        all.addAll(more);
        return new AllReducePlan(
                jobName,
                mode,
                tenant,
                wireJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                Set.copyOf(all),
                seed,
                values,
                wire,
                rttNanos);
    }

    /** This plan with the modelled round trip its workers time their retransmissions by ({@link Retransmission}). */
    public AllReducePlan withRtt(long rtt) {
        return new AllReducePlan(
                jobName,
                mode,
                tenant,
                wireJob,
                space,
                members,
                data,
                uplink,
                psHost,
                timeoutNanos,
                stragglers,
                silent,
                seed,
                values,
                wire,
                rtt);
    }

    /** The longest delay a straggler of this phase adds. */
    public long maxStraggleNanos() {
        return Straggler.longest(stragglers.values());
    }
}
