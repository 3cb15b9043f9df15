package org.bitina.run;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bitina.device.DeviceCommand;
import org.bitina.job.Status;
import org.bitina.protocol.Counter;
import org.bitina.protocol.ObservedTrees;
import org.bitina.protocol.TimeCurve;
import org.bitina.scenario.AdmissionMode;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.Schedule;
import org.bitina.security.ChecksumAudit;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Recovery;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecases.UseCases;
import org.bitina.workload.StepScheduler;

/**
 * Builds the run report (docs/reference.md) phase by phase from what the devices report:
 * one {@code jobs[]} entry per phase, its links, and the switches' peaks over all phases.
 */
final class ReportAssembler {
    /** The scenario whose jobs the rows are of, for their terms in bandwidth; null: rows without them. */
    private final Scenario scenario;

    ReportAssembler(Scenario scenario) {
        this.scenario = scenario;
    }

    ReportAssembler() {
        this(null);
    }

    private final List<IterationReport> iterations = new ArrayList<>();
    private final List<TrafficReport> traffic = new ArrayList<>();
    private final List<RankTimeline> rankTimelines = new ArrayList<>();

    private final List<Report.JobReport> jobs = new ArrayList<>();
    private final List<LinkReport> links = new ArrayList<>();
    private final List<Report.ObservedTree> observedTrees = new ArrayList<>();
    private final Map<String, SwitchReport> switches = new LinkedHashMap<>();
    /** Drops by reason per device over the phases: this run's jobs summed, frames of no job as last counted (they add up by themselves). */
    private final Map<String, Map<String, Long>> drops = new LinkedHashMap<>();

    private final Map<String, Map<String, Long>> unknownJobDrops = new LinkedHashMap<>();
    private final Map<String, Boolean> isSwitch = new LinkedHashMap<>();
    /** A Chakra workload's trace nodes that ran nothing on the fabric, by kind. */
    private Map<String, Integer> skippedTraceNodes = Map.of();

    int phasesReported() {
        return jobs.size();
    }

    private Report.Setup setup;
    private List<InstalledTree> installedTrees = List.of();

    Report report(String scenario, Clock clock, Map<String, String> placement) {
        List<SwitchReport> sw = new ArrayList<>();
        switches.values()
                .forEach(r -> sw.add(new SwitchReport(
                        r.name(),
                        r.peakStateEntries(),
                        r.peakBufferedBytes(),
                        r.incTrees(),
                        dropsOf(r.name()),
                        r.translations())));
        List<HostReport> hosts = new ArrayList<>();
        isSwitch.forEach((n, sws) -> {
            Map<String, Long> d = dropsOf(n);
            if (!sws && !d.isEmpty()) {
                hosts.add(new HostReport(n, d));
            }
        });
        return new Report(
                scenario,
                clock.configName(),
                tolerances(),
                Speedups.of(Slowdowns.of(jobs)),
                List.copyOf(links),
                List.copyOf(sw),
                List.copyOf(hosts),
                placement,
                setup,
                List.copyOf(observedTrees),
                installedTrees,
                IterationReport.withSpeedups(iterations),
                List.copyOf(rankTimelines),
                TrafficReport.withSlowdowns(traffic),
                skippedTraceNodes);
    }

    /**
     * What setting the run up cost, a Chakra workload's trace nodes that run nothing on the fabric (issue 42
     * item 12), and the trees the in-network phases install as planned.
     */
    void plan(RunPlan plan) {
        setup = plan.setup();
        skippedTraceNodes = plan.skippedTraceNodes();
        installedTrees = InstalledTree.of(plan.phases());
    }

    /** What one background-traffic entry did in one phase (T3): in a world's mix, or alone. */
    void traffic(TrafficReport r) {
        traffic.add(r);
    }

    /** A workload's iterations in one world, as its scheduler ran them (W3). */
    void workload(Schedule.World world, StepScheduler s) {
        iterations.addAll(IterationReport.of(world, s));
        rankTimelines.addAll(RankTimeline.of(world, s));
    }

    private Map<String, Long> dropsOf(String node) {
        Map<String, Long> d = new TreeMap<>(drops.getOrDefault(node, Map.of()));
        unknownJobDrops.getOrDefault(node, Map.of()).forEach((k, v) -> d.merge("unknown job: " + k, v, Long::sum));
        return d;
    }

    /** The tolerances the results were checked with: those of the kinds that ran. */
    private List<String> tolerances() {
        Set<String> ran = new TreeSet<>();
        jobs.forEach(j -> ran.add(j.kind()));
        return UseCases.tolerances(ran);
    }

    /** A phase that could not run, saying why. */
    void notRun(Phase p, Ending why) {
        String said = "not run: " + why.why();
        jobs.add(Report.JobReport.builder(p.job().name(), p.job().common().kind(), p.mode())
                .outcome(new Report.JobReport.Outcome(
                        Status.FAILED,
                        false,
                        List.copyOf(p.awaited()),
                        p.expected().status().label(),
                        false,
                        said,
                        why))
                .problems(new Report.JobReport.Problems(
                        List.of(), List.of(), List.of(said), List.of(), List.of(), List.of()))
                .plan(new Report.JobReport.Plan(
                        roots(p),
                        p.units(),
                        p.awaited().size(),
                        p.iteration(),
                        null,
                        Report.Admission.of(p.admission(), p.mode(), 0)))
                .bandwidth(bandwidth(p, 0))
                .build());
    }

    /** nccl-tests' terms of the row of phase {@code p}: its job as the scenario has it, over {@code modeledMicros}. */
    private BandwidthReport bandwidth(Phase p, double modeledMicros) {
        if (scenario == null) {
            return BandwidthReport.NONE;
        }
        return scenario.jobs().stream()
                .filter(j -> j.name().equals(p.job().name()))
                .findFirst()
                .map(j -> BandwidthReport.of(UseCases.bandwidth(scenario, j, p.mode()), modeledMicros))
                .orElse(BandwidthReport.NONE);
    }

    /** The packet bound the phase just reported ran under (null: its kind states none). */
    void packetBound(PacketBound bound) {
        if (bound != null && !jobs.isEmpty()) {
            int last = jobs.size() - 1;
            jobs.set(last, jobs.get(last).toBuilder().packetBound(bound).build());
        }
    }

    /** A phase that ran: its job entry, the links that carried anything, the switches' peaks. */
    void phase(
            Phase p,
            Collection<DeviceCommand.DeviceStats> stats,
            long wallNanos,
            Ending ended,
            List<String> faultsNotApplied,
            List<Report.FaultMark> faults) {
        phase(p, stats, wallNanos, ended, faultsNotApplied, faults, Links.ofJob(p), null);
    }

    /**
     * Whose the links' traffic of a phase is in {@code links[]}: one job's, or (jobs sharing the
     * fabric, T1) the world's, as job {@code shared} in mode {@code ina} or {@code baseline}.
     */
    record Links(String job, LinkScope mode) {
        static Links ofJob(Phase p) {
            return new Links(p.job().name(), new LinkScope.OfMode(p.mode()));
        }

        static Links ofWorld(Schedule.World world) {
            return new Links(LinkScope.SHARED_JOB, new LinkScope.OfWorld(world));
        }
    }

    /**
     * One job of a phase that ran; {@code links} null: its links are reported with another job
     * of the phase; {@code shared}: its place in a shared run (null: sequential).
     */
    void phase(
            Phase p,
            Collection<DeviceCommand.DeviceStats> stats,
            long wallNanos,
            Ending ended,
            List<String> faultsNotApplied,
            List<Report.FaultMark> faults,
            Links links,
            SharedRun shared) {
        // in a shared mix the links are the world's: a row's drops count its own frames the links lost
        boolean mix = shared != null && !shared.alone();
        Report.JobReport row = job(p, stats, wallNanos, ended, faultsNotApplied, faults, mix);
        row = row.toBuilder()
                .bandwidth(bandwidth(p, row.timing().modeledMicros()))
                .build();
        PoolReport pool = PoolReport.of(p, stats);
        if (pool != null && (shared != null || pool.admission().equals(AdmissionMode.BEST_EFFORT.configName()))) {
            // T2; a strict job of a sequential file keeps its row as it was
            row = row.toBuilder().pool(pool).build();
        }
        jobs.add(
                shared == null
                        ? row
                        : row.toBuilder()
                                .shared(shared.ended(row.timing().modeledMicros()))
                                .build());
        observed(p, stats);
        List<QueueCandidate> queues = new ArrayList<>();
        for (DeviceCommand.DeviceStats s : stats) {
            isSwitch.put(s.node(), s.isSwitch());
            s.drops()
                    .forEach((k, v) -> drops.computeIfAbsent(s.node(), x -> new TreeMap<>())
                            .merge(k, v, Long::sum));
            if (!s.unknownJobDropReasons().isEmpty()) {
                unknownJobDrops.put(s.node(), s.unknownJobDropReasons());
            }
            for (DeviceCommand.LinkStats l : links == null ? List.<DeviceCommand.LinkStats>of() : s.links()) {
                if (l.packets() > 0 || l.lost() > 0) {
                    if (l.queue() != null) {
                        queues.add(new QueueCandidate(this.links.size(), l));
                    }
                    this.links.add(new LinkReport(
                            links.job(),
                            links.mode(),
                            l.from(),
                            l.to(),
                            l.packets(),
                            l.bytes(),
                            l.headerBytes(),
                            l.lost(),
                            l.maxQueueBytes(),
                            l.queueDrops(),
                            null,
                            l.ecnMarks()));
                }
            }
            if (s.isSwitch()) {
                switches.merge(
                        s.node(),
                        new SwitchReport(
                                s.node(),
                                s.peakStateEntries(),
                                s.peakBufferedBytes(),
                                s.incTrees(),
                                Map.of(),
                                s.counters().getOrDefault(Counter.TRANSLATED, 0L)),
                        (a, b) -> new SwitchReport(
                                a.name(),
                                Math.max(a.peakStateEntries(), b.peakStateEntries()),
                                Math.max(a.peakBufferedBytes(), b.peakBufferedBytes()),
                                Math.max(a.incTrees(), b.incTrees()),
                                Map.of(),
                                a.translations() + b.translations()));
            }
        }
        busiestQueues(queues);
    }

    /** How many of a phase's ports carry their queue's curve in {@code links[]}: the deepest, enough to see them. */
    static final int QUEUE_CURVES = 8;

    /** A finite-buffer port of the phase just reported: its index in {@link #links} and its stats. */
    private record QueueCandidate(int index, DeviceCommand.LinkStats stats) {}

    /**
     * The phase's {@link #QUEUE_CURVES} ports whose queues held the most bytes (ties by name, so the
     * choice does not depend on the order the stats arrived in) get their depth over time.
     */
    private void busiestQueues(List<QueueCandidate> queues) {
        queues.stream()
                .filter(q -> q.stats().maxQueueBytes() > 0)
                .sorted(Comparator.comparingLong(
                                (QueueCandidate q) -> -q.stats().maxQueueBytes())
                        .thenComparing(q -> q.stats().from())
                        .thenComparing(q -> q.stats().to()))
                .limit(QUEUE_CURVES)
                .forEach(q -> links.set(
                        q.index(),
                        links.get(q.index())
                                .withQueue(new LinkQueue(
                                        q.stats().queueBucketNanos(), q.stats().queue()))));
    }

    /** The phase's C-BM and INC branches, switch by switch in name order (the stats arrive in any order). */
    private void observed(Phase p, Collection<DeviceCommand.DeviceStats> stats) {
        Integer iteration = p.iteration() == null ? null : p.iteration().index();
        List<Report.ObservedTree> phase = new ArrayList<>();
        for (DeviceCommand.DeviceStats s : stats) {
            for (ObservedTrees.Branch b : s.observedTrees()) {
                phase.add(new Report.ObservedTree(
                        p.job().name(),
                        p.mode(),
                        iteration,
                        s.node(),
                        b.mechanism(),
                        b.upstream(),
                        b.installs(),
                        b.bits()));
            }
        }
        phase.sort(Comparator.comparing(Report.ObservedTree::node)
                .thenComparing(Report.ObservedTree::mechanism)
                .thenComparing(Report.ObservedTree::upstream));
        observedTrees.addAll(phase);
    }

    /** {@code r}'s counters into {@code extra}, but for its recovery's, which the row has in its own fields. */
    private static void mergeOtherStats(DriverReport r, Map<String, Long> extra) {
        r.stats().forEach((k, v) -> {
            if (!k.equals(Recovery.RETRANSMISSIONS)
                    && !k.equals(Recovery.RECOVERY_NANOS)
                    && !k.equals(RecoveryPolicy.RTO_NANOS)
                    && !k.equals(RecoveryPolicy.MAX_SENDS)) {
                extra.merge(k, v, DriverReport.takesTheSmallest(k) ? Long::min : Long::sum);
            }
        });
    }

    private static String roots(Phase p) {
        return p.roots() == null ? null : String.join(",", p.roots());
    }

    private static Report.JobReport job(
            Phase p,
            Collection<DeviceCommand.DeviceStats> stats,
            long wallNanos,
            Ending ended,
            List<String> faultsNotApplied,
            List<Report.FaultMark> faults,
            boolean mix) {
        Map<String, DriverReport> ending = new LinkedHashMap<>();
        List<DriverReport> checked = new ArrayList<>();
        for (DeviceCommand.DeviceStats s : stats) {
            for (DriverReport r : s.drivers()) {
                if (r.role().endsPhase() && p.awaited().contains(r.endpoint())) {
                    ending.put(r.endpoint(), r);
                } else if (r.role().checkedAtEnd()) {
                    checked.add(r);
                }
            }
        }
        List<String> unfinished = new ArrayList<>();
        // the endpoints of those lines, kept as names: what an exact expectation compares, never read back from text
        Set<String> unfinishedEndpoints = new TreeSet<>();
        int shortfall = 0;
        List<String> mismatches = new ArrayList<>();
        // an endpoint that gave up on a result it never got names itself: its own outcome, not a wrong value
        List<String> gaveUp = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        List<Report.PartialChunk> partial = new ArrayList<>();
        Set<String> missing = new TreeSet<>();
        long lastVt = 0;
        boolean allVerified = true;
        for (String e : p.awaited()) {
            DriverReport r = ending.get(e);
            if (r != null) {
                // a wrong result is named whether or not its endpoint finished
                r.mismatches().forEach(x -> mismatches.add(e + ": " + x));
                r.gaveUp().forEach(x -> gaveUp.add(e + ": " + x));
            }
            if (r == null || !r.done()) {
                unfinishedEndpoints.add(e);
                unfinished.add(e
                        + (r == null ? "" : " (" + r.received() + " of " + r.chunks() + " chunks" + gaveUpOn(r) + ")"));
                if (r != null) {
                    // a phase that stalled says how far it got in modelled time, not 0
                    lastVt = Math.max(lastVt, r.lastVt());
                }
                shortfall = Math.max(shortfall, r == null ? p.units() : r.chunks() - r.received());
                missing.add(e);
                allVerified = false;
                continue;
            }
            for (DriverReport.PartialChunk c : r.partialChunks()) {
                partial.add(new Report.PartialChunk(e, c.seq(), c.missing()));
                missing.addAll(c.missing());
            }
            r.dropped().forEach(x -> dropped.add(e + ": " + x));
            if (r.verifiedChunks() != r.chunks()) {
                allVerified = false;
            }
            lastVt = Math.max(lastVt, r.lastVt());
        }
        // what a device could not handle is never passed over
        List<String> deviceFailures = new ArrayList<>();
        stats.forEach(s -> deviceFailures.addAll(s.failuresNamed()));
        Map<String, Long> extra = new TreeMap<>();
        long retransmissions = 0;
        long recoveryNanos = 0;
        // the rule the endpoints recovered by: the longest first timeout and the most sends any of them had
        long rtoNanos = 0;
        long maxSends = 0;
        for (DeviceCommand.DeviceStats s : stats) {
            // every endpoint of the phase that sent again, awaited or not (a Reduce's senders are not)
            for (DriverReport r : s.drivers()) {
                retransmissions += r.stats().getOrDefault(Recovery.RETRANSMISSIONS, 0L);
                recoveryNanos = Math.max(recoveryNanos, r.stats().getOrDefault(Recovery.RECOVERY_NANOS, 0L));
                rtoNanos = Math.max(rtoNanos, r.stats().getOrDefault(RecoveryPolicy.RTO_NANOS, 0L));
                maxSends = Math.max(maxSends, r.stats().getOrDefault(RecoveryPolicy.MAX_SENDS, 0L));
            }
        }
        // the time lost within the phase: a timer's wait after the last delivery is not in its modelled time
        recoveryNanos = Math.min(recoveryNanos, lastVt);
        for (DriverReport r : ending.values()) {
            mergeOtherStats(r, extra);
        }
        int rounds = extra.getOrDefault("retransmissionRounds", 0L).intValue();
        // endpoints that serve but must hold everything at the end (multicast receivers, R5)
        for (DriverReport r : checked) {
            mergeOtherStats(r, extra);
            r.mismatches().forEach(x -> mismatches.add(r.endpoint() + ": " + x));
            r.gaveUp().forEach(x -> gaveUp.add(r.endpoint() + ": " + x));
            if (!r.done() && !missing.contains(r.endpoint())) {
                unfinishedEndpoints.add(r.endpoint());
                unfinished.add(r.endpoint() + " (receiver holds " + r.received() + " of " + r.chunks() + " packets)");
                allVerified = false;
            }
        }
        missing.addAll((p.expected().missing() == null
                        ? Set.<String>of()
                        : p.expected().missing())
                .stream()
                        .filter(x -> !missing.contains(x) && !unfinished.isEmpty())
                        .toList());
        boolean verified = allVerified && mismatches.isEmpty() && unfinished.isEmpty() && gaveUp.isEmpty();
        Status status = !unfinished.isEmpty() || !mismatches.isEmpty() || !gaveUp.isEmpty()
                ? Status.FAILED
                : partial.isEmpty() ? Status.COMPLETE : Status.PARTIAL;
        // a device that could not handle a message is the emulator's fault, never what a scenario expects
        boolean asExpected = deviceFailures.isEmpty()
                && (p.expected().exact()
                        ? exactly(p.expected(), status, verified, missing, unfinishedEndpoints, mismatches)
                        : switch (p.expected().status()) {
                            case COMPLETE -> status == Status.COMPLETE && verified;
                            // what the silent endpoints could take away, and nothing else
                            case PARTIAL ->
                                status != Status.FAILED
                                        && verified
                                        && p.expected().missing().containsAll(missing);
                            // failed as the plan explains: no wrong result, and nobody lacks more than the faults take
                            case FAILED ->
                                status == Status.FAILED
                                        && mismatches.isEmpty()
                                        && gaveUp.isEmpty()
                                        && shortfall <= p.expected().maxShortfall();
                        });
        Traffic t = Traffic.of(p, stats);
        // a DCQCN sender's pace is its rate, an AIMD endpoint's its window
        TimeCurve.Range window = TimeCurve.Range.merge(ending.values().stream()
                .filter(r -> r.pace() != null && !r.role().pacedByRate())
                .map(DriverReport::pace)
                .toList());
        TimeCurve.Range rate = TimeCurve.Range.merge(ending.values().stream()
                .filter(r -> r.pace() != null && r.role().pacedByRate())
                .map(DriverReport::pace)
                .toList());
        Report.ValueSecurity security = valueSecurity(ending.values(), stats);
        String note = p.note()
                + (ended != null && ended.why() != null ? "; stalled: " + ended.why() : "")
                + s6Note(security)
                + (faultsNotApplied.isEmpty()
                        ? ""
                        : "; faults not applied, the phase ended first: " + faultsNotApplied);
        return Report.JobReport.builder(p.job().name(), p.job().common().kind(), p.mode())
                .outcome(new Report.JobReport.Outcome(
                        status,
                        verified,
                        List.copyOf(missing),
                        p.expected().status().label(),
                        asExpected,
                        note,
                        ended))
                .problems(new Report.JobReport.Problems(
                        partial, mismatches, unfinished, dropped, faultsNotApplied, deviceFailures))
                .timing(new Report.JobReport.Timing(
                        wallNanos / 1_000_000,
                        lastVt / 1000.0,
                        PhaseTimeline.completion(p, ending.values()),
                        PhaseTimeline.entries(stats, lastVt),
                        List.copyOf(faults),
                        window,
                        rate))
                .traffic(new Report.JobReport.Traffic(
                        t.intoRoot,
                        t.intoHost,
                        t.maxLink,
                        t.total,
                        t.header,
                        t.packets,
                        t.drops + (mix ? t.jobLost : t.lost),
                        t.uplink,
                        t.busiestHost))
                .counts(new Report.JobReport.Counts(t.timeouts, t.late, rounds))
                .plan(new Report.JobReport.Plan(
                        roots(p),
                        p.units(),
                        p.awaited().size(),
                        p.iteration(),
                        trees(p, stats, missing),
                        Report.Admission.of(p.admission(), p.mode(), t.refused)))
                .stats(extra)
                .security(security)
                .recovery(new Report.Recovery(
                        retransmissions, t.resultResends, recoveryNanos / 1000.0, gaveUp, rtoNanos / 1000.0, (int)
                                maxSends))
                .kindReport(UseCases.report(
                        p, new PhaseFigures(Collections.unmodifiableMap(extra), t.uplink, t.incTrees, lastVt / 1000.0)))
                .build();
    }

    /** A phase over partitions (H2), tree by tree: the second stage (the phase's own tree), then each partition; null for one tree. */
    private static List<Report.TreeReport> trees(
            Phase p, Collection<DeviceCommand.DeviceStats> stats, Set<String> missing) {
        if (p.more().isEmpty()) {
            return null;
        }
        List<Report.TreeReport> out = new ArrayList<>();
        for (Phase.Tree tree : p.trees()) {
            boolean stage = tree.wireJob() == p.wireJob();
            long into = 0;
            long timeouts = 0;
            long bridged = 0;
            for (DeviceCommand.DeviceStats s : stats) {
                Map<Counter, Long> c = s.treeCounters().getOrDefault(tree.wireJob(), Map.of());
                timeouts += c.getOrDefault(Counter.TIMEOUTS, 0L);
                bridged += c.getOrDefault(stage ? Counter.BRIDGED_DOWN : Counter.BRIDGED_UP, 0L);
                if (s.node().equals(tree.root())) {
                    into += c.getOrDefault(Counter.FRAMES_IN, 0L);
                }
            }
            List<String> members = tree.bitSpace().endpoints().stream()
                    .filter(Objects::nonNull)
                    .toList();
            out.add(new Report.TreeReport(
                    stage ? "second-stage" : tree.name(),
                    tree.wireJob(),
                    tree.root(),
                    tree.bitSpace().capacity(),
                    members,
                    into,
                    timeouts,
                    bridged,
                    stage
                            ? List.of()
                            : members.stream().filter(missing::contains).toList()));
        }
        return List.copyOf(out);
    }

    /** S6 of a phase: the workers' checksum findings and the audit's suspects; null when no worker masks or checksums. */
    private static Report.ValueSecurity valueSecurity(
            Collection<DriverReport> workers, Collection<DeviceCommand.DeviceStats> stats) {
        boolean masking = false;
        boolean checksum = false;
        Set<Long> failed = new TreeSet<>();
        Set<Long> fellBack = new TreeSet<>();
        boolean any = false;
        for (DriverReport r : workers) {
            if (r.values() != null) {
                any = true;
                masking |= r.values().masking();
                checksum |= r.values().checksum();
                failed.addAll(r.values().failed());
                fellBack.addAll(r.values().fellBack());
            }
        }
        if (!any) {
            return null;
        }
        Map<String, List<ChecksumAudit.Failure>> audit = new TreeMap<>();
        stats.forEach(s -> {
            if (s.checksumFailures() != null && !s.checksumFailures().isEmpty()) {
                audit.put(s.node(), s.checksumFailures());
            }
        });
        return new Report.ValueSecurity(
                masking ? "on" : "off",
                checksum ? "on" : "off",
                failed.size(),
                fellBack.size(),
                ChecksumAudit.suspects(audit));
    }

    private static String s6Note(Report.ValueSecurity s) {
        if (s == null || s.failedChunks() == 0) {
            return "";
        }
        return "; S6: " + s.failedChunks() + " chunks failed their checksum, " + s.fellBack()
                + " reduced again by the host ring"
                + (s.suspects().isEmpty() ? ", no suspect named" : ", suspect " + String.join(", ", s.suspects()));
    }

    /**
     * The scenario's own {@code expect}: this status and exactly these endpoints missing (named
     * in {@code missing} or, for one that did not finish, {@code unfinished}), and no wrong result.
     */
    private static boolean exactly(
            Phase.Expected e,
            Status status,
            boolean verified,
            Collection<String> missing,
            Set<String> unfinished,
            List<String> mismatches) {
        Set<String> named = new TreeSet<>(missing);
        named.addAll(unfinished);
        boolean right = status == Status.FAILED ? mismatches.isEmpty() : verified;
        return status == e.status() && right && (e.missing() == null || named.equals(e.missing()));
    }

    /** What an unfinished endpoint gave up on (a host baseline's sends nobody acknowledged), to name it with the endpoint. */
    private static String gaveUpOn(DriverReport r) {
        return r.role() != DriverReport.Role.RING_WORKER || r.dropped().isEmpty()
                ? ""
                : "; gave up: " + String.join("; ", r.dropped());
    }

    /** What the links and counters of one phase add up to. */
    private static final class Traffic {
        long maxLink;
        long total;
        long header;
        long packets;
        long lost;
        long timeouts;
        long late;
        long refused;
        long drops;
        long intoRoot;
        long intoHost;
        String busiestHost;
        long uplink;
        long resultResends;
        long incTrees;
        /** This job's frames the links lost ({@code lost} is every job's in a shared mix). */
        long jobLost;

        static Traffic of(Phase p, Collection<DeviceCommand.DeviceStats> stats) {
            Traffic t = new Traffic();
            for (DeviceCommand.DeviceStats s : stats) {
                for (DeviceCommand.LinkStats l : s.links()) {
                    t.maxLink = Math.max(t.maxLink, l.bytes());
                    t.total += l.bytes();
                    t.header += l.headerBytes();
                    t.packets += l.packets();
                    t.lost += l.lost();
                    if (p.uplinks().contains(l.from()) || p.uplinks().contains(l.to())) {
                        t.uplink += l.bytes();
                    }
                }
                if (s.isSwitch()) {
                    // the network's INC state (B2); member hosts hold the ends of their trees too
                    t.incTrees += s.incTrees();
                }
                t.timeouts += s.counters().getOrDefault(Counter.TIMEOUTS, 0L);
                t.late += s.counters().getOrDefault(Counter.LATE, 0L);
                t.resultResends += s.counters().getOrDefault(Counter.RESULTS_RESENT, 0L);
                t.refused += s.counters().getOrDefault(Counter.REFUSED, 0L);
                t.drops += s.counters().getOrDefault(Counter.DROPS, 0L) + s.failures();
                t.jobLost += s.counters().getOrDefault(Counter.LINK_LOST, 0L);
                long in = s.counters().getOrDefault(Counter.FRAMES_IN, 0L);
                if (!s.drivers().isEmpty()) {
                    // a host that ran an endpoint of the phase
                    if (in > 0
                            && (in > t.intoHost || in == t.intoHost && s.node().compareTo(t.busiestHost) < 0)) {
                        // ties to the first by name: the stats arrive in no fixed order
                        t.busiestHost = s.node();
                    }
                    t.intoHost = Math.max(t.intoHost, in);
                }
                if (p.roots() != null) {
                    if (p.roots().contains(s.node())) {
                        t.intoRoot += in;
                    }
                } else if (p.job().common().members().contains(s.node())) {
                    t.intoRoot = Math.max(t.intoRoot, in);
                }
            }
            return t;
        }
    }
}
