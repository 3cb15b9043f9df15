package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.protocol.TimeCurve;
import org.bitina.security.ChecksumAudit;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;

/**
 * The run report (docs/reference.md: {@code jobs[]}, {@code links[]}, {@code switches[]}), written as JSON by the CLI,
 * with the clock that ran it ({@code virtual} or {@code real}). One {@code jobs[]} entry per job and mode, side by side.
 */
public record Report(
        String scenario,
        String clock,
        List<String> tolerances,
        List<JobReport> jobs,
        List<LinkReport> links,
        List<SwitchReport> switches,
        List<HostReport> hosts,
        Map<String, String> placement,
        Setup setup,
        List<ObservedTree> observedTrees,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<InstalledTree> installedTrees,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<IterationReport> iterations,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RankTimeline> rankTimelines,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TrafficReport> traffic,
        // a Chakra workload's trace nodes that ran nothing on the fabric, counted by kind
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> skippedTraceNodes) {

    public Report {
        traffic = traffic == null ? List.of() : List.copyOf(traffic);
        installedTrees = installedTrees == null ? List.of() : List.copyOf(installedTrees);
        skippedTraceNodes = skippedTraceNodes == null ? Map.of() : Map.copyOf(skippedTraceNodes);
    }

    /**
     * One branch of a tree the packets built (C-BMs of MoE and reliable multicast, M2/R2; INC trees
     * of BIER-INC, B2), observed at the switch that installed it, as a union over its phase: every
     * install there whose aggregate went to {@code upstream}, and every bit they held downstream.
     * Trees of A-BMs are configured and are not here.
     *
     * @param iteration the elastic iteration (1, 2, ...), absent for a job that runs once
     * @param mechanism {@code C-BM} or {@code INC}
     * @param upstream  where the branch's aggregate went: the node upstream (the node itself at the tree's top)
     * @param installs  how many installs of the phase it had (one per token group, window or BFIR tree)
     * @param bits      the union of their downstream bits, as the seeds print bitmaps ({@code [01100110]})
     */
    public record ObservedTree(
            String job,
            Mode mode,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer iteration,
            String node,
            String mechanism,
            String upstream,
            long installs,
            String bits) {}

    /**
     * What setting the run up cost on the coordinator, in wall-clock time (so, like
     * {@code wallMillis}, outside the determinism contract).
     *
     * @param routingMillis  the routing: the searches toward every host's switch, on every core
     * @param planningMillis every phase's plan: trees, BIFTs, tables, drivers
     * @param heapBytes      the JVM's heap in use once both were done (no collection forced)
     */
    public record Setup(long routingMillis, long planningMillis, long heapBytes) {}

    /**
     * One job and mode of the run, composed of small parts that the JSON keeps flat
     * ({@code @JsonUnwrapped}: every part's fields are the row's own keys, as docs/reference.md lists
     * them) beside the kind's own part ({@code kindReport}). Built part by part through {@link #builder} or
     * {@link #toBuilder}; a figure is read from its part ({@code row.outcome().status()},
     * {@code row.timing().modeledMicros()}), so a part is one place, not a copy kept in step.
     *
     * @param outcome    how the phase ended against what the scenario expects
     * @param problems   what went wrong, each named
     * @param timing     how long it took, and its time views
     * @param traffic    what crossed the links and came into the root and hosts
     * @param counts     what the switches' timers and the endpoints' rounds did
     * @param plan       what the plan gave the phase: root, units, endpoints, iteration, trees, admission
     * @param security   S6 for an AllReduce job that masks or checksums its values, else absent
     * @param stats      counters particular to the kind's endpoints (rounds, ACK packets, duplicates suppressed)
     * @param speedup    on an INA row, per baseline of the same job that completed: its modelled time over this
     *                   row's (above 1: INA is faster); absent on other rows
     * @param recovery   loss recovery (L1)
     * @param kindReport what the job's kind reports of its own ({@link KindReport}: MoE's source uplink, reliable
     *                   multicast's ACKs into the source, BIER-INC's tree entries), absent when the kind has none
     * @param packetBound the phase's packet bound ({@link PacketBound}), absent for a phase that did not run
     * @param pool       the switches' pools of aggregation entries it used ({@link PoolReport}, T2), absent from a
     *                   strict job's rows of a sequential file and where no switch has a pool
     * @param shared     under {@code schedule = shared} only: world, alone, start, end, JCT and slowdown
     * @param bandwidth  nccl-tests' terms: data bytes per rank, algbw, bus factor, busbw
     */
    public record JobReport(
            String name,
            String kind,
            Mode mode,
            @JsonUnwrapped Outcome outcome,
            @JsonUnwrapped Problems problems,
            @JsonUnwrapped Timing timing,
            @JsonUnwrapped Traffic traffic,
            @JsonUnwrapped Counts counts,
            @JsonUnwrapped Plan plan,
            @JsonInclude(JsonInclude.Include.NON_NULL) ValueSecurity security,
            Map<String, Long> stats,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<Mode, Double> speedup,
            @JsonUnwrapped Recovery recovery,
            @JsonInclude(JsonInclude.Include.NON_NULL) KindReport kindReport,
            @JsonInclude(JsonInclude.Include.NON_NULL) PacketBound packetBound,
            // under schedule = shared, or for a best-effort job: the switches' pools of entries it used (T2)
            @JsonInclude(JsonInclude.Include.NON_NULL) PoolReport pool,
            // schedule = shared only: world, alone, start, end, JCT and slowdown, flat in the row
            @JsonUnwrapped SharedRun shared,
            @JsonUnwrapped BandwidthReport bandwidth) {

        public JobReport {
            // an unwrapped part absent from the JSON reads back as an empty one: a row of no shared run again
            if (shared != null && shared.world() == null) {
                shared = null;
            }
        }

        /**
         * @param expected   what the fault plan makes the scenario expect (complete, partial, failed)
         * @param asExpected status and missing endpoints are what was expected, and the run verified
         * @param note       the phase's plan and what happened to it (a stall, faults not applied)
         * @param ended      why the phase ended before its endpoints did, or did not run; absent when they finished
         */
        public record Outcome(
                Status status,
                boolean verified,
                List<String> missing,
                String expected,
                boolean asExpected,
                String note,
                @JsonInclude(JsonInclude.Include.NON_NULL) Ending ended) {}

        /**
         * @param partialChunks    chunks whose final result lacks contributions, with the missing endpoints
         * @param mismatches       results that failed verification
         * @param unfinished       endpoints that did not finish before the phase deadline
         * @param dropped          what endpoints dropped by policy, each named
         * @param faultsNotApplied network faults planned for later than the phase lasted: they never happened
         * @param deviceFailures   messages a device could not handle (it went on): a fault of the emulator, never of
         *                         the scenario, so a row that has any is not as expected; absent when none
         */
        public record Problems(
                List<PartialChunk> partialChunks,
                List<String> mismatches,
                List<String> unfinished,
                List<String> dropped,
                List<String> faultsNotApplied,
                @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> deviceFailures) {
            public static final Problems NONE =
                    new Problems(List.of(), List.of(), List.of(), List.of(), List.of(), null);

            public Problems {
                deviceFailures = deviceFailures == null ? List.of() : List.copyOf(deviceFailures);
            }
        }

        /**
         * @param completion   when the phase's units completed, in modelled time (absent when nothing ran)
         * @param stateEntries the switches' aggregation entries over the phase's modelled time (absent when none held
         *                     any)
         * @param faults       the faults of the scenario as they came to this phase, on its modelled time axis
         * @param window       INA or a parameter server under congestion control (AIMD): the workers' windows in chunks
         *                     over modelled time,
         *                     the least and the most of any worker per interval; absent without
         * @param rate         a host baseline under DCQCN: the rates its members' queue pairs sent at over modelled time,
         *                     bits per second, the least and the most per interval; absent without
         */
        public record Timing(
                long wallMillis,
                double modeledMicros,
                Completion completion,
                @JsonInclude(JsonInclude.Include.NON_NULL) StateEntries stateEntries,
                List<FaultMark> faults,
                @JsonInclude(JsonInclude.Include.NON_NULL) TimeCurve.Range window,
                @JsonInclude(JsonInclude.Include.NON_NULL) TimeCurve.Range rate) {
            public static final Timing NONE = new Timing(0, 0, null, null, List.of(), null, null);
        }

        /**
         * @param packetsIntoRoot    frames the mode's own root received (a switch for INA; the source, the parameter
         *                           server; the busiest member without one root), counted as they arrive at its port
         * @param maxPacketsIntoHost the most frames any one host of the phase received (a member, the parameter server,
         *                           a source or expert), acknowledgements included: the same measure in every mode
         * @param busiestHost        the host that received them (of several, the first by name); absent when no host
         *                           of the phase received any
         * @param sourceUplinkBytes  bytes on the links of the phase's sources (MoE's uplinks), 0 for a kind without
         * @param drops              frames dropped by the devices or lost on the links
         */
        public record Traffic(
                long packetsIntoRoot,
                long maxPacketsIntoHost,
                long maxLinkBytes,
                long totalLinkBytes,
                long headerBytes,
                long packets,
                long drops,
                long sourceUplinkBytes,
                @JsonInclude(JsonInclude.Include.NON_NULL) String busiestHost) {
            public static final Traffic NONE = new Traffic(0, 0, 0, 0, 0, 0, 0, 0, null);
        }

        /**
         * @param timeouts             completion timers that fired (partial aggregates, F5)
         * @param lateContributions    contributions that arrived after their aggregate left
         * @param retransmissionRounds the most repair rounds any unit needed (reliable multicast, R3)
         */
        public record Counts(long timeouts, long lateContributions, int retransmissionRounds) {
            public static final Counts NONE = new Counts(0, 0, 0);
        }

        /**
         * @param trees over partitions (H2): the second stage, then each partition (absent for one tree)
         */
        public record Plan(
                String root,
                int chunks,
                int endpoints,
                Phase.Iteration iteration,
                @JsonInclude(JsonInclude.Include.NON_NULL) List<TreeReport> trees,
                Admission admission) {
            public static final Plan NONE = new Plan(null, 0, 0, null, null, null);
        }

        /** This row with its speedups over the baselines (an INA row). */
        public JobReport withSpeedup(Map<Mode, Double> s) {
            return toBuilder().speedup(s).build();
        }

        /** A builder holding every part of this row. */
        public Builder toBuilder() {
            return new Builder(name, kind, mode)
                    .outcome(outcome)
                    .problems(problems)
                    .timing(timing)
                    .traffic(traffic)
                    .counts(counts)
                    .plan(plan)
                    .security(security)
                    .stats(stats)
                    .speedup(speedup)
                    .recovery(recovery)
                    .kindReport(kindReport)
                    .packetBound(packetBound)
                    .pool(pool)
                    .shared(shared)
                    .bandwidth(bandwidth);
        }

        /** A row built part by part: its outcome is required; a part not set is empty (its {@code NONE}) or absent. */
        public static Builder builder(String name, String kind, Mode mode) {
            return new Builder(name, kind, mode);
        }

        /** The parts by name, so that no caller counts the row's eighteen components. */
        public static final class Builder {
            private final String name;
            private final String kind;
            private final Mode mode;
            private Outcome outcome;
            private Problems problems = Problems.NONE;
            private Timing timing = Timing.NONE;
            private Traffic traffic = Traffic.NONE;
            private Counts counts = Counts.NONE;
            private Plan plan = Plan.NONE;
            private ValueSecurity security;
            private Map<String, Long> stats = Map.of();
            private Map<Mode, Double> speedup;
            private Recovery recovery = Recovery.NONE;
            private KindReport kindReport;
            private PacketBound packetBound;
            private PoolReport pool;
            private SharedRun shared;
            private BandwidthReport bandwidth = BandwidthReport.NONE;

            private Builder(String name, String kind, Mode mode) {
                this.name = name;
                this.kind = kind;
                this.mode = mode;
            }

            public Builder outcome(Outcome o) {
                outcome = o;
                return this;
            }

            public Builder problems(Problems p) {
                problems = p;
                return this;
            }

            public Builder timing(Timing t) {
                timing = t;
                return this;
            }

            public Builder traffic(Traffic t) {
                traffic = t;
                return this;
            }

            public Builder counts(Counts c) {
                counts = c;
                return this;
            }

            public Builder plan(Plan p) {
                plan = p;
                return this;
            }

            public Builder security(ValueSecurity s) {
                security = s;
                return this;
            }

            public Builder stats(Map<String, Long> s) {
                stats = s;
                return this;
            }

            public Builder speedup(Map<Mode, Double> s) {
                speedup = s;
                return this;
            }

            public Builder recovery(Recovery r) {
                recovery = r;
                return this;
            }

            public Builder kindReport(KindReport k) {
                kindReport = k;
                return this;
            }

            public Builder packetBound(PacketBound b) {
                packetBound = b;
                return this;
            }

            public Builder pool(PoolReport p) {
                pool = p;
                return this;
            }

            public Builder shared(SharedRun s) {
                shared = s;
                return this;
            }

            public Builder bandwidth(BandwidthReport b) {
                bandwidth = b;
                return this;
            }

            public JobReport build() {
                return new JobReport(
                        name,
                        kind,
                        mode,
                        Objects.requireNonNull(outcome, "a row's outcome"),
                        problems,
                        timing,
                        traffic,
                        counts,
                        plan,
                        security,
                        stats,
                        speedup,
                        recovery,
                        kindReport,
                        packetBound,
                        pool,
                        shared,
                        bandwidth);
            }
        }
    }

    /**
     * Loss recovery in one phase (L1), as top-level fields of its row.
     *
     * @param retransmissions contributions (or dispatches, reductions) the endpoints sent again because an answer was
     *                        overdue
     * @param resultResends   results a switch or an owner sent again from what it kept, to an endpoint that asked
     * @param recoveryMicros  modelled time lost to recovery: the longest any endpoint spent with a retransmission
     *                        still unanswered
     * @param gaveUp          endpoints that gave up on a result they never got, each naming itself and its chunk
     * @param rtoMicros       the recovery policy's first retransmission timeout (the longest of the phase's
     *                        endpoints'; it doubles at each send), 0 when no endpoint of the phase retransmits
     * @param maxSends        the policy's sends of one packet before its sender gives up (the most of any endpoint)
     */
    public record Recovery(
            long retransmissions,
            long resultResends,
            double recoveryMicros,
            List<String> gaveUp,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) double rtoMicros,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) int maxSends) {
        public static final Recovery NONE = new Recovery(0, 0, 0, List.of());

        public Recovery(long retransmissions, long resultResends, double recoveryMicros, List<String> gaveUp) {
            this(retransmissions, resultResends, recoveryMicros, gaveUp, 0, 0);
        }
    }

    /**
     * The distribution of the units' completion times (a unit completes when the last awaited
     * endpoint has its first result of it), from an HdrHistogram at 3 significant digits; min
     * and max exact.
     *
     * @param unit      chunk, token or window
     * @param completed units every awaited endpoint got (the others are not in the distribution)
     * @param cdf       points {micros, fraction of the completed units done by then}, ascending
     */
    public record Completion(
            String unit,
            int units,
            int completed,
            double minMicros,
            double p50Micros,
            double p90Micros,
            double p99Micros,
            double maxMicros,
            List<double[]> cdf) {}

    /**
     * Soft state over modelled time: per bucket of {@code bucketMicros} from the phase's start, the
     * most aggregation entries (A-BM, C-BM or INC reductions) live at once over all switches.
     *
     * @param peaks each switch's most entries at once in this phase (switches that held none left out)
     */
    public record StateEntries(double bucketMicros, List<Integer> total, Map<String, Integer> peaks) {}

    /** A fault on the phase's time axis: its modelled time, kind, and what it hit. */
    public record FaultMark(double atMicros, String kind, String what) {}

    /**
     * One tree of a phase over partitions (H2): the second stage first, then each partition.
     *
     * @param tree            {@code second-stage} or the partition's name
     * @param bits            the tree's bit space: one bit per partition in the second stage, per member in a partition
     * @param members         the partition's members (the second stage: the partition roots)
     * @param packetsIntoRoot frames of this tree's wire job its root received
     * @param timeouts        this tree's completion timers that fired (partial aggregates)
     * @param bridged         at the partition roots: aggregates sent up to the second stage (a partition), results
     *                        sent down into the partitions (the second stage)
     * @param missing         the members of the tree (a partition's) some result left out
     */
    public record TreeReport(
            String tree,
            int wireJob,
            String root,
            int bits,
            List<String> members,
            long packetsIntoRoot,
            long timeouts,
            long bridged,
            List<String> missing) {}

    /**
     * Admission control's decision for a job's INA mode (S5), on its INA row or on the baseline
     * row that ran in its place ({@code fallbackFor}: {@link Mode#INA}).
     *
     * @param entries the aggregation entries the job declared (and, admitted, reserved) per switch
     * @param refused aggregations the switches did not open because the job held its reservation
     *                (passed on unaggregated): more than its declaration asked for
     */
    public record Admission(boolean admitted, int entries, String reason, Mode fallbackFor, long refused) {
        static Admission of(org.bitina.security.Admission a, Mode mode, long refused) {
            if (a == null) {
                return null;
            }
            return new Admission(
                    a.admitted(), a.entries(), a.reason(), a.admitted() || mode.inNetwork() ? null : Mode.INA, refused);
        }
    }

    /**
     * S6 of one job and mode: what the workers' checksums found and the ring redid, and who the
     * controller's audit names.
     *
     * @param failedChunks chunks whose network result failed its checksum at some worker
     * @param fellBack     chunks the fallback host ring reduced again, checked out at every worker that needed it
     * @param suspects     the senders of the first failing packets of the audit ({@link ChecksumAudit})
     */
    public record ValueSecurity(
            String masking, String checksum, int failedChunks, int fellBack, List<String> suspects) {}

    public record PartialChunk(String endpoint, long seq, List<String> missing) {}

    public boolean allAsExpected() {
        return jobs.stream().allMatch(j -> j.outcome().asExpected());
    }
}
