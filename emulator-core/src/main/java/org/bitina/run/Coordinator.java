package org.bitina.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.device.DeviceCommand;
import org.bitina.device.DriverSpec;
import org.bitina.device.HostActor;
import org.bitina.device.SwitchActor;
import org.bitina.job.DriverReport;
import org.bitina.job.Verifier;
import org.bitina.protocol.Counter;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.Bift;
import org.bitina.topology.FaultSpec;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Scenario;

/**
 * Runs a scenario (DESIGN.md data flow): spawns one actor per device, wires neighbours,
 * then for each phase installs the control-plane state, waits until every device has it,
 * starts the drivers, applies the fault plan on time, waits for the endpoints (or the
 * deadline), collects every device's counters and builds the report.
 */
public final class Coordinator extends AbstractBehavior<Coordinator.Command> {
    /** The coordinator's own protocol: local to the JVM that runs it (what devices send it is ControlMessage). */
    public interface Command extends org.apache.pekko.actor.NoSerializationVerificationNeeded {
    }

    /** Start the run; the report goes to {@code replyTo}. */
    public record Run(ActorRef<Report> replyTo) implements Command {
    }

    /** E4: a cluster member left or was downed; these devices went with it. */
    public record MemberLost(String member, java.util.Set<String> devices) implements Command {
    }

    private record HostEvt(DeviceCommand.HostEvent event) implements Command {
    }

    private record Synced(String node) implements Command {
    }

    private record Stats(DeviceCommand.DeviceStats stats) implements Command {
    }

    private record Deadline(int phase) implements Command {
    }

    private record Settled(int phase) implements Command {
    }

    private record ApplyFault(int phase, FaultSpec fault) implements Command {
    }

    private record StallCheck(int phase) implements Command {
    }

    /** Per-device limits: live aggregation entries per job and the tombstone time. */
    public record Limits(int maxEntriesPerJob, Duration tombstone) {
        public static final Limits DEFAULT = new Limits(4096, Duration.ofSeconds(5));
    }

    private static final Duration STALL_CHECK = Duration.ofMillis(250);
    private static final Duration STALL_MIN = Duration.ofSeconds(5);

    private final Scenario scenario;
    private final RunProgress progress;
    private final TimerScheduler<Command> timers;
    private final Map<String, ActorRef<DeviceCommand>> devices = new LinkedHashMap<>();
    private final ActorRef<DeviceCommand.HostEvent> hostEvents;
    private final ActorRef<String> syncs;
    private final ActorRef<DeviceCommand.DeviceStats> statsAdapter;
    private final List<Phase> phases;
    private final Set<Link> downLinks = new HashSet<>();
    private final Set<String> downNodes = new HashSet<>();
    private final List<Report.JobReport> jobReports = new ArrayList<>();
    private final List<Report.LinkReport> linkReports = new ArrayList<>();
    private final Map<String, Report.SwitchReport> switchReports = new LinkedHashMap<>();
    private Routing routing;
    private ActorRef<Report> replyTo;

    private final Map<String, String> placement;
    private final List<ActorRef<org.bitina.cluster.MemberAgent.Command>> members;
    /** Devices on members that were lost (E4), and why the run cannot go on. */
    private final java.util.Set<String> lost = new java.util.HashSet<>();
    private String lostReason;
    private int current = -1;
    private int pendingSyncs;
    private Runnable afterSync;
    private long phaseStart;
    private long phaseWall;
    private final Map<String, DriverReport> done = new HashMap<>();
    private final Map<String, DeviceCommand.DeviceStats> stats = new HashMap<>();
    private boolean collecting;
    private long lastActivity;
    private long lastResults;
    private String stalled;

    /**
     * @param devices   every device's actor, wherever the placement put it
     * @param placement device to the cluster member that runs it (for the report)
     */
    public static Behavior<Command> create(Scenario scenario, Map<String, ActorRef<DeviceCommand>> devices, Map<String, String> placement,
                                           List<ActorRef<org.bitina.cluster.MemberAgent.Command>> members, ActorRef<TraceEvent> trace,
                                           RunProgress progress) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new Coordinator(ctx, timers, scenario, devices, placement, members,
                trace, progress)));
    }

    private Coordinator(ActorContext<Command> ctx, TimerScheduler<Command> timers, Scenario scenario,
                        Map<String, ActorRef<DeviceCommand>> spawned, Map<String, String> placement,
                        List<ActorRef<org.bitina.cluster.MemberAgent.Command>> members, ActorRef<TraceEvent> trace, RunProgress progress) {
        super(ctx);
        this.placement = Map.copyOf(placement);
        this.members = List.copyOf(members);
        this.scenario = scenario;
        this.progress = progress;
        this.timers = timers;
        this.hostEvents = ctx.messageAdapter(DeviceCommand.HostEvent.class, HostEvt::new);
        this.syncs = ctx.messageAdapter(String.class, Synced::new);
        this.statsAdapter = ctx.messageAdapter(DeviceCommand.DeviceStats.class, Stats::new);
        this.routing = Routing.compute(scenario.topology());
        this.phases = PhasePlanner.plan(scenario, routing);
        progress.phases.set(phases.size());
        for (Node n : scenario.topology().nodes()) {
            devices.put(n.name(), spawned.get(n.name()));
        }
        long seed = 1;
        for (Node n : scenario.topology().nodes()) {
            Map<String, ActorRef<DeviceCommand>> nbrs = new LinkedHashMap<>();
            Map<String, LinkSpec> specs = new LinkedHashMap<>();
            for (Link l : scenario.topology().linksOf(n.name())) {
                String o = l.other(n.name());
                nbrs.put(o, devices.get(o));
                specs.put(o, l.spec());
            }
            devices.get(n.name()).tell(new DeviceCommand.Wire(nbrs, specs, routing, seed, trace));
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Run.class, this::onRun)
                .onMessage(MemberLost.class, this::onMemberLost)
                .onMessage(Synced.class, this::onSynced)
                .onMessage(HostEvt.class, this::onHostEvent)
                .onMessage(Deadline.class, this::onDeadline)
                .onMessage(Settled.class, this::onSettled)
                .onMessage(ApplyFault.class, this::onFault)
                .onMessage(StallCheck.class, this::onStallCheck)
                .onMessage(Stats.class, this::onStats)
                .build();
    }

    private Behavior<Command> onRun(Run m) {
        replyTo = m.replyTo();
        nextPhase();
        return this;
    }

    private void syncAll(Runnable then) {
        pendingSyncs = devices.size();
        afterSync = then;
        devices.values().forEach(d -> d.tell(new DeviceCommand.Sync(syncs)));
    }

    private Behavior<Command> onSynced(Synced m) {
        if (--pendingSyncs == 0 && afterSync != null) {
            Runnable r = afterSync;
            afterSync = null;
            r.run();
        }
        return this;
    }

    private void nextPhase() {
        current++;
        if (lostReason != null) {
            for (; current < phases.size(); current++) {
                jobReports.add(notRun(phases.get(current), "not run: " + lostReason));
            }
        }
        if (current == phases.size()) {
            phases.stream().filter(p -> p.plan() != null).forEach(p -> Verifier.forget(p.plan().data()));
            replyTo.tell(new Report(scenario.file(), List.of(Verifier.FLOAT_TOLERANCE, org.bitina.job.MoeSource.TOLERANCE),
                    List.copyOf(jobReports), List.copyOf(linkReports),
                    List.copyOf(switchReports.values()), placement));
            return;
        }
        Phase p = phases.get(current);
        done.clear();
        stats.clear();
        collecting = false;
        progress.phase.set(current + 1);
        progress.results.set(0);
        progress.expectedResults.set((long) p.awaited().size() * p.units());
        progress.label.set(p.job().name() + " " + p.mode());
        getContext().getLog().info("phase {}/{}: job {} mode {}", current + 1, phases.size(), p.job().name(), p.mode());
        devices.values().forEach(d -> d.tell(DeviceCommand.ResetLinks.INSTANCE));
        p.tables().forEach((node, t) -> devices.get(node).tell(new DeviceCommand.InstallJob(t)));
        syncAll(() -> startPhase(p));
    }

    private void startPhase(Phase p) {
        phaseStart = System.nanoTime();
        for (FaultSpec f : scenario.faults()) {
            if (f.kind() == FaultSpec.Kind.STRAGGLER || f.kind() == FaultSpec.Kind.SILENT) {
                continue;
            }
            if (f.at().isZero()) {
                // in force before the first packet: these messages reach every device before any frame does
                onFault(new ApplyFault(current, f));
            } else {
                timers.startSingleTimer(new ApplyFault(current, f), f.at());
            }
        }
        for (DriverSpec d : p.drivers()) {
            devices.get(d.host()).tell(new DeviceCommand.StartDriver(d, hostEvents));
        }
        // every host knows its drivers before any of them sends: then begin
        java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
        p.drivers().forEach(d -> hosts.add(d.host()));
        int phase = current;
        syncAll(() -> {
            if (phase == current && !collecting) {
                phaseStart = System.nanoTime();
                hosts.forEach(h -> devices.get(h).tell(new DeviceCommand.BeginJob(p.job().common().tenant(), p.wireJob())));
            }
        });
        timers.startSingleTimer("deadline", new Deadline(current), p.deadline());
        lastActivity = phaseStart;
        lastResults = -1;
        stalled = null;
        timers.startTimerWithFixedDelay("stall", new StallCheck(current), STALL_CHECK);
        if (p.awaited().isEmpty()) {
            endOfEndpoints(p);
        }
    }

    private Behavior<Command> onHostEvent(HostEvt m) {
        Phase p = current >= 0 && current < phases.size() ? phases.get(current) : null;
        if (p == null) {
            return this;
        }
        if (m.event() instanceof DeviceCommand.Progress pr && pr.job() == p.wireJob()) {
            progress.results.addAndGet(pr.results());
        } else if (m.event() instanceof DeviceCommand.DriverDone d && d.job() == p.wireJob() && !collecting) {
            if (p.awaited().contains(d.report().endpoint()) && awaitedRole(d.report())) {
                done.put(d.report().endpoint(), d.report());
                if (done.keySet().containsAll(p.awaited())) {
                    endOfEndpoints(p);
                }
            }
        }
        return this;
    }

    /** Workers and MoE sources end a phase; servers and experts serve them. */
    private static boolean awaitedRole(DriverReport r) {
        return r.role().endsWith("worker") || r.role().equals("moe-source") || r.role().equals("multicast-source");
    }

    private void endOfEndpoints(Phase p) {
        if (collecting) {
            return;
        }
        collecting = true;
        phaseWall = System.nanoTime() - phaseStart;
        timers.cancel("deadline");
        timers.cancel("stall");
        boolean anyPartial = done.values().stream().anyMatch(r -> !r.partialChunks().isEmpty());
        if (anyPartial) {
            // leave stragglers time to be folded in at the root before the results are read
            long settle = Math.min(10_000_000_000L, 2 * p.timeoutNanos() + p.maxStraggleNanos());
            timers.startSingleTimer(new Settled(current), Duration.ofNanos(settle));
        } else {
            collect(p);
        }
    }

    private Behavior<Command> onDeadline(Deadline m) {
        if (m.phase() == current && !collecting) {
            Phase p = phases.get(current);
            getContext().getLog().warn("job {} mode {}: deadline of {} passed with {} of {} endpoints done", p.job().name(), p.mode(),
                    p.deadline(), done.size(), p.awaited().size());
            collecting = true;
            phaseWall = System.nanoTime() - phaseStart;
            collect(p);
        }
        return this;
    }

    /**
     * A phase in which no endpoint has received anything for the stall period cannot finish:
     * it ends as failed at once instead of waiting out its deadline (a ring with a dead member).
     */
    private Behavior<Command> onStallCheck(StallCheck m) {
        if (m.phase() != current || collecting) {
            return this;
        }
        Phase p = phases.get(current);
        long now = System.nanoTime();
        long results = progress.results() + done.size();
        if (results != lastResults) {
            lastResults = results;
            lastActivity = now;
            return this;
        }
        long stallNanos = Math.max(STALL_MIN.toNanos(), Math.max(20 * p.timeoutNanos(), 2 * p.maxStraggleNanos()));
        if (now - lastActivity > stallNanos) {
            stalled = "no endpoint received anything for " + stallNanos / 1_000_000 + " ms";
            getContext().getLog().warn("job {} mode {}: stalled ({})", p.job().name(), p.mode(), stalled);
            collecting = true;
            phaseWall = now - phaseStart;
            timers.cancel("deadline");
            collect(p);
        }
        return this;
    }

    private Behavior<Command> onSettled(Settled m) {
        if (m.phase() == current) {
            collect(phases.get(current));
        }
        return this;
    }

    private void collect(Phase p) {
        stats.clear();
        devices.forEach((n, d) -> {
            if (!lost.contains(n)) {
                d.tell(new DeviceCommand.CollectStats(p.job().common().tenant(), p.wireJob(), statsAdapter));
            }
        });
    }

    /**
     * E4: the devices of a lost member are gone, so the phase running now cannot finish: it
     * ends at once with what the live devices report, naming the loss, and the phases after
     * it do not run (each says why). The run ends; nothing waits on the lost devices.
     */
    private Behavior<Command> onMemberLost(MemberLost m) {
        if (m.devices().isEmpty() || lost.containsAll(m.devices())) {
            return this;
        }
        lost.addAll(m.devices());
        java.util.List<String> names = new java.util.ArrayList<>(new java.util.TreeSet<>(m.devices()));
        lostReason = "member " + m.member() + " lost with " + names.size() + " devices " + (names.size() > 12
                ? names.subList(0, 12) + "..." : names);
        getContext().getLog().error(lostReason);
        if (current >= 0 && current < phases.size()) {
            stalled = lostReason;
            if (!collecting) {
                collecting = true;
                phaseWall = System.nanoTime() - phaseStart;
                timers.cancel("deadline");
                timers.cancel("stall");
                collect(phases.get(current));
            } else {
                // the stats of the lost devices will not come: go on with those that did
                onStats(null);
            }
        }
        return this;
    }

    private Report.JobReport notRun(Phase p, String why) {
        return new Report.JobReport(p.job().name(), p.job().common().kind().configName(), p.mode(), "failed", false,
                List.copyOf(p.awaited()), 0, 0, 0, 0, 0, 0, 0, 0, p.expectedStatus(), false, p.roots() == null ? null
                : String.join(",", p.roots()), p.units(), p.awaited().size(), List.of(), List.of(), List.of(why), 0, 0, 0, why, 0,
                List.of(), Map.of());
    }

    private boolean allStats() {
        for (String n : devices.keySet()) {
            if (!lost.contains(n) && !stats.containsKey(n)) {
                return false;
            }
        }
        return true;
    }

    private Behavior<Command> onStats(Stats m) {
        if (m != null) {
            stats.put(m.stats().node(), m.stats());
        }
        if (collecting && allStats() && current >= 0 && current < phases.size() && jobReports.size() == current) {
            Phase p = phases.get(current);
            jobReports.add(buildReport(p));
            for (DeviceCommand.DeviceStats s : stats.values()) {
                for (DeviceCommand.LinkStats l : s.links()) {
                    if (l.packets() > 0 || l.lost() > 0) {
                        linkReports.add(new Report.LinkReport(p.job().name(), p.mode(), l.from(), l.to(), l.packets(), l.bytes(),
                                l.headerBytes(), l.lost()));
                    }
                }
                if (s.isSwitch()) {
                    switchReports.merge(s.node(), new Report.SwitchReport(s.node(), s.peakStateEntries(), s.peakBufferedBytes(), s.incTrees()),
                            (a, b) -> new Report.SwitchReport(a.name(), Math.max(a.peakStateEntries(), b.peakStateEntries()),
                                    Math.max(a.peakBufferedBytes(), b.peakBufferedBytes()), Math.max(a.incTrees(), b.incTrees())));
                }
            }
            timers.cancelAll();
            healFaults();
            nextPhase();
        }
        return this;
    }

    private Report.JobReport buildReport(Phase p) {
        Map<String, DriverReport> workers = new LinkedHashMap<>();
        for (DeviceCommand.DeviceStats s : stats.values()) {
            for (DriverReport r : s.drivers()) {
                if (awaitedRole(r) && p.awaited().contains(r.endpoint())) {
                    workers.put(r.endpoint(), r);
                }
            }
        }
        List<String> unfinished = new ArrayList<>();
        List<String> mismatches = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        List<Report.PartialChunk> partial = new ArrayList<>();
        Set<String> missing = new TreeSet<>();
        long lastVt = 0;
        boolean allVerified = true;
        for (String e : p.awaited()) {
            DriverReport r = workers.get(e);
            if (r == null || !r.done()) {
                unfinished.add(e + (r == null ? "" : " (" + r.received() + " of " + r.chunks() + " chunks)"));
                missing.add(e);
                allVerified = false;
                continue;
            }
            r.mismatches().forEach(x -> mismatches.add(e + ": " + x));
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
        Map<String, Long> extra = new java.util.TreeMap<>();
        int rounds = 0;
        for (DriverReport r : workers.values()) {
            r.stats().forEach((k, v) -> extra.merge(k, v, Long::sum));
        }
        if (p.multicast() != null) {
            rounds = extra.getOrDefault("retransmissionRounds", 0L).intValue();
            // every live receiver must hold the whole block and its checksum must match (R5)
            for (DeviceCommand.DeviceStats s : stats.values()) {
                for (DriverReport r : s.drivers()) {
                    if (!r.role().equals("receiver")) {
                        continue;
                    }
                    r.stats().forEach((k, v) -> extra.merge(k, v, Long::sum));
                    r.mismatches().forEach(x -> mismatches.add(r.endpoint() + ": " + x));
                    if (!r.done() && !missing.contains(r.endpoint())) {
                        unfinished.add(r.endpoint() + " (receiver holds " + r.received() + " of " + r.chunks() + " packets)");
                        allVerified = false;
                    }
                }
            }
        }
        missing.addAll(p.expectedMissing().stream().filter(x -> !missing.contains(x) && !unfinished.isEmpty()).toList());
        boolean verified = allVerified && mismatches.isEmpty() && unfinished.isEmpty();
        String status = !unfinished.isEmpty() || !mismatches.isEmpty() ? "failed" : partial.isEmpty() ? "complete" : "partial";
        boolean asExpected = switch (p.expectedStatus()) {
            case "complete" -> status.equals("complete") && verified;
            // what the silent endpoints could take away, and nothing else
            case "partial" -> (status.equals("partial") || status.equals("complete")) && verified
                    && p.expectedMissing().containsAll(missing);
            default -> status.equals(p.expectedStatus());
        };
        long maxLink = 0;
        long total = 0;
        long header = 0;
        long packets = 0;
        long lost = 0;
        long timeouts = 0;
        long late = 0;
        long drops = 0;
        long intoRoot = 0;
        long sourceUplink = 0;
        for (DeviceCommand.DeviceStats s : stats.values()) {
            for (DeviceCommand.LinkStats l : s.links()) {
                maxLink = Math.max(maxLink, l.bytes());
                total += l.bytes();
                header += l.headerBytes();
                packets += l.packets();
                lost += l.lost();
            }
            timeouts += s.counters().getOrDefault(Counter.TIMEOUTS, 0L);
            late += s.counters().getOrDefault(Counter.LATE, 0L);
            drops += s.counters().getOrDefault(Counter.DROPS, 0L);
            long in = s.counters().getOrDefault(Counter.FRAMES_IN, 0L);
            if (p.roots() != null) {
                if (p.roots().contains(s.node())) {
                    intoRoot += in;
                }
            } else if (p.job().common().members().contains(s.node())) {
                intoRoot = Math.max(intoRoot, in);
            }
            for (DeviceCommand.LinkStats l : s.links()) {
                if (p.moe() != null && (p.moe().sources().contains(l.from()) || p.moe().sources().contains(l.to()))) {
                    sourceUplink += l.bytes();
                }
            }
        }
        String note = p.note() + (p.vat() != null ? "; A-BMs " + p.vat().aBms() : "") + (stalled != null ? "; stalled: " + stalled : "");
        return new Report.JobReport(p.job().name(), p.job().common().kind().configName(), p.mode(), status, verified,
                List.copyOf(missing), phaseWall / 1_000_000, lastVt / 1000.0, intoRoot, maxLink, total, header, timeouts, rounds,
                p.expectedStatus(), asExpected, p.roots() == null ? null : String.join(",", p.roots()), p.units(), p.awaited().size(),
                partial, mismatches,
                unfinished, late, drops + lost, packets, note, sourceUplink, dropped, extra);
    }

    // ------------------------------------------------------------------ faults

    private Behavior<Command> onFault(ApplyFault m) {
        if (m.phase() != current || collecting) {
            return this;
        }
        FaultSpec f = m.fault();
        getContext().getLog().info("fault at {}: {}", f.at(), f.kind().configName());
        switch (f.kind()) {
            case LINK_DOWN, LINK_UP -> {
                boolean up = f.kind() == FaultSpec.Kind.LINK_UP;
                linkFault(f.link(), up, null, null, null, null);
                if (up) {
                    downLinks.remove(f.link());
                } else {
                    downLinks.add(f.link());
                }
                reroute();
            }
            case SWITCH_CRASH -> {
                devices.get(f.node()).tell(DeviceCommand.Crash.INSTANCE);
                downNodes.add(f.node());
                reroute();
            }
            case LOSS -> forLinks(f.link(), null, f.rate(), null, null, null);
            case DUPLICATE -> forLinks(f.link(), null, null, f.rate(), null, null);
            case REORDER -> forLinks(f.link(), null, null, null, f.rate(), null);
            case DELAY -> forLinks(f.link(), null, null, null, null, f.delay().toNanos());
            case MEMBER_LOSS -> {
                if (f.member() <= 0 || f.member() >= members.size()) {
                    getContext().getLog().warn("member-loss of member {}: the run has members 1..{} to lose (0 runs the coordinator)",
                            f.member(), members.size() - 1);
                } else {
                    // as kill -9: the member's JVM halts (or, in a test, its ActorSystem stops); the cluster finds out
                    members.get(f.member()).tell(new org.bitina.cluster.MemberAgent.Halt());
                }
            }
            default -> getContext().getLog().warn("fault kind {} is not applied by this version", f.kind().configName());
        }
        return this;
    }

    private void forLinks(Link link, Boolean up, Double loss, Double dup, Double reorder, Long delay) {
        if (link != null) {
            linkFault(link, up, loss, dup, reorder, delay);
        } else {
            scenario.topology().links().forEach(l -> linkFault(l, up, loss, dup, reorder, delay));
        }
    }

    private void linkFault(Link l, Boolean up, Double loss, Double dup, Double reorder, Long delay) {
        devices.get(l.a()).tell(new DeviceCommand.LinkFault(l.b(), up, loss, dup, reorder, delay));
        devices.get(l.b()).tell(new DeviceCommand.LinkFault(l.a(), up, loss, dup, reorder, delay));
    }

    /** Recomputes routing and BIFTs around what is down (F7: no bitmap changes). */
    private void reroute() {
        routing = Routing.compute(scenario.topology(), Set.copyOf(downLinks), Set.copyOf(downNodes));
        Phase p = phases.get(current);
        for (Node n : scenario.topology().nodes()) {
            Map<JobKey, Bift> bifts = new HashMap<>();
            JobTables t = p.tables().get(n.name());
            if (t != null && t.bift() != null) {
                bifts.put(t.key(), Bift.build(routing, n.name(), p.job().common().bitSpace()));
            }
            devices.get(n.name()).tell(new DeviceCommand.Reroute(routing, bifts));
        }
    }

    /** Between phases the network is restored, so every mode meets the same fault plan from a clean start. */
    private void healFaults() {
        for (Link l : scenario.topology().links()) {
            linkFault(l, Boolean.TRUE, l.spec().loss(), 0.0, 0.0, 0L);
        }
        if (!downLinks.isEmpty() || !downNodes.isEmpty()) {
            downNodes.forEach(n -> devices.get(n).tell(DeviceCommand.Recover.INSTANCE));
            downLinks.clear();
            downNodes.clear();
            routing = Routing.compute(scenario.topology());
            for (Node n : scenario.topology().nodes()) {
                devices.get(n.name()).tell(new DeviceCommand.Reroute(routing, Map.of()));
            }
        }
    }
}
