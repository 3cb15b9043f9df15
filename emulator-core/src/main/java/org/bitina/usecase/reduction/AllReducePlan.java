package org.bitina.usecase.reduction;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.RecoverySettings;
import org.bitina.protocol.Dcqcn;
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
 *                     root and back, without queueing ({@link AllReduceWorker#policy}); 0: no path model (the baselines, the real
 *                     clock), and a worker waits {@code 4 * timeoutNanos} for a result before it sends again
 * @param congestion   the endpoints' DCQCN settings when they react to ECN marks ({@code congestion = dcqcn}), else
 *                     null: INA's workers run AIMD on their window, a host baseline's members pace each peer at
 *                     DCQCN's rate
 * @param lineBps      per member, its host link's rate: where a DCQCN rate starts (empty without congestion control)
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
        long rttNanos,
        RecoverySettings recovery,
        Dcqcn.Settings congestion,
        Map<String, Long> lineBps)
        implements JobPlan {
    public AllReducePlan {
        lineBps = lineBps == null ? Map.of() : Map.copyOf(lineBps);
    }

    /** Whether the endpoints react to ECN marks. */
    public boolean congestionControl() {
        return congestion != null;
    }

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
                .space(space)
                .members(members)
                .data(data)
                .uplink(uplink)
                .psHost(psHost)
                .timeoutNanos(timeoutNanos)
                .stragglers(stragglers)
                .silent(silent)
                .seed(seed)
                .values(values)
                .wire(wire)
                .rttNanos(rttNanos)
                .recovery(recovery)
                .congestion(congestion, lineBps);
    }

    /** The plan of the endpoints of one partition (H2): their tree's wire job and bit space. */
    public AllReducePlan onPartition(int partitionJob, BitSpace partitionSpace) {
        return toBuilder().wireJob(partitionJob).wire(partitionSpace).build();
    }

    /** The plan with {@code more} members silent as well (an elastic job's members that fail during an iteration). */
    public AllReducePlan silencing(Set<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        Set<String> all = new LinkedHashSet<>(silent);
        all.addAll(more);
        return toBuilder().silent(Set.copyOf(all)).build();
    }

    /** This plan with the modelled round trip its workers time their retransmissions by ({@link AllReduceWorker#policy}). */
    public AllReducePlan withRtt(long rtt) {
        return toBuilder().rttNanos(rtt).build();
    }

    /**
     * Builds an {@link AllReducePlan}. Job name, mode, bit space, members and data are required; the
     * rest defaults to a plan without uplinks, parameter server, stragglers, silent members or S6
     * ({@link ValueSecurity#OFF}), whose packets use the job's own bit space ({@code wire} = {@code
     * space}) and without a path model ({@code rttNanos} = 0).
     */
    public static final class Builder {
        private String jobName;
        private Mode mode;
        private int tenant;
        private int wireJob;
        private BitSpace space;
        private List<String> members;
        private DataSpec data;
        private Map<String, String> uplink = Map.of();
        private String psHost;
        private long timeoutNanos;
        private Map<String, Straggler> stragglers = Map.of();
        private Set<String> silent = Set.of();
        private long seed;
        private ValueSecurity values = ValueSecurity.OFF;
        private BitSpace wire;
        private long rttNanos;
        private RecoverySettings recovery = RecoverySettings.NONE;
        private Dcqcn.Settings congestion;
        private Map<String, Long> lineBps = Map.of();

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

        public Builder space(BitSpace v) {
            space = v;
            return this;
        }

        public Builder members(List<String> v) {
            members = v;
            return this;
        }

        public Builder data(DataSpec v) {
            data = v;
            return this;
        }

        public Builder uplink(Map<String, String> v) {
            uplink = v;
            return this;
        }

        public Builder psHost(String v) {
            psHost = v;
            return this;
        }

        public Builder timeoutNanos(long v) {
            timeoutNanos = v;
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

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder values(ValueSecurity v) {
            values = v;
            return this;
        }

        /** The bit space of the packets, when it is not the job's ({@code space}): a partition's (H2). */
        public Builder wire(BitSpace v) {
            wire = v;
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

        /** DCQCN's settings when the endpoints react to ECN marks ({@code congestion = dcqcn}), the members' line rates. */
        public Builder congestion(Dcqcn.Settings v, Map<String, Long> rates) {
            congestion = v;
            lineBps = rates;
            return this;
        }

        public AllReducePlan build() {
            require(jobName, "jobName");
            require(mode, "mode");
            require(space, "space");
            require(members, "members");
            require(data, "data");
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
                    wire == null ? space : wire,
                    rttNanos,
                    recovery,
                    congestion,
                    lineBps);
        }

        private static void require(Object v, String field) {
            if (v == null) {
                throw new IllegalStateException("an AllReducePlan needs its " + field);
            }
        }
    }

    /** The longest delay a straggler of this phase adds. */
    public long maxStraggleNanos() {
        return Straggler.longest(stragglers.values());
    }
}
