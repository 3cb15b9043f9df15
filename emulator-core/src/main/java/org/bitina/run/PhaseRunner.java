package org.bitina.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.cluster.MemberAgent;
import org.bitina.device.DeviceCommand;
import org.bitina.device.Recorder;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Clock;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.StartRule;
import org.bitina.time.WindowBarrier;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.traffic.TrafficFigures;
import org.bitina.usecases.PhasePlanner;
import org.bitina.usecases.UseCases;
import org.bitina.workload.StepScheduler;

/**
 * The coordinator of a run (docs/architecture.md), a cluster singleton: wires the devices,
 * then takes each phase through its states, one behavior each: <em>installing</em> (tables
 * in, every device synced), <em>starting</em> (drivers set up on every host, synced),
 * <em>running</em> (begin, faults on time, until every awaited endpoint is done, the
 * deadline passes, or nothing moves), <em>settling</em> (late contributions folded in after a
 * partial result) and <em>collecting</em> (every live device's counters), then the report.
 * Under {@code schedule = shared} a phase holds every job of a world ({@link PhaseGroup}): all
 * their tables go in together, and each job's drivers begin at its own modelled time (T1).
 */
public final class PhaseRunner {
    /** The runner's own protocol: local to the JVM that runs it (what devices send it is ControlMessage). */
    public sealed interface Command extends NoSerializationVerificationNeeded {}

    /** Start the run; the report goes to {@code replyTo}. */
    public record Run(ActorRef<Report> replyTo) implements Command {}

    /** E4: a cluster member left or was downed; these devices went with it. */
    public record MemberLost(String member, Set<String> devices) implements Command {
        /** One device stopped while its member lives on (member null). */
        static MemberLost deviceStopped(String device) {
            return new MemberLost(null, Set.of(device));
        }
    }

    private record HostEvt(DeviceCommand.HostEvent event) implements Command {}

    private record Synced(String node) implements Command {}

    private record Stats(DeviceCommand.DeviceStats stats) implements Command {}

    private enum Deadline implements Command {
        INSTANCE
    }

    private enum Settled implements Command {
        INSTANCE
    }

    private enum StallCheck implements Command {
        INSTANCE
    }

    private record ApplyFault(FaultSpec fault) implements Command {}

    /** Virtual clock: a member is done with a window. */
    private record WindowDone(MemberAgent.WindowReport report) implements Command {}

    private static final Duration STALL_CHECK = Duration.ofMillis(250);
    private static final Duration STALL_MIN = Duration.ofSeconds(5);

    private final ActorContext<Command> ctx;
    private final TimerScheduler<Command> timers;
    private final Scenario scenario;
    private final RunProgress progress;
    private final Map<String, ActorRef<DeviceCommand>> devices = new LinkedHashMap<>();
    private final Map<String, String> placement;
    private final ActorRef<DeviceCommand.HostEvent> hostEvents;
    private final ActorRef<String> syncs;
    private final ActorRef<DeviceCommand.DeviceStats> statsAdapter;
    private final ActorRef<MemberAgent.WindowReport> windowReports;
    private final List<MemberAgent.Handle> members;
    /** This run's secret, from which each job's keys are derived (S2 tags when MACs are on, S6 masks and checksums). */
    private final byte[] runSecret;
    /** Virtual clock: the smallest link latency plus a nanosecond (docs/architecture.md "Two clocks"). */
    private final long lookahead;

    private final List<Phase> phases;
    /** Per world and job, the fallback a shared world's mix ran instead of a job's INA phase, refused at its start (T2). */
    private final Map<String, Phase> ranInstead = new HashMap<>();
    /** What runs phase by phase: each of {@link #phases} alone, or under schedule = shared each world's jobs together. */
    private final List<PhaseGroup> groups;
    /** The routing the phases were planned over (and are planned again over, when some of a phase's faults never applied). */
    private final Routing routing;

    private final FaultInjector faults;
    private final ReportAssembler report = new ReportAssembler();
    /** Devices on members that were lost (E4), and why the run cannot go on. */
    private final Set<String> lost = new HashSet<>();

    private String lostReason;
    private ActorRef<Report> replyTo;

    /**
     * @param devices   every device's actor, wherever the placement put it
     * @param placement device to the cluster member that runs it (for the report)
     */
    public static Behavior<Command> create(
            Scenario scenario,
            Map<String, ActorRef<DeviceCommand>> devices,
            Map<String, String> placement,
            Map<String, Integer> where,
            List<MemberAgent.Handle> members,
            Recorder trace,
            RunProgress progress) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
                new PhaseRunner(ctx, timers, scenario, devices, placement, where, members, trace, progress).idle()));
    }

    private PhaseRunner(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            Scenario scenario,
            Map<String, ActorRef<DeviceCommand>> spawned,
            Map<String, String> placement,
            Map<String, Integer> where,
            List<MemberAgent.Handle> members,
            Recorder trace,
            RunProgress progress) {
        this.ctx = ctx;
        this.timers = timers;
        this.scenario = scenario;
        this.progress = progress;
        this.placement = Map.copyOf(placement);
        this.hostEvents = ctx.messageAdapter(DeviceCommand.HostEvent.class, HostEvt::new);
        this.syncs = ctx.messageAdapter(String.class, Synced::new);
        this.statsAdapter = ctx.messageAdapter(DeviceCommand.DeviceStats.class, Stats::new);
        this.windowReports = ctx.messageAdapter(MemberAgent.WindowReport.class, WindowDone::new);
        this.members = List.copyOf(members);
        this.runSecret = TopologyInstaller.drawRunSecret();
        this.lookahead = WindowBarrier.lookahead(scenario.topology().links().stream()
                .mapToLong(l -> l.spec().latencyNanos())
                .min()
                .orElse(0));
        this.routing = report.routed(scenario);
        this.phases = report.planned(scenario, routing);
        scenario.schedule().rule().map(StartRule.Factory::skipped).ifPresent(report::skippedTraceNodes);
        this.groups = groups(scenario, routing, phases);
        progress.phases.set(groups.size());
        for (Node n : scenario.topology().nodes()) {
            devices.put(n.name(), spawned.get(n.name()));
        }
        this.faults = new FaultInjector(scenario, devices, List.copyOf(members), runSecret, ctx.getLog());
        ctx.spawn(DeviceWatcher.create(devices, ctx.getSelf()), "device-watcher");
        TopologyInstaller.wire(scenario, devices, where, routing, trace);
    }

    /** The run's phases: sequential, each planned phase alone; shared, per world the mix and each job alone. */
    private List<PhaseGroup> groups(Scenario s, Routing r, List<Phase> planned) {
        if (!s.schedule().shared()) {
            return PhaseGroup.sequential(planned);
        }
        if (s.clock() != Clock.VIRTUAL) {
            // --clock real over a shared file: the jobs' starts are modelled times, which only the virtual clock keeps
            lostReason = "schedule = shared needs the virtual clock";
            return PhaseGroup.sequential(planned);
        }
        try {
            return PhaseGroup.shared(s, r);
        } catch (IllegalArgumentException e) {
            lostReason = e.getMessage();
            return PhaseGroup.sequential(planned);
        }
    }

    // ------------------------------------------------------------------ states

    private Behavior<Command> idle() {
        return Behaviors.receive(Command.class)
                .onMessage(Run.class, m -> {
                    replyTo = m.replyTo();
                    return next(0);
                })
                .onMessage(MemberLost.class, m -> {
                    memberLost(m);
                    return Behaviors.same();
                })
                .build();
    }

    /** Phase {@code i}, or the report when there is none left (or a lost member stopped the run). */
    private Behavior<Command> next(int i) {
        if (lostReason != null) {
            for (int j = i; j < groups.size(); j++) {
                groups.get(j)
                        .jobs()
                        .forEach(e -> report.notRun(e.phase(), new Ending(Ending.Cause.NOT_RUN, lostReason)));
            }
            i = groups.size();
        }
        if (i == groups.size()) {
            replyTo.tell(report.report(scenario.file(), scenario.clock(), placement));
            return Behaviors.ignore();
        }
        PhaseRun run = new PhaseRun(i, groups.get(i), scenario.capacity()::of);
        Phase instead = run.group.alone() && run.lead != null
                ? ranInstead.get(ranInsteadKey(run.group, run.lead.name()))
                : null;
        if (instead != null) {
            // T2: a job its mix refused at its start runs alone as it ran there, its fallback baseline
            run.lead.phase = instead;
        }
        String label = label(run.group);
        run.bound = bound(run);
        progress.phase.set(i + 1);
        progress.modelledNanos.set(0);
        progress.results.set(0);
        progress.expectedResults.set(run.jobs.stream()
                .mapToLong(j -> (long) j.phase.awaited().size() * j.phase.units())
                .sum());
        progress.labels.put(i + 1, label);
        progress.label.set(label);
        ctx.getLog().info("phase {}/{}: {}", i + 1, groups.size(), label);
        TopologyInstaller.install(
                // a job admitted at its start gets its tables then (T2)
                run.jobs.stream()
                        .filter(j -> j.atStart == null)
                        .map(j -> j.phase)
                        .toList(),
                devices,
                runSecret,
                scenario.security().mac());
        TopologyInstaller.installTraffic(
                run.group.traffic(), devices, runSecret, scenario.security().mac());
        return synced(run, () -> starting(run));
    }

    /** What the log and the progress line call a phase: "job J mode M", or a shared world's mix or one of its jobs alone. */
    private static String label(PhaseGroup g) {
        if (g.jobs().isEmpty()) {
            return "background traffic alone";
        }
        if (!g.shared()) {
            return "job " + g.lead().job().name() + " mode " + g.lead().mode();
        }
        if (g.alone()) {
            return "job " + g.lead().job().name() + " mode " + g.lead().mode() + " alone (world "
                    + g.world().configName() + ")";
        }
        return "world " + g.world().configName() + ": jobs "
                + String.join(
                        ", ", g.jobs().stream().map(e -> e.phase().job().name()).toList()) + " shared"
                + (g.traffic().isEmpty() ? "" : " with background traffic");
    }

    /** Waits until every live device has handled what was sent to it before, then goes on. */
    private Behavior<Command> synced(PhaseRun run, Supplier<Behavior<Command>> then) {
        run.touched = true;
        Set<String> waiting = new HashSet<>(devices.keySet());
        waiting.removeAll(lost);
        waiting.forEach(d -> devices.get(d).tell(new DeviceCommand.Sync(syncs)));
        return Behaviors.receive(Command.class)
                .onMessage(Synced.class, m -> {
                    waiting.remove(m.node());
                    return waiting.isEmpty() ? then.get() : Behaviors.same();
                })
                .onMessage(MemberLost.class, m -> memberLost(m) ? collecting(run) : Behaviors.same())
                .build();
    }

    /** Every host sets up its drivers before any of them sends: a packet never reaches a host that does not know its job. */
    private Behavior<Command> starting(PhaseRun run) {
        for (PhaseRun.JobRun j : run.jobs) {
            if (j.atStart == null) {
                startDrivers(j.phase);
            }
        }
        for (PhaseRun.TrafficRun t : run.traffic) {
            for (DriverSpec d : t.plan.drivers()) {
                devices.get(d.host()).tell(new DeviceCommand.StartDriver(d, hostEvents, null));
            }
        }
        return synced(run, () -> running(run));
    }

    private void startDrivers(Phase p) {
        for (DriverSpec d : p.drivers()) {
            devices.get(d.host())
                    .tell(new DeviceCommand.StartDriver(d, hostEvents, TopologyInstaller.endpointSecret(runSecret, d)));
        }
    }

    /** Where a shared world's mix remembers the phase a job ran instead of its INA phase, for its alone run. */
    private static String ranInsteadKey(PhaseGroup g, String job) {
        return g.world().configName() + " " + job;
    }

    /**
     * T2, "admission happens at a job's start against what is free then": the job is admitted now,
     * at a window boundary on the coordinator, against the grants of the mix's jobs running now (a
     * completed job's went back at the end of its window); its tables, with its grants, and its
     * drivers go out before it begins. Refused (strict), its fallback baseline's go out instead.
     */
    private void admitAtStart(PhaseRun run, PhaseRun.JobRun j, long now) {
        j.phase = PhasePlanner.admitAtStart(scenario, routing, run.pool, j.atStart);
        if (!j.phase.mode().inNetwork()) {
            ranInstead.put(ranInsteadKey(run.group, j.name()), j.phase);
            ctx.getLog()
                    .info(
                            "job {} refused at {} ns of modelled time: {}; it runs {} instead",
                            j.name(),
                            now,
                            j.phase.admission().reason(),
                            j.phase.mode());
        }
        TopologyInstaller.installTables(
                j.phase, devices, runSecret, scenario.security().mac());
        startDrivers(j.phase);
        run.bound = bound(run);
    }

    private Behavior<Command> running(PhaseRun run) {
        if (scenario.clock() == Clock.VIRTUAL) {
            return runningVirtual(run);
        }
        Phase p = run.lead.phase;
        run.start = System.nanoTime();
        run.lastActivity = run.start;
        faultsAtStart(run);
        run.pendingFaults.forEach(f -> timers.startSingleTimer(new ApplyFault(f), f.at()));
        begin(p, 0);
        run.lead.begunAt = 0;
        timers.startSingleTimer(Deadline.INSTANCE, p.timing().deadline());
        timers.startTimerWithFixedDelay(StallCheck.INSTANCE, STALL_CHECK);
        if (p.awaited().isEmpty()) {
            return endOfEndpoints(run);
        }
        return Behaviors.receive(Command.class)
                .onMessage(HostEvt.class, m -> onHostEvent(run, m))
                .onMessage(ApplyFault.class, m -> {
                    run.pendingFaults.remove(m.fault());
                    run.lead.phase = faults.apply(m.fault(), run.lead.phase);
                    return Behaviors.same();
                })
                .onMessageEquals(Deadline.INSTANCE, () -> {
                    // the row's status and missing say it; whether that was expected is the summary's verdict
                    ctx.getLog()
                            .info(
                                    "job {} mode {}: deadline of {} passed with {} of {} endpoints done",
                                    p.job().name(),
                                    p.mode(),
                                    p.timing().deadline(),
                                    run.lead.done.size(),
                                    p.awaited().size());
                    return endNow(run, new Ending(Ending.Cause.DEADLINE, null));
                })
                .onMessageEquals(StallCheck.INSTANCE, () -> onStallCheck(run))
                .onMessage(
                        MemberLost.class,
                        m -> memberLost(m)
                                ? endNow(run, new Ending(Ending.Cause.MEMBER_LOST, lostReason))
                                : Behaviors.same())
                .build();
    }

    // ------------------------------------------------------------------ the virtual clock

    /**
     * The phase in modelled time (docs/architecture.md "Two clocks"): faults at time zero, the
     * drivers begin, then windows of at most the lookahead until every awaited endpoint is
     * done, nothing is left to happen, or the modelled deadline passes. Faults land between
     * windows, exactly at their time.
     */
    private Behavior<Command> runningVirtual(PhaseRun run) {
        run.start = System.nanoTime();
        run.barrier = new WindowBarrier(members.size(), lookahead);
        faultsAtStart(run);
        if (run.jobs.stream().allMatch(j -> j.phase.awaited().isEmpty()) && run.traffic.isEmpty()) {
            return endOfEndpoints(run);
        }
        beginDue(run, 0);
        // background traffic begins with the phase: its flows leave at their own start times (T3)
        for (PhaseRun.TrafficRun t : run.traffic) {
            t.plan.drivers()
                    .forEach(d -> devices.get(d.host())
                            .tell(new DeviceCommand.BeginJob(t.plan.tenant(), t.plan.wireJob(), 0)));
        }
        // every host has begun (and every fault at zero is in) before the first window
        return synced(run, () -> window(run, 0));
    }

    /**
     * A phase's network faults at time zero go in now, in force before the first packet (these
     * messages reach every device before any frame does); the later ones wait, in time order.
     */
    private void faultsAtStart(PhaseRun run) {
        if (run.lead == null) {
            // traffic alone: shared runs take no network faults (the loader refuses them), so none to apply
            return;
        }
        for (FaultSpec f : scenario.faults()) {
            if (FaultInjector.network(f) && f.at().isZero()) {
                run.lead.phase = faults.apply(f, run.lead.phase);
            } else if (FaultInjector.network(f)) {
                run.pendingFaults.add(f);
            }
        }
        run.pendingFaults.sort(Comparator.comparing(FaultSpec::at));
    }

    /**
     * The jobs due at modelled time {@code now} begin: those whose start has come, and those whose
     * {@code after} jobs have all completed. Returns whether any did.
     */
    private boolean beginDue(PhaseRun run, long now) {
        boolean any = false;
        for (PhaseRun.JobRun j : run.jobs) {
            if (j.begunAt >= 0) {
                continue;
            }
            if (run.group.starts().startNanos(j.name()) <= now) {
                if (j.atStart != null) {
                    admitAtStart(run, j, now);
                }
                begin(j.phase, now);
                j.begunAt = now;
                run.group.starts().begun(j.name(), now);
                any = true;
            }
        }
        return any;
    }

    /**
     * T2: a job that completed in the window just over gives its grants of the switches' pools
     * back, at the window's end (when its last awaited endpoint had its result, at most one
     * lookahead before). Returns whether any did.
     */
    private boolean releaseFinished(PhaseRun run) {
        boolean any = false;
        if (!run.group.shared() || run.group.alone()) {
            // one job on the fabric: nobody else could use what it gives back
            return false;
        }
        for (PhaseRun.JobRun j : run.jobs) {
            if (j.released || !j.finished()) {
                continue;
            }
            j.released = true;
            if (run.pool != null) {
                run.pool.release(j.name());
            }
            for (Phase.Tree tree : j.phase.trees()) {
                for (Map.Entry<String, JobTables> t : tree.tables().entrySet()) {
                    if (t.getValue().pool() != null && !lost.contains(t.getKey())) {
                        devices.get(t.getKey())
                                .tell(new DeviceCommand.ReleasePool(
                                        j.phase.job().common().tenant(), List.of(tree.wireJob())));
                        any = true;
                    }
                }
            }
        }
        return any;
    }

    /** The earliest start the phase's rule knows of a job not begun yet, or Long.MAX_VALUE. */
    private static long nextBeginNanos(PhaseRun run) {
        return run.jobs.stream()
                .filter(j -> j.begunAt < 0)
                .mapToLong(j -> run.group.starts().startNanos(j.name()))
                .min()
                .orElse(Long.MAX_VALUE);
    }

    /** The start rule hears of every job that finished in the window just ended, at its modelled end. */
    private static void tellFinished(PhaseRun run) {
        for (PhaseRun.JobRun j : run.jobs) {
            if (!j.told && j.finished()) {
                j.told = true;
                run.group.starts().finished(j.name(), j.endNanos());
            }
        }
    }

    /** Every host with a driver in the phase starts it, at modelled time {@code vt}. */
    private void begin(Phase p, long vt) {
        // each host begins the wire jobs its drivers run (a phase over partitions has one per partition, H2)
        Set<Map.Entry<String, Integer>> begin = new LinkedHashSet<>();
        p.drivers().forEach(d -> begin.add(Map.entry(d.host(), d.job())));
        begin.stream()
                .filter(e -> p.wireJobs().contains(e.getValue()))
                .forEach(e -> devices.get(e.getKey())
                        .tell(new DeviceCommand.BeginJob(p.job().common().tenant(), e.getValue(), vt)));
    }

    private long nextFaultNanos(PhaseRun run) {
        return run.pendingFaults.isEmpty()
                ? Long.MAX_VALUE
                : run.pendingFaults.get(0).at().toNanos();
    }

    private Behavior<Command> window(PhaseRun run, long start) {
        WindowBarrier barrier = run.barrier;
        // a window ends at the next fault or the next job's start: each lands exactly at its time
        long end = barrier.end(start, Math.min(nextFaultNanos(run), nextBeginNanos(run)));
        boolean every = run.touched;
        run.touched = false;
        // members with nothing due before the end sit the window out (WindowBarrier)
        boolean[] runs = barrier.open(barrier.window() + 1, every, end);
        MemberAgent.Window w = new MemberAgent.Window(barrier.window(), start, end, every, windowReports);
        long opened = System.nanoTime();
        for (int i = 0; i < members.size(); i++) {
            if (runs[i]) {
                members.get(i).tell(w);
            }
        }
        if (barrier.complete()) {
            // nobody had anything before the end (cannot happen: the window starts at someone's next time)
            return afterWindow(run, end);
        }
        return Behaviors.receive(Command.class)
                .onMessage(WindowDone.class, m -> {
                    MemberAgent.WindowReport r = m.report();
                    MemberAgent.Traffic t = r.traffic();
                    if (r.late()) {
                        barrier.received(r.member(), t.received());
                        // driver reports sent ahead of the member's report (MemberAgent.WindowReport)
                        r.done().forEach(d -> onDone(run, d));
                    } else if (r.window() == barrier.window()) {
                        barrier.report(r.member(), r.window(), t.sentTo(), t.received(), r.next(), t.arrivals());
                        r.done().forEach(d -> onDone(run, d));
                        run.problems.addAll(r.problems());
                        progress.windowEvents.addAndGet(r.events());
                        run.frames += r.events();
                        progress.deviceBusyNanos.addAndGet(r.busyNanos());
                    }
                    if (!barrier.complete()) {
                        return Behaviors.same();
                    }
                    progress.windows.incrementAndGet();
                    progress.windowWallNanos.addAndGet(System.nanoTime() - opened);
                    progress.modelledNanos.accumulateAndGet(end, Math::max);
                    return afterWindow(run, end);
                })
                .onMessage(HostEvt.class, m -> onHostEvent(run, m))
                .onMessage(
                        MemberLost.class,
                        m -> memberLost(m)
                                ? endNow(run, new Ending(Ending.Cause.MEMBER_LOST, lostReason))
                                : Behaviors.same())
                .build();
    }

    private Behavior<Command> afterWindow(PhaseRun run, long end) {
        Ending stop = WindowStep.stopped(
                run.problems, run.frames, run.bound, scenario.topology().links().size(), end);
        if (stop != null) {
            return stop.cause() == Ending.Cause.CLOCK_STOPPED ? endNow(run, stop) : endWarned(run, stop);
        }
        if (releaseFinished(run)) {
            // every switch has the grants back before the next window
            return synced(run, () -> afterWindow(run, end));
        }
        long next = run.barrier.next();
        tellFinished(run);
        if (beginDue(run, end)) {
            // jobs that waited for others begin where the window in which the last of those completed ends
            return synced(run, () -> window(run, end));
        }
        boolean allFinished = run.jobs.stream().allMatch(PhaseRun.JobRun::finished) && run.trafficDone();
        WindowStep.Decision d = WindowStep.next(new WindowStep.Facts(
                end,
                next,
                allFinished,
                allFinished
                        && run.jobs.stream()
                                .allMatch(j -> j.done.values().stream()
                                        .allMatch(r -> r.partialChunks().isEmpty())),
                run.settleUntil,
                () -> run.jobs.stream()
                        .mapToLong(j -> 2 * j.phase.timing().timeoutNanos()
                                + j.phase.timing().maxStraggleNanos())
                        .max()
                        .orElse(0),
                nextFaultNanos(run),
                nextBeginNanos(run),
                run.deadlineNanos(),
                run::unfinished,
                () -> run.jobs.stream().mapToInt(j -> j.done.size()).sum(),
                () -> run.jobs.stream().mapToInt(j -> j.phase.awaited().size()).sum()));
        run.settleUntil = d.settleUntil();
        WindowStep.Step step = d.step();
        if (step instanceof WindowStep.Stop st) {
            return endWarned(run, st.ending());
        }
        if (step instanceof WindowStep.Faults f) {
            while (!run.pendingFaults.isEmpty() && run.pendingFaults.get(0).at().toNanos() == f.at()) {
                run.lead.phase = faults.apply(run.pendingFaults.remove(0), run.lead.phase, f.at());
            }
            // every device has the fault before the window that starts at its time
            return synced(run, () -> window(run, f.at()));
        }
        if (step instanceof WindowStep.Begin bg) {
            beginDue(run, bg.at());
            // every host of the starting jobs has begun before the window that starts at their time
            return synced(run, () -> window(run, bg.at()));
        }
        if (step instanceof WindowStep.Window w) {
            return window(run, w.start());
        }
        return finishedVirtual(run);
    }

    /** The phase ends before its endpoints did, and the log says why (at info: the row's note says it too). */
    private Behavior<Command> endWarned(PhaseRun run, Ending why) {
        ctx.getLog().info("{}: {}", label(run.group), why.why());
        return endNow(run, why);
    }

    private Behavior<Command> finishedVirtual(PhaseRun run) {
        run.wall = System.nanoTime() - run.start;
        ctx.getLog().info("{}: {} windows of at most {} ns", label(run.group), run.barrier.windows(), lookahead);
        return collecting(run);
    }

    /** Which completions count: an awaited endpoint's, of this phase, in a role that ends it. */
    private void onDone(PhaseRun run, DeviceCommand.DriverDone d) {
        if (d.report().role() == DriverReport.Role.TRAFFIC) {
            run.traffic.stream()
                    .filter(t -> t.plan.tenant() == d.tenant() && t.plan.wireJob() == d.job())
                    .forEach(t -> t.done.add(d.report().endpoint()));
            return;
        }
        for (PhaseRun.JobRun j : run.jobs) {
            // jobs sharing the fabric may have the same wire job under other tenants (S1): the tenant tells them apart
            boolean ours = run.jobs.size() == 1 ? j.phase.wireJobs().contains(d.job()) : j.owns(d.tenant(), d.job());
            DriverReport r = d.report();
            if (ours && j.phase.awaited().contains(r.endpoint()) && r.role().endsPhase()) {
                j.done.put(r.endpoint(), r);
            }
        }
    }

    private Behavior<Command> onHostEvent(PhaseRun run, HostEvt m) {
        if (m.event() instanceof DeviceCommand.Progress pr
                && pr.tenant() != TrafficFlows.TENANT
                && run.jobs.stream().anyMatch(j -> j.phase.wireJobs().contains(pr.job()))) {
            progress.results.addAndGet(pr.results());
            run.results += pr.results();
        } else if (m.event() instanceof DeviceCommand.DriverDone d) {
            // the real clock: completions come one by one; the virtual clock's come with its windows (onDone alike)
            onDone(run, d);
            if (run.lead != null && run.lead.done.keySet().containsAll(run.lead.phase.awaited())) {
                return endOfEndpoints(run);
            }
        }
        return Behaviors.same();
    }

    /**
     * A phase in which no endpoint has received anything for the stall period cannot finish:
     * it ends as failed at once instead of waiting out its deadline (a ring with a dead member).
     */
    private Behavior<Command> onStallCheck(PhaseRun run) {
        long now = System.nanoTime();
        long results = run.results + run.lead.done.size();
        if (results != run.lastResults) {
            run.lastResults = results;
            run.lastActivity = now;
            return Behaviors.same();
        }
        Phase.Timing t = run.lead.phase.timing();
        long stallNanos = Math.max(STALL_MIN.toNanos(), Math.max(20 * t.timeoutNanos(), 2 * t.maxStraggleNanos()));
        if (now - run.lastActivity <= stallNanos) {
            return Behaviors.same();
        }
        return endWarned(
                run,
                new Ending(
                        Ending.Cause.NO_PROGRESS,
                        "no endpoint received anything for " + stallNanos / 1_000_000 + " ms"));
    }

    /** Every awaited endpoint is done: with partial results, stragglers get time to be folded in at the root first. */
    private Behavior<Command> endOfEndpoints(PhaseRun run) {
        run.wall = System.nanoTime() - run.start;
        timers.cancelAll();
        if (run.lead.done.values().stream().noneMatch(r -> !r.partialChunks().isEmpty())) {
            return collecting(run);
        }
        Phase.Timing t = run.lead.phase.timing();
        timers.startSingleTimer(
                Settled.INSTANCE,
                Duration.ofNanos(Math.min(10_000_000_000L, 2 * t.timeoutNanos() + t.maxStraggleNanos())));
        return Behaviors.receive(Command.class)
                .onMessageEquals(Settled.INSTANCE, () -> collecting(run))
                .onMessage(MemberLost.class, m -> memberLost(m) ? collecting(run) : Behaviors.same())
                .build();
    }

    /** The phase ends before its endpoints did (deadline, stall, lost member), saying why. */
    private Behavior<Command> endNow(PhaseRun run, Ending why) {
        run.wall = System.nanoTime() - run.start;
        run.ended = why;
        timers.cancelAll();
        return collecting(run);
    }

    /** Asks every live device for its counters; the report of the phase is built when all have answered. */
    private Behavior<Command> collecting(PhaseRun run) {
        timers.cancelAll();
        if (run.ended == null && lostReason != null) {
            run.ended = new Ending(Ending.Cause.MEMBER_LOST, lostReason);
        }
        // per device, one answer per job of the phase, in the order asked (one sender's replies to one receiver keep
        // it)
        Map<String, List<DeviceCommand.DeviceStats>> stats = new HashMap<>();
        devices.forEach((n, d) -> {
            if (!lost.contains(n)) {
                for (PhaseRun.JobRun j : run.jobs) {
                    d.tell(new DeviceCommand.CollectStats(
                            j.phase.job().common().tenant(),
                            j.phase.wireJob(),
                            j.phase.more().stream().map(Phase.Tree::wireJob).toList(),
                            statsAdapter));
                }
                // after the jobs': the answers of one device come in the order asked
                for (PhaseRun.TrafficRun t : run.traffic) {
                    d.tell(new DeviceCommand.CollectStats(t.plan.tenant(), t.plan.wireJob(), List.of(), statsAdapter));
                }
            }
        });
        int each = run.jobs.size() + run.traffic.size();
        return Behaviors.receive(Command.class)
                .onMessage(Stats.class, m -> {
                    stats.computeIfAbsent(m.stats().node(), k -> new ArrayList<>())
                            .add(m.stats());
                    return allIn(stats, each) ? phaseDone(run, stats) : Behaviors.same();
                })
                // the stats of the lost devices will not come: go on with those that did
                .onMessage(
                        MemberLost.class,
                        m -> memberLost(m) && allIn(stats, each) ? phaseDone(run, stats) : Behaviors.same())
                .build();
    }

    private boolean allIn(Map<String, List<DeviceCommand.DeviceStats>> stats, int each) {
        return devices.keySet().stream()
                .allMatch(n ->
                        lost.contains(n) || stats.getOrDefault(n, List.of()).size() >= each);
    }

    /** A fault's time in ms when whole, else in the unit that holds it exactly: 133 us, not "0 ms". */
    static String modelled(Duration d) {
        long ns = d.toNanos();
        if (ns % 1_000_000L == 0) {
            return ns / 1_000_000L + " ms";
        }
        return ns % 1_000L == 0 ? ns / 1_000L + " us" : ns + " ns";
    }

    private Behavior<Command> phaseDone(PhaseRun run, Map<String, List<DeviceCommand.DeviceStats>> stats) {
        // a fault planned for later than the phase lasted never happened: the row says so (the report's
        // faultsNotApplied, the console's verdict line), never passed over and no warning (the run is right)
        List<String> notApplied = run.pendingFaults.stream()
                .map(f -> f.kind().configName() + " at " + modelled(f.at()))
                .toList();
        for (int k = 0; k < run.jobs.size(); k++) {
            PhaseRun.JobRun j = run.jobs.get(k);
            int job = k;
            // in the topology's order, not the order the answers came in: the same run, the same report
            List<DeviceCommand.DeviceStats> inOrder = devices.keySet().stream()
                    .map(stats::get)
                    .filter(Objects::nonNull)
                    .map(l -> l.get(job))
                    .toList();
            Phase p = j == run.lead && !run.pendingFaults.isEmpty() ? expectingWhatApplied(run) : j.phase;
            ReportAssembler.Links links = !run.group.shared() || run.group.alone()
                    ? ReportAssembler.Links.ofJob(p)
                    // the jobs share the links: their traffic is the world's, reported once
                    : k == 0 ? ReportAssembler.Links.ofWorld(run.group.world()) : null;
            SharedRun shared = run.group.shared()
                    ? SharedRun.started(run.group.world(), run.group.alone(), j.begunAt < 0 ? -1 : j.begunAt)
                    : null;
            report.phase(
                    p,
                    inOrder,
                    run.wall,
                    run.ended,
                    notApplied,
                    PhaseTimeline.faults(scenario.faults(), run.pendingFaults, j.phase),
                    links,
                    shared);
            report.packetBound(run.bound);
        }
        for (int k = 0; k < run.traffic.size(); k++) {
            int at = run.jobs.size() + k;
            List<DriverReport> reports = new ArrayList<>();
            devices.keySet().stream()
                    .map(stats::get)
                    .filter(Objects::nonNull)
                    .forEach(l -> reports.addAll(l.get(at).drivers()));
            PhaseRun.TrafficRun t = run.traffic.get(k);
            report.traffic(TrafficReport.of(
                    t.plan, run.group.alone() ? null : run.group.world(), TrafficFigures.of(t.plan, reports)));
        }
        if (run.group.starts() instanceof StepScheduler s && s.done()) {
            report.workload(run.group.world(), s);
        }
        faults.heal();
        return next(run.index + 1);
    }

    /**
     * The phase's packet bound: the sum of its jobs' estimates (a shared phase's jobs share its
     * devices and their frames), or none when a job's kind gives no estimate.
     */
    private PacketBound bound(PhaseRun run) {
        long packets = 0;
        for (PhaseRun.JobRun j : run.jobs) {
            PhaseEstimate e = UseCases.estimate(j.phase, scenario, routing);
            if (e == null) {
                return null;
            }
            packets += e.packets();
        }
        for (PhaseRun.TrafficRun t : run.traffic) {
            packets += t.plan.packets();
        }
        PhaseEstimate all = new PhaseEstimate(packets, 0, 0);
        return new PacketBound(packets, all.frameLimit(scenario.topology()));
    }

    /**
     * The phase expecting what the faults that did apply explain: planned again without those
     * that never did (a switch crash after the phase ended cut nobody off, so nothing is expected
     * partial for it). The plan is the use case's own, as at the start.
     */
    private Phase expectingWhatApplied(PhaseRun run) {
        List<FaultSpec> applied = new ArrayList<>(scenario.faults());
        applied.removeAll(run.pendingFaults);
        List<Phase> again = PhasePlanner.plan(scenario.withFaults(applied), routing);
        Phase p = run.lead.phase;
        if (run.index >= again.size()) {
            return p;
        }
        Phase same = again.get(run.index);
        boolean matches =
                same.job().name().equals(p.job().name()) && same.mode().equals(p.mode());
        return matches ? p.withExpected(same.expected()) : p;
    }

    /**
     * E4: the devices of a lost member are gone, so the phase running now cannot finish: it
     * ends at once with what the live devices report, naming the loss, and the phases after
     * it do not run (each says why). Returns whether this loss is news.
     */
    private boolean memberLost(MemberLost m) {
        if (m.devices().isEmpty() || lost.containsAll(m.devices())) {
            return false;
        }
        lost.addAll(m.devices());
        List<String> names = new ArrayList<>(new TreeSet<>(m.devices()));
        lostReason = m.member() == null
                ? "device " + names.get(0) + " stopped"
                : "member " + m.member() + " lost with " + names.size() + " devices "
                        + (names.size() > 12 ? names.subList(0, 12) + "..." : names);
        ctx.getLog().error(lostReason);
        return true;
    }
}
