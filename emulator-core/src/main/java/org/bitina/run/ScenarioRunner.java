package org.bitina.run;

import org.bitina.usecase.allreduce.AllReduceSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
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
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.Node;
import org.bitina.topology.Placements;
import org.bitina.scenario.Scenario;

/**
 * Runs one scenario in this JVM: an ActorSystem whose guardian spawns the coordinator (and
 * the trace writer when asked), then waits for the report and terminates the system.
 */
public final class ScenarioRunner {
    private ScenarioRunner() {
    }

    /**
     * @param pekko   settings laid over the cluster defaults and application.conf (seed nodes,
     *                ports; tests turn serialize-messages on with it)
     * @param members cluster members to wait for before placing the devices (1: this JVM alone)
     */
    public record Options(Path trace, Limits limits, Duration timeout, com.typesafe.config.Config pekko, int members,
                          Duration membersTimeout) {
        public Options(Path trace, Limits limits, Duration timeout, com.typesafe.config.Config pekko) {
            this(trace, limits, timeout, pekko, 1, Duration.ofSeconds(60));
        }

        public static Options defaults() {
            return new Options(null, Limits.DEFAULT, Duration.ofHours(2), com.typesafe.config.ConfigFactory.empty());
        }

        public Options withTrace(Path t) {
            return new Options(t, limits, timeout, pekko, members, membersTimeout);
        }

        public Options withPekko(com.typesafe.config.Config c) {
            return new Options(trace, limits, timeout, c, members, membersTimeout);
        }

        /** A run over {@code n} cluster members, waiting at most {@code wait} for them to come. */
        public Options withMembers(int n, Duration wait) {
            return new Options(trace, limits, timeout, pekko, n, wait);
        }
    }

    private interface Guardian extends org.apache.pekko.actor.NoSerializationVerificationNeeded {
    }

    private record Start(ActorRef<Report> replyTo) implements Guardian {
    }

    private record Finished(Report report) implements Guardian {
    }

    private record TraceClosed(Boolean ok) implements Guardian {
    }

    private record Members(Receptionist.Listing listing) implements Guardian {
    }

    private record Placed(MemberAgent.Spawned spawned) implements Guardian {
    }

    private record MembersLate() implements Guardian {
    }

    private record Removed(ClusterEvent.MemberRemoved event) implements Guardian {
    }

    public static Report run(Scenario scenario, Options options, RunProgress progress) {
        java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Behavior<Guardian> guardian = Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            ActorRef<TraceEvent> trace = null;
            ActorRef<Object> adapter = null;
            if (options.trace() != null) {
                ActorRef<TraceWriter.Command> writer = ctx.spawn(TraceWriter.create(options.trace()), "trace-writer");
                adapter = ctx.spawn(TraceWriter.adapter(writer), "trace");
                trace = adapter.narrow();
            }
            // this JVM is a member like any other; alone, it is a cluster of one that joins itself
            ctx.spawn(MemberAgent.create(), "member");
            Cluster cluster = Cluster.get(ctx.getSystem());
            if (ctx.getSystem().settings().config().getStringList("pekko.cluster.seed-nodes").isEmpty()) {
                cluster.manager().tell(Join.create(cluster.selfMember().address()));
            }
            ctx.getSystem().receptionist().tell(Receptionist.subscribe(MemberAgent.KEY, ctx.messageAdapter(Receptionist.Listing.class,
                    Members::new)));
            timers.startSingleTimer(new MembersLate(), options.membersTimeout());
            ActorRef<MemberAgent.Spawned> placed = ctx.messageAdapter(MemberAgent.Spawned.class, Placed::new);
            ActorRef<Report> finished = ctx.messageAdapter(Report.class, Finished::new);
            ActorRef<Boolean> closed = ctx.messageAdapter(Boolean.class, TraceClosed::new);
            ActorRef<Object> w = adapter;
            ActorRef<TraceEvent> traceRef = trace;
            Report[] result = new Report[1];
            @SuppressWarnings("unchecked")
            ActorRef<Report>[] requester = new ActorRef[1];
            @SuppressWarnings("unchecked")
            ActorRef<PhaseRunner.Command>[] coordinator = new ActorRef[1];
            Map<String, ActorRef<DeviceCommand>> devices = new LinkedHashMap<>();
            List<ActorRef<MemberAgent.Command>> memberList = new ArrayList<>();
            // E4: a member that leaves or is downed (the split brain resolver) takes its devices with it
            cluster.subscriptions().tell(Subscribe.create(ctx.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new),
                    ClusterEvent.MemberRemoved.class));
            Map<String, String> placement = new TreeMap<>();
            int[] pending = {-1};
            String[] run = new String[1];
            return Behaviors.receive(Guardian.class)
                    .onMessage(Members.class, l -> {
                        List<ActorRef<MemberAgent.Command>> agents = new ArrayList<>(l.listing().getServiceInstances(MemberAgent.KEY));
                        if (pending[0] >= 0 || agents.size() < options.members()) {
                            return Behaviors.same();
                        }
                        // E2: the placement, then each member spawns its devices
                        agents.sort(java.util.Comparator.comparing((ActorRef<MemberAgent.Command> a) -> !a.path().address().hasLocalScope())
                                .thenComparing(a -> a.path().toString()));
                        agents = agents.subList(0, options.members());
                        memberList.addAll(agents);
                        Map<String, Integer> where = Placements.place(scenario.topology(), scenario.cluster(), agents.size());
                        pending[0] = agents.size();
                        run[0] = Long.toString(System.nanoTime(), 36);
                        for (int i = 0; i < agents.size(); i++) {
                            List<String> switches = new ArrayList<>();
                            List<String> hosts = new ArrayList<>();
                            for (Node n : scenario.topology().nodes()) {
                                if (where.get(n.name()) == i) {
                                    (n.isSwitch() ? switches : hosts).add(n.name());
                                }
                            }
                            agents.get(i).tell(new MemberAgent.SpawnDevices(run[0], switches, hosts, options.limits().maxEntriesPerJob(),
                                    options.limits().tombstone().toNanos(), placed));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Placed.class, p -> {
                        devices.putAll(p.spawned().devices());
                        p.spawned().devices().keySet().forEach(d -> placement.put(d, p.spawned().member()));
                        if (--pending[0] == 0) {
                            timers.cancelAll();
                            // a cluster singleton: one coordinator however many members; it runs on the oldest member,
                            // which is this one (the seed comes up first), and only this one defines it
                            Behavior<PhaseRunner.Command> behavior = PhaseRunner.create(scenario, devices, placement, memberList, traceRef,
                                    progress);
                            coordinator[0] = ClusterSingleton.get(ctx.getSystem()).init(SingletonActor.of(behavior, "coordinator-" + run[0]));
                            if (requester[0] != null) {
                                coordinator[0].tell(new PhaseRunner.Run(finished));
                            }
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Removed.class, m -> {
                        if (m.event().member().address().equals(cluster.selfMember().address())) {
                            return Behaviors.same(); // this member leaving at the end of the run
                        }
                        String address = m.event().member().address().toString();
                        java.util.Set<String> gone = new java.util.TreeSet<>();
                        placement.forEach((d, at) -> {
                            if (at.equals(address)) {
                                gone.add(d);
                            }
                        });
                        if (coordinator[0] != null && !gone.isEmpty()) {
                            coordinator[0].tell(new PhaseRunner.MemberLost(address, gone));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(MembersLate.class, m -> {
                        // nothing ran: say why and stop, the caller sees the system end without a report
                        failure.set("the cluster did not form: " + options.members() + " members expected, not all came within "
                                + options.membersTimeout());
                        ctx.getLog().error(failure.get());
                        return Behaviors.stopped();
                    })
                    .onMessage(Start.class, start -> {
                        requester[0] = start.replyTo();
                        if (coordinator[0] != null) {
                            coordinator[0].tell(new PhaseRunner.Run(finished));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Finished.class, f -> {
                        if (w == null) {
                            requester[0].tell(f.report());
                        } else {
                            // the trace is flushed before the report is handed out
                            result[0] = f.report();
                            w.tell(new TraceWriter.CloseMarker(closed));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(TraceClosed.class, c -> {
                        requester[0].tell(result[0]);
                        return Behaviors.same();
                    })
                    .build();
        }));
        ActorSystem<Guardian> system = ActorSystem.create(guardian, ClusterSettings.SYSTEM,
                options.pekko().withFallback(ClusterSettings.defaults()).withFallback(com.typesafe.config.ConfigFactory.load()));
        try {
            CompletionStage<Report> report = AskPattern.ask(system, Start::new, options.timeout(), system.scheduler());
            // the report, or the system's end when the guardian gave up (the cluster did not form)
            java.util.concurrent.CompletableFuture.anyOf(report.toCompletableFuture(), system.getWhenTerminated().toCompletableFuture())
                    .get(options.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (!report.toCompletableFuture().isDone() && failure.get() != null) {
                throw new IllegalStateException(failure.get());
            }
            return report.toCompletableFuture().get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the run did not finish: " + e, e);
        } finally {
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the report is what matters; a slow shutdown is not a failed run
            }
        }
    }

}
