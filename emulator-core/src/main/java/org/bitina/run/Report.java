package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.security.ChecksumAudit;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;

/**
 * The run report (docs/reference.md: {@code jobs[]}, {@code links[]}, {@code switches[]}),
 * written as JSON by the CLI, with the clock that ran it ({@code virtual} or {@code real}). One {@code jobs[]} entry per job and mode: INA and each
 * baseline side by side.
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
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<IterationReport> iterations,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RankTimeline> rankTimelines,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TrafficReport> traffic,
        // a Chakra workload's trace nodes that ran nothing on the fabric, counted by kind
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> skippedTraceNodes) {

    public Report {
        traffic = traffic == null ? List.of() : List.copyOf(traffic);
        skippedTraceNodes = skippedTraceNodes == null ? Map.of() : Map.copyOf(skippedTraceNodes);
    }

    /** A report without skipped trace nodes. */
    public Report(
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
            List<IterationReport> iterations,
            List<RankTimeline> rankTimelines,
            List<TrafficReport> traffic) {
        this(
                scenario,
                clock,
                tolerances,
                jobs,
                links,
                switches,
                hosts,
                placement,
                setup,
                observedTrees,
                iterations,
                rankTimelines,
                traffic,
                Map.of());
    }

    /** A report without background traffic. */
    public Report(
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
            List<IterationReport> iterations,
            List<RankTimeline> rankTimelines) {
        this(
                scenario,
                clock,
                tolerances,
                jobs,
                links,
                switches,
                hosts,
                placement,
                setup,
                observedTrees,
                iterations,
                rankTimelines,
                List.of());
    }

    /** A report without a workload (no iterations, no rank timelines). */
    public Report(
            String scenario,
            String clock,
            List<String> tolerances,
            List<JobReport> jobs,
            List<LinkReport> links,
            List<SwitchReport> switches,
            List<HostReport> hosts,
            Map<String, String> placement,
            Setup setup,
            List<ObservedTree> observedTrees) {
        this(
                scenario,
                clock,
                tolerances,
                jobs,
                links,
                switches,
                hosts,
                placement,
                setup,
                observedTrees,
                List.of(),
                List.of());
    }

    /** A report without observed trees. */
    public Report(
            String scenario,
            String clock,
            List<String> tolerances,
            List<JobReport> jobs,
            List<LinkReport> links,
            List<SwitchReport> switches,
            List<HostReport> hosts,
            Map<String, String> placement,
            Setup setup) {
        this(scenario, clock, tolerances, jobs, links, switches, hosts, placement, setup, List.of());
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

    /** A report without setup figures. */
    public Report(
            String scenario,
            String clock,
            List<String> tolerances,
            List<JobReport> jobs,
            List<LinkReport> links,
            List<SwitchReport> switches,
            List<HostReport> hosts,
            Map<String, String> placement) {
        this(scenario, clock, tolerances, jobs, links, switches, hosts, placement, null);
    }

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
     * them) beside the kind's own part ({@code kindReport}). Built by name through {@link #builder} or
     * {@link #toBuilder}; the row's accessors ({@link #status()}, {@link #modeledMicros()}, ...) read
     * through to the parts, so a reader asks for a figure without knowing which part holds it.
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
            @JsonUnwrapped SharedRun shared) {

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
            public Problems {
                deviceFailures = deviceFailures == null ? List.of() : List.copyOf(deviceFailures);
            }
        }

        /**
         * @param completion   when the phase's units completed, in modelled time (absent when nothing ran)
         * @param stateEntries the switches' aggregation entries over the phase's modelled time (absent when none held
         *                     any)
         * @param faults       the faults of the scenario as they came to this phase, on its modelled time axis
         */
        public record Timing(
                long wallMillis,
                double modeledMicros,
                Completion completion,
                @JsonInclude(JsonInclude.Include.NON_NULL) StateEntries stateEntries,
                List<FaultMark> faults) {}

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
                @JsonInclude(JsonInclude.Include.NON_NULL) String busiestHost) {}

        /**
         * @param timeouts             completion timers that fired (partial aggregates, F5)
         * @param lateContributions    contributions that arrived after their aggregate left
         * @param retransmissionRounds the most repair rounds any unit needed (reliable multicast, R3)
         */
        public record Counts(long timeouts, long lateContributions, int retransmissionRounds) {}

        /**
         * @param trees over partitions (H2): the second stage, then each partition (absent for one tree)
         */
        public record Plan(
                String root,
                int chunks,
                int endpoints,
                Phase.Iteration iteration,
                @JsonInclude(JsonInclude.Include.NON_NULL) List<TreeReport> trees,
                Admission admission) {}

        public Status status() {
            return outcome.status();
        }

        public boolean verified() {
            return outcome.verified();
        }

        public List<String> missing() {
            return outcome.missing();
        }

        public String expected() {
            return outcome.expected();
        }

        public boolean asExpected() {
            return outcome.asExpected();
        }

        public String note() {
            return outcome.note();
        }

        public Ending ended() {
            return outcome.ended();
        }

        public List<PartialChunk> partialChunks() {
            return problems.partialChunks();
        }

        public List<String> mismatches() {
            return problems.mismatches();
        }

        public List<String> unfinished() {
            return problems.unfinished();
        }

        public List<String> dropped() {
            return problems.dropped();
        }

        public List<String> faultsNotApplied() {
            return problems.faultsNotApplied();
        }

        public List<String> deviceFailures() {
            return problems.deviceFailures();
        }

        public long wallMillis() {
            return timing.wallMillis();
        }

        public double modeledMicros() {
            return timing.modeledMicros();
        }

        public Completion completion() {
            return timing.completion();
        }

        public StateEntries stateEntries() {
            return timing.stateEntries();
        }

        public List<FaultMark> faults() {
            return timing.faults();
        }

        public long packetsIntoRoot() {
            return traffic.packetsIntoRoot();
        }

        public long maxPacketsIntoHost() {
            return traffic.maxPacketsIntoHost();
        }

        public String busiestHost() {
            return traffic.busiestHost();
        }

        public long maxLinkBytes() {
            return traffic.maxLinkBytes();
        }

        public long totalLinkBytes() {
            return traffic.totalLinkBytes();
        }

        public long headerBytes() {
            return traffic.headerBytes();
        }

        public long packets() {
            return traffic.packets();
        }

        public long drops() {
            return traffic.drops();
        }

        public long sourceUplinkBytes() {
            return traffic.sourceUplinkBytes();
        }

        public long timeouts() {
            return counts.timeouts();
        }

        public long lateContributions() {
            return counts.lateContributions();
        }

        public int retransmissionRounds() {
            return counts.retransmissionRounds();
        }

        public String root() {
            return plan.root();
        }

        public int chunks() {
            return plan.chunks();
        }

        public int endpoints() {
            return plan.endpoints();
        }

        public Phase.Iteration iteration() {
            return plan.iteration();
        }

        public List<TreeReport> trees() {
            return plan.trees();
        }

        public Admission admission() {
            return plan.admission();
        }

        /** This row with its speedups over the baselines (an INA row). */
        public JobReport withSpeedup(Map<Mode, Double> s) {
            return toBuilder().speedup(s).build();
        }

        /** A builder holding every field of this row. */
        public Builder toBuilder() {
            return new Builder()
                    .name(name)
                    .kind(kind)
                    .mode(mode)
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
                    .shared(shared);
        }

        /** A report built by name, one part at a time: what is not set is zero, empty or absent. */
        public static Builder builder(String name, String kind, Mode mode) {
            return new Builder().name(name).kind(kind).mode(mode);
        }

        /** Every field by name, so that no caller counts positional arguments; {@link #build} composes the parts. */
        public static final class Builder {
            private String name = null;
            private String kind = null;
            private Mode mode = null;
            private Status status = null;
            private boolean verified = false;
            private List<String> missing = List.of();
            private long wallMillis = 0;
            private double modeledMicros = 0;
            private long packetsIntoRoot = 0;
            private long maxLinkBytes = 0;
            private long totalLinkBytes = 0;
            private long headerBytes = 0;
            private long timeouts = 0;
            private int retransmissionRounds = 0;
            private String expected = null;
            private boolean asExpected = false;
            private String root = null;
            private int chunks = 0;
            private int endpoints = 0;
            private List<PartialChunk> partialChunks = List.of();
            private List<String> mismatches = List.of();
            private List<String> unfinished = List.of();
            private long lateContributions = 0;
            private long drops = 0;
            private long packets = 0;
            private String note = null;
            private Ending ended = null;
            private List<String> deviceFailures = List.of();
            private long sourceUplinkBytes = 0;
            private List<String> dropped = List.of();
            private Map<String, Long> stats = Map.of();
            private List<String> faultsNotApplied = List.of();
            private Admission admission = null;
            private Phase.Iteration iteration = null;
            private ValueSecurity security = null;
            private List<TreeReport> trees; // absent for one tree
            private Completion completion = null;
            private StateEntries stateEntries = null;
            private List<FaultMark> faults = List.of();
            private long maxPacketsIntoHost = 0;
            private String busiestHost = null;
            private Map<Mode, Double> speedup = null;
            private Recovery recovery = Recovery.NONE;
            private KindReport kindReport = null;
            private PacketBound packetBound = null;
            private SharedRun shared = null;
            private PoolReport pool = null;

            private Builder() {}

            public Builder name(String name) {
                this.name = name;
                return this;
            }

            public Builder kind(String kind) {
                this.kind = kind;
                return this;
            }

            public Builder mode(Mode mode) {
                this.mode = mode;
                return this;
            }

            public Builder outcome(Outcome o) {
                status = o.status();
                verified = o.verified();
                missing = o.missing();
                expected = o.expected();
                asExpected = o.asExpected();
                note = o.note();
                ended = o.ended();
                return this;
            }

            public Builder problems(Problems p) {
                partialChunks = p.partialChunks();
                mismatches = p.mismatches();
                unfinished = p.unfinished();
                dropped = p.dropped();
                faultsNotApplied = p.faultsNotApplied();
                deviceFailures = p.deviceFailures();
                return this;
            }

            public Builder timing(Timing t) {
                wallMillis = t.wallMillis();
                modeledMicros = t.modeledMicros();
                completion = t.completion();
                stateEntries = t.stateEntries();
                faults = t.faults();
                return this;
            }

            public Builder traffic(Traffic t) {
                packetsIntoRoot = t.packetsIntoRoot();
                maxPacketsIntoHost = t.maxPacketsIntoHost();
                busiestHost = t.busiestHost();
                maxLinkBytes = t.maxLinkBytes();
                totalLinkBytes = t.totalLinkBytes();
                headerBytes = t.headerBytes();
                packets = t.packets();
                drops = t.drops();
                sourceUplinkBytes = t.sourceUplinkBytes();
                return this;
            }

            public Builder counts(Counts c) {
                timeouts = c.timeouts();
                lateContributions = c.lateContributions();
                retransmissionRounds = c.retransmissionRounds();
                return this;
            }

            public Builder plan(Plan p) {
                root = p.root();
                chunks = p.chunks();
                endpoints = p.endpoints();
                iteration = p.iteration();
                trees = p.trees();
                admission = p.admission();
                return this;
            }

            public Builder status(Status status) {
                this.status = status;
                return this;
            }

            public Builder verified(boolean verified) {
                this.verified = verified;
                return this;
            }

            public Builder missing(List<String> missing) {
                this.missing = missing;
                return this;
            }

            public Builder wallMillis(long wallMillis) {
                this.wallMillis = wallMillis;
                return this;
            }

            public Builder modeledMicros(double modeledMicros) {
                this.modeledMicros = modeledMicros;
                return this;
            }

            public Builder packetsIntoRoot(long packetsIntoRoot) {
                this.packetsIntoRoot = packetsIntoRoot;
                return this;
            }

            public Builder maxLinkBytes(long maxLinkBytes) {
                this.maxLinkBytes = maxLinkBytes;
                return this;
            }

            public Builder totalLinkBytes(long totalLinkBytes) {
                this.totalLinkBytes = totalLinkBytes;
                return this;
            }

            public Builder headerBytes(long headerBytes) {
                this.headerBytes = headerBytes;
                return this;
            }

            public Builder timeouts(long timeouts) {
                this.timeouts = timeouts;
                return this;
            }

            public Builder retransmissionRounds(int retransmissionRounds) {
                this.retransmissionRounds = retransmissionRounds;
                return this;
            }

            public Builder expected(String expected) {
                this.expected = expected;
                return this;
            }

            public Builder asExpected(boolean asExpected) {
                this.asExpected = asExpected;
                return this;
            }

            public Builder root(String root) {
                this.root = root;
                return this;
            }

            public Builder chunks(int chunks) {
                this.chunks = chunks;
                return this;
            }

            public Builder endpoints(int endpoints) {
                this.endpoints = endpoints;
                return this;
            }

            public Builder partialChunks(List<PartialChunk> partialChunks) {
                this.partialChunks = partialChunks;
                return this;
            }

            public Builder mismatches(List<String> mismatches) {
                this.mismatches = mismatches;
                return this;
            }

            public Builder unfinished(List<String> unfinished) {
                this.unfinished = unfinished;
                return this;
            }

            public Builder lateContributions(long lateContributions) {
                this.lateContributions = lateContributions;
                return this;
            }

            public Builder drops(long drops) {
                this.drops = drops;
                return this;
            }

            public Builder packets(long packets) {
                this.packets = packets;
                return this;
            }

            public Builder note(String note) {
                this.note = note;
                return this;
            }

            public Builder ended(Ending ended) {
                this.ended = ended;
                return this;
            }

            public Builder deviceFailures(List<String> deviceFailures) {
                this.deviceFailures = deviceFailures;
                return this;
            }

            public Builder sourceUplinkBytes(long sourceUplinkBytes) {
                this.sourceUplinkBytes = sourceUplinkBytes;
                return this;
            }

            public Builder dropped(List<String> dropped) {
                this.dropped = dropped;
                return this;
            }

            public Builder stats(Map<String, Long> stats) {
                this.stats = stats;
                return this;
            }

            public Builder faultsNotApplied(List<String> faultsNotApplied) {
                this.faultsNotApplied = faultsNotApplied;
                return this;
            }

            public Builder admission(Admission admission) {
                this.admission = admission;
                return this;
            }

            public Builder iteration(Phase.Iteration iteration) {
                this.iteration = iteration;
                return this;
            }

            public Builder security(ValueSecurity security) {
                this.security = security;
                return this;
            }

            public Builder trees(List<TreeReport> trees) {
                this.trees = trees;
                return this;
            }

            public Builder completion(Completion completion) {
                this.completion = completion;
                return this;
            }

            public Builder stateEntries(StateEntries stateEntries) {
                this.stateEntries = stateEntries;
                return this;
            }

            public Builder faults(List<FaultMark> faults) {
                this.faults = faults;
                return this;
            }

            public Builder maxPacketsIntoHost(long maxPacketsIntoHost) {
                this.maxPacketsIntoHost = maxPacketsIntoHost;
                return this;
            }

            public Builder busiestHost(String busiestHost) {
                this.busiestHost = busiestHost;
                return this;
            }

            public Builder speedup(Map<Mode, Double> speedup) {
                this.speedup = speedup;
                return this;
            }

            public Builder recovery(Recovery recovery) {
                this.recovery = recovery;
                return this;
            }

            public Builder kindReport(KindReport kindReport) {
                this.kindReport = kindReport;
                return this;
            }

            public Builder packetBound(PacketBound packetBound) {
                this.packetBound = packetBound;
                return this;
            }

            public Builder shared(SharedRun shared) {
                this.shared = shared;
                return this;
            }

            public Builder pool(PoolReport pool) {
                this.pool = pool;
                return this;
            }

            public JobReport build() {
                return new JobReport(
                        name,
                        kind,
                        mode,
                        new Outcome(status, verified, missing, expected, asExpected, note, ended),
                        new Problems(partialChunks, mismatches, unfinished, dropped, faultsNotApplied, deviceFailures),
                        new Timing(wallMillis, modeledMicros, completion, stateEntries, faults),
                        new Traffic(
                                packetsIntoRoot,
                                maxPacketsIntoHost,
                                maxLinkBytes,
                                totalLinkBytes,
                                headerBytes,
                                packets,
                                drops,
                                sourceUplinkBytes,
                                busiestHost),
                        new Counts(timeouts, lateContributions, retransmissionRounds),
                        new Plan(root, chunks, endpoints, iteration, trees, admission),
                        security,
                        stats,
                        speedup,
                        recovery,
                        kindReport,
                        packetBound,
                        pool,
                        shared);
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

    /**
     * One link direction in one phase.
     *
     * @param job           the job whose phase it is, or {@code shared}: a world's mix (T1)
     * @param mode          the job's mode, or the shared world ({@link LinkScope})
     * @param lost          packets lost on it for any reason (down, MTU, random loss, queue full)
     * @param maxQueueBytes the most bytes that waited behind the packet on the wire at once (T3)
     * @param queueDrops    packets dropped because its egress buffer was full (a part of {@code lost})
     * @param queue         its queue's depth over modelled time, on the busiest finite-buffer ports of the phase
     *                      ({@link LinkQueue}); absent elsewhere
     * @param ecnMarks      packets ECN-marked as they joined its queue, where {@code ecn-threshold} is set (T3)
     */
    public record LinkReport(
            String job,
            LinkScope mode,
            String from,
            String to,
            long packets,
            long bytes,
            long headerBytes,
            long lost,
            long maxQueueBytes,
            long queueDrops,
            @JsonInclude(JsonInclude.Include.NON_NULL) LinkQueue queue,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long ecnMarks) {
        public LinkReport(
                String job,
                LinkScope mode,
                String from,
                String to,
                long packets,
                long bytes,
                long headerBytes,
                long lost,
                long maxQueueBytes,
                long queueDrops) {
            this(job, mode, from, to, packets, bytes, headerBytes, lost, maxQueueBytes, queueDrops, null, null);
        }

        /** A row read back (a report that crossed a JVM): its mode a world's or a job's, as {@link LinkScope#of} tells. */
        @JsonCreator
        static LinkReport read(
                @JsonProperty("job") String job,
                @JsonProperty("mode") String mode,
                @JsonProperty("from") String from,
                @JsonProperty("to") String to,
                @JsonProperty("packets") long packets,
                @JsonProperty("bytes") long bytes,
                @JsonProperty("headerBytes") long headerBytes,
                @JsonProperty("lost") long lost,
                @JsonProperty("maxQueueBytes") long maxQueueBytes,
                @JsonProperty("queueDrops") long queueDrops,
                @JsonProperty("queue") LinkQueue queue,
                @JsonProperty("ecnMarks") Long ecnMarks) {
            return new LinkReport(
                    job,
                    LinkScope.of(job, mode),
                    from,
                    to,
                    packets,
                    bytes,
                    headerBytes,
                    lost,
                    maxQueueBytes,
                    queueDrops,
                    queue,
                    ecnMarks);
        }

        LinkReport withQueue(LinkQueue q) {
            return new LinkReport(
                    job, mode, from, to, packets, bytes, headerBytes, lost, maxQueueBytes, queueDrops, q, ecnMarks);
        }
    }

    /**
     * An egress queue's depth over modelled time (T3), bounded: the most bytes waiting in each interval
     * of {@code bucketNanos} in which a packet was sent; intervals in which none was are left out (the
     * queue only drained then). Its largest value is the link's {@code maxQueueBytes}.
     *
     * @param depth {start ns of the interval, most bytes waiting in it}, in time order
     */
    public record LinkQueue(long bucketNanos, List<long[]> depth) {
        public LinkQueue {
            depth = List.copyOf(depth);
        }
    }

    /**
     * @param incTrees BIER-INC tree entries (branches) the switch held at the end of a phase, the most over phases (B2)
     * @param drops    frames the switch dropped, by reason, over every phase
     * @param translations frames the switch converted between a job's host-link and fabric encodings (H2), over every phase
     */
    public record SwitchReport(
            String name,
            int peakStateEntries,
            long peakBufferedBytes,
            int incTrees,
            Map<String, Long> drops,
            long translations) {
        public SwitchReport(
                String name, int peakStateEntries, long peakBufferedBytes, int incTrees, Map<String, Long> drops) {
            this(name, peakStateEntries, peakBufferedBytes, incTrees, drops, 0);
        }
    }

    /** A host that dropped frames (of jobs it runs, or of none), by reason, over every phase. */
    public record HostReport(String name, Map<String, Long> drops) {}

    public boolean allAsExpected() {
        return jobs.stream().allMatch(JobReport::asExpected);
    }
}
