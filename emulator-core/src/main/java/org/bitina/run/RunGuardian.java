package org.bitina.run;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.cluster.typed.Subscribe;
import org.bitina.cluster.ClusterSettings;
import org.bitina.cluster.MemberAgent;
import org.bitina.device.DeviceCommand;
import org.bitina.device.Recorder;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Node;
import org.bitina.topology.Placements;

/**
 * The guardian of a run's ActorSystem (E2): this JVM's member agent, the trace writer when
 * asked; it waits for the expected members, places the devices on them, starts the
 * {@link PhaseRunner} as a cluster singleton once every member has spawned its devices,
 * tells it of members that are lost, and hands the report out after the trace is flushed.
 */
final class RunGuardian extends AbstractBehavior<RunGuardian.Command> {
    sealed interface Command extends NoSerializationVerificationNeeded {}

    /** Run the scenario; the report goes to {@code replyTo}. */
    record Start(ActorRef<Report> replyTo) implements Command {}

    private record Finished(Report report) implements Command {}

    private record TraceClosed(Boolean ok) implements Command {}

    private record Members(Receptionist.Listing listing) implements Command {}

    private record LocalMember(ActorRef<MemberAgent.Command> agent) implements Command {}

    private record Placed(MemberAgent.Spawned spawned) implements Command {}

    private enum MembersLate implements Command {
        INSTANCE
    }

    private record Removed(ClusterEvent.MemberRemoved event) implements Command {}

    private final Scenario scenario;
    private final ScenarioRunner.Options options;
    private final RunProgress progress;
    private final Consumer<String> failure;
    private final Cluster cluster;
    private final TimerScheduler<Command> timers;
    private final Recorder trace;
    private final ActorRef<Object> traceWriter;
    private final ActorRef<MemberAgent.Spawned> placed;
    private final ActorRef<Report> finished;
    private final ActorRef<Boolean> closed;
    private final Map<String, ActorRef<DeviceCommand>> devices = new LinkedHashMap<>();
    private final Map<String, String> placement = new TreeMap<>();
    /** Device to the index of the member running it. */
    private Map<String, Integer> where = Map.of();

    private final List<MemberAgent.Handle> members = new ArrayList<>();
    /** Members yet to report their devices; -1 until the placement went out. */
    private int pending = -1;
    /** Names this run's devices and its runner singleton. */
    private String runName;

    private ActorRef<Report> requester;
    private ActorRef<PhaseRunner.Command> runner;
    private Report report;

    /** @param failure told why, when the run cannot start (the cluster did not form) */
    static Behavior<Command> create(
            Scenario scenario, ScenarioRunner.Options options, RunProgress progress, Consumer<String> failure) {
        return Behaviors.setup(ctx ->
                Behaviors.withTimers(timers -> new RunGuardian(ctx, timers, scenario, options, progress, failure)));
    }

    private RunGuardian(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            Scenario scenario,
            ScenarioRunner.Options options,
            RunProgress progress,
            Consumer<String> failure) {
        super(ctx);
        this.scenario = scenario;
        this.options = options;
        this.progress = progress;
        this.failure = failure;
        if (options.records()) {
            ActorRef<TraceWriter.Command> writer = ctx.spawn(
                    TraceWriter.create(
                            options.trace(), options.pcap(), scenario.clock().configName(), options.traceFilter()),
                    "trace-writer");
            traceWriter = ctx.spawn(TraceWriter.adapter(writer), "trace");
            trace = new Recorder(traceWriter.narrow(), options.trace() != null, options.pcap() != null);
        } else {
            traceWriter = null;
            trace = null;
        }
        // this JVM is a member like any other; in a cluster with no seeds to join, it founds one of its own
        ActorRef<MemberAgent.Command> agent = ctx.spawn(MemberAgent.create(), "member");
        // alone on the local provider there is no cluster to join or watch (ClusterSettings.alone)
        cluster = ClusterSettings.clustered(ctx.getSystem()) ? Cluster.get(ctx.getSystem()) : null;
        if (cluster != null
                && ctx.getSystem()
                        .settings()
                        .config()
                        .getStringList("pekko.cluster.seed-nodes")
                        .isEmpty()) {
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
        }
        if (options.members() == 1) {
            // alone: its own agent is the only member, no need to wait for the receptionist's listing (it comes in
            // batches)
            ctx.getSelf().tell(new LocalMember(agent));
        } else {
            ctx.getSystem()
                    .receptionist()
                    .tell(Receptionist.subscribe(
                            MemberAgent.KEY, ctx.messageAdapter(Receptionist.Listing.class, Members::new)));
        }
        timers.startSingleTimer(MembersLate.INSTANCE, options.membersTimeout());
        this.timers = timers;
        placed = ctx.messageAdapter(MemberAgent.Spawned.class, Placed::new);
        finished = ctx.messageAdapter(Report.class, Finished::new);
        closed = ctx.messageAdapter(Boolean.class, TraceClosed::new);
        // E4: a member that leaves or is downed (the split brain resolver) takes its devices with it
        if (cluster != null) {
            cluster.subscriptions()
                    .tell(Subscribe.create(
                            ctx.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new),
                            ClusterEvent.MemberRemoved.class));
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Members.class, this::onMembers)
                .onMessage(LocalMember.class, m -> place(new ArrayList<>(List.of(m.agent()))))
                .onMessage(Placed.class, this::onPlaced)
                .onMessage(Removed.class, this::onRemoved)
                .onMessageEquals(MembersLate.INSTANCE, this::onMembersLate)
                .onMessage(Start.class, this::onStart)
                .onMessage(Finished.class, this::onFinished)
                .onMessage(TraceClosed.class, this::onTraceClosed)
                .build();
    }

    /** E2: once the expected members are there, the placement, then each member spawns its devices. */
    private Behavior<Command> onMembers(Members l) {
        List<ActorRef<MemberAgent.Command>> agents = new ArrayList<>();
        for (ActorRef<MemberAgent.Command> a : l.listing().getServiceInstances(MemberAgent.KEY)) {
            // in this JVM only this run's own agent: a session's earlier runs had theirs
            if (!a.path().address().hasLocalScope()
                    || a.path().parent().equals(getContext().getSelf().path())) {
                agents.add(a);
            }
        }
        return place(agents);
    }

    private Behavior<Command> place(List<ActorRef<MemberAgent.Command>> agents) {
        if (pending >= 0 || agents.size() < options.members()) {
            return this;
        }
        // this JVM's agent first, then the others in a stable order
        agents.sort(Comparator.comparing(
                        (ActorRef<MemberAgent.Command> a) -> !a.path().address().hasLocalScope())
                .thenComparing(a -> a.path().toString()));
        agents = agents.subList(0, options.members());
        // a token per member, known only to it and to this coordinator: what makes the member take
        // the devices and, later, a halt (MemberAgent, CommandGate); the voucher confirms it to the member
        SecureRandom random = new SecureRandom();
        Map<ActorRef<MemberAgent.Command>, byte[]> issued = new HashMap<>();
        for (ActorRef<MemberAgent.Command> a : agents) {
            byte[] token = new byte[16];
            random.nextBytes(token);
            issued.put(a, token);
            members.add(new MemberAgent.Handle(a, token));
        }
        where = Placements.place(scenario.topology(), scenario.cluster(), agents.size());
        pending = agents.size();
        runName = Long.toString(System.nanoTime(), 36);
        ActorRef<MemberAgent.Vouch> voucher = getContext().spawn(MemberAgent.voucher(issued), "vouch-" + runName);
        for (int i = 0; i < agents.size(); i++) {
            List<String> switches = new ArrayList<>();
            List<String> hosts = new ArrayList<>();
            for (Node n : scenario.topology().nodes()) {
                if (where.get(n.name()) == i) {
                    (n.isSwitch() ? switches : hosts).add(n.name());
                }
            }
            agents.get(i)
                    .tell(new MemberAgent.SpawnDevices(
                            runName,
                            switches,
                            hosts,
                            options.limits().maxEntriesPerJob(),
                            options.limits().tombstone().toNanos(),
                            placed,
                            i,
                            agents.size(),
                            scenario.clock() == Clock.VIRTUAL,
                            issued.get(agents.get(i)),
                            voucher,
                            List.copyOf(agents)));
        }
        return this;
    }

    private Behavior<Command> onPlaced(Placed p) {
        devices.putAll(p.spawned().devices());
        p.spawned().devices().keySet().forEach(d -> placement.put(d, p.spawned().member()));
        if (--pending == 0) {
            timers.cancelAll();
            // a cluster singleton: one runner however many members; it runs on the oldest member,
            // which is this one (the seed comes up first), and only this one defines it
            Behavior<PhaseRunner.Command> behavior =
                    PhaseRunner.create(scenario, devices, placement, where, members, trace, progress);
            // alone, the runner is this guardian's child and goes with it; in a cluster, a singleton
            runner = options.members() == 1
                    ? getContext().spawn(behavior, "coordinator-" + runName)
                    : ClusterSingleton.get(getContext().getSystem())
                            .init(SingletonActor.of(behavior, "coordinator-" + runName));
            if (requester != null) {
                runner.tell(new PhaseRunner.Run(finished));
            }
        }
        return this;
    }

    private Behavior<Command> onRemoved(Removed m) {
        if (m.event().member().address().equals(cluster.selfMember().address())) {
            return this; // this member leaving at the end of the run
        }
        String address = m.event().member().address().toString();
        Set<String> gone = new TreeSet<>();
        placement.forEach((d, at) -> {
            if (at.equals(address)) {
                gone.add(d);
            }
        });
        if (runner != null && !gone.isEmpty()) {
            runner.tell(new PhaseRunner.MemberLost(address, gone));
        }
        return this;
    }

    /** Nothing ran: say why and stop; the caller sees the system end without a report. */
    private Behavior<Command> onMembersLate() {
        String why = "the cluster did not form: " + options.members() + " members expected, not all came within "
                + options.membersTimeout();
        failure.accept(why);
        getContext().getLog().error(why);
        return Behaviors.stopped();
    }

    private Behavior<Command> onStart(Start start) {
        requester = start.replyTo();
        if (runner != null) {
            runner.tell(new PhaseRunner.Run(finished));
        }
        return this;
    }

    private Behavior<Command> onFinished(Finished f) {
        if (traceWriter == null) {
            requester.tell(f.report());
        } else {
            // the trace is flushed before the report is handed out
            report = f.report();
            traceWriter.tell(new TraceWriter.CloseMarker(closed));
        }
        return this;
    }

    private Behavior<Command> onTraceClosed(TraceClosed c) {
        requester.tell(report);
        return this;
    }
}
