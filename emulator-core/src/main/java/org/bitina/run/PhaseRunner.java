package org.bitina.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Clock;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.time.WindowBarrier;
import org.bitina.usecase.Phase;

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
    private final Map<String, String> placement;
    private final ActorRef<String> syncs;
    private final ActorRef<DeviceCommand.DeviceStats> statsAdapter;
    private final ActorRef<MemberAgent.WindowReport> windowReports;
    private final List<MemberAgent.Handle> members;
    private final RunPlan plan;
    private final Fleet fleet;
    private final JobStarts starts;
    private final PhaseClose close;
    private final FaultInjector faults;
    private final ReportAssembler report;

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
        this.syncs = ctx.messageAdapter(String.class, Synced::new);
        this.statsAdapter = ctx.messageAdapter(DeviceCommand.DeviceStats.class, Stats::new);
        this.windowReports = ctx.messageAdapter(MemberAgent.WindowReport.class, WindowDone::new);
        this.members = List.copyOf(members);
        this.report = new ReportAssembler(scenario);
        this.plan = RunPlan.of(scenario);
        this.lostReason = plan.refused();
        report.plan(plan);
        progress.phases.set(plan.groups().size());
        this.fleet = new Fleet(scenario, spawned, ctx.messageAdapter(DeviceCommand.HostEvent.class, HostEvt::new));
        this.starts = new JobStarts(scenario, plan.routing(), fleet, ctx.getLog());
        this.close = new PhaseClose(scenario, plan.routing(), fleet, report);
        this.faults =
                new FaultInjector(scenario, fleet.devices(), List.copyOf(members), fleet.runSecret(), ctx.getLog());
        ctx.spawn(DeviceWatcher.create(fleet.devices(), ctx.getSelf()), "device-watcher");
        TopologyInstaller.wire(scenario, fleet.devices(), where, plan.routing(), trace);
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
            for (int j = i; j < plan.groups().size(); j++) {
                plan.groups()
                        .get(j)
                        .jobs()
                        .forEach(e -> report.notRun(e.phase(), new Ending(Ending.Cause.NOT_RUN, lostReason)));
            }
            i = plan.groups().size();
        }
        if (i == plan.groups().size()) {
            replyTo.tell(report.report(scenario.file(), scenario.clock(), placement));
            return Behaviors.ignore();
        }
        PhaseRun run = starts.phase(i, plan.groups().get(i));
        String label = run.group.label();
        progress.phase.set(i + 1);
        progress.modelledNanos.set(0);
        progress.results.set(0);
        progress.expectedResults.set(run.jobs.stream()
                .mapToLong(j -> (long) j.phase.awaited().size() * j.phase.units())
                .sum());
        progress.labels.put(i + 1, label);
        progress.label.set(label);
        ctx.getLog().info("phase {}/{}: {}", i + 1, plan.groups().size(), label);
        fleet.install(run);
        return synced(run, () -> starting(run));
    }

    /** Waits until every live device has handled what was sent to it before, then goes on. */
    private Behavior<Command> synced(PhaseRun run, Supplier<Behavior<Command>> then) {
        run.touched = true;
        Set<String> waiting = fleet.sync(syncs);
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
        run.jobs.stream().filter(j -> j.atStart == null).forEach(j -> fleet.startDrivers(j.phase));
        fleet.startTraffic(run);
        return synced(run, () -> running(run));
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
        fleet.begin(p, 0);
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
                    applyFault(run, m.fault(), 0);
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
        run.barrier = new WindowBarrier(members.size(), plan.lookahead());
        faultsAtStart(run);
        if (run.jobs.stream().allMatch(j -> j.phase.awaited().isEmpty()) && run.traffic.isEmpty()) {
            return endOfEndpoints(run);
        }
        starts.beginDue(run, 0);
        fleet.beginTraffic(run);
        // every host has begun (and every fault at zero is in) before the first window
        return synced(run, () -> window(run, 0));
    }

    /**
     * A phase's network faults at time zero go in now, in force before the first packet (these
     * messages reach every device before any frame does); the later ones wait, in time order. A
     * shared world's job alone, and its traffic alone, run on the healthy fabric: they are the
     * reference the mix's slowdowns are taken against (docs/shared-fabric.md).
     */
    private void faultsAtStart(PhaseRun run) {
        if (run.lead == null || run.group.alone()) {
            return;
        }
        for (FaultSpec f : scenario.faults()) {
            if (f.inNetwork() && f.at().isZero()) {
                applyFault(run, f, 0);
            } else if (f.inNetwork()) {
                run.pendingFaults.add(f);
            }
        }
        run.pendingFaults.sort(Comparator.comparing(FaultSpec::at));
    }

    /** A network fault on the phase's one fabric, at modelled time {@code vt}: every job of the phase meets it. */
    private void applyFault(PhaseRun run, FaultSpec f, long vt) {
        List<Phase> now = faults.apply(f, run.jobs.stream().map(j -> j.phase).toList(), vt);
        for (int k = 0; k < now.size(); k++) {
            run.jobs.get(k).phase = now.get(k);
        }
        run.appliedFaults.add(f);
    }

    private long nextFaultNanos(PhaseRun run) {
        return run.pendingFaults.isEmpty()
                ? Long.MAX_VALUE
                : run.pendingFaults.get(0).at().toNanos();
    }

    private Behavior<Command> window(PhaseRun run, long start) {
        WindowBarrier barrier = run.barrier;
        // a window ends at the next fault or the next job's start: each lands exactly at its time
        long end = barrier.end(start, Math.min(nextFaultNanos(run), run.nextBeginNanos()));
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
                        r.done().forEach(run::completed);
                    } else if (r.window() == barrier.window()) {
                        barrier.report(r.member(), r.window(), t.sentTo(), t.received(), r.next(), t.arrivals());
                        r.done().forEach(run::completed);
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
        if (starts.releaseFinished(run)) {
            // every switch has the grants back before the next window
            return synced(run, () -> afterWindow(run, end));
        }
        long next = run.barrier.next();
        run.tellFinished();
        if (starts.beginDue(run, end)) {
            // jobs that waited for others begin where the window in which the last of those completed ends
            return synced(run, () -> window(run, end));
        }
        boolean allFinished = run.allFinished();
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
                run.nextBeginNanos(),
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
                applyFault(run, run.pendingFaults.remove(0), f.at());
            }
            // every device has the fault before the window that starts at its time
            return synced(run, () -> window(run, f.at()));
        }
        if (step instanceof WindowStep.Begin bg) {
            starts.beginDue(run, bg.at());
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
        ctx.getLog().info("{}: {}", run.group.label(), why.why());
        return endNow(run, why);
    }

    private Behavior<Command> finishedVirtual(PhaseRun run) {
        run.wall = System.nanoTime() - run.start;
        ctx.getLog()
                .info("{}: {} windows of at most {} ns", run.group.label(), run.barrier.windows(), plan.lookahead());
        return collecting(run);
    }

    private Behavior<Command> onHostEvent(PhaseRun run, HostEvt m) {
        if (m.event() instanceof DeviceCommand.Progress pr
                && pr.tenant() != TrafficFlows.TENANT
                && run.jobs.stream().anyMatch(j -> j.phase.wireJobs().contains(pr.job()))) {
            progress.results.addAndGet(pr.results());
            run.results += pr.results();
        } else if (m.event() instanceof DeviceCommand.DriverDone d) {
            // the real clock: completions come one by one; the virtual clock's come with its windows (onDone alike)
            run.completed(d);
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
        fleet.collect(run, statsAdapter);
        int each = run.jobs.size() + run.traffic.size();
        return Behaviors.receive(Command.class)
                .onMessage(Stats.class, m -> {
                    stats.computeIfAbsent(m.stats().node(), k -> new ArrayList<>())
                            .add(m.stats());
                    return fleet.allIn(stats, each) ? phaseDone(run, stats) : Behaviors.same();
                })
                // the stats of the lost devices will not come: go on with those that did
                .onMessage(
                        MemberLost.class,
                        m -> memberLost(m) && fleet.allIn(stats, each) ? phaseDone(run, stats) : Behaviors.same())
                .build();
    }

    private Behavior<Command> phaseDone(PhaseRun run, Map<String, List<DeviceCommand.DeviceStats>> stats) {
        close.close(run, stats);
        faults.heal();
        return next(run.index + 1);
    }

    /**
     * E4: the devices of a lost member are gone, so the phase running now cannot finish: it
     * ends at once with what the live devices report, naming the loss, and the phases after
     * it do not run (each says why). Returns whether this loss is news.
     */
    private boolean memberLost(MemberLost m) {
        String why = fleet.lose(m.member(), m.devices());
        if (why == null) {
            return false;
        }
        lostReason = why;
        ctx.getLog().error(lostReason);
        return true;
    }
}
