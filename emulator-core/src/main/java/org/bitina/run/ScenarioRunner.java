package org.bitina.run;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Leave;
import org.apache.pekko.cluster.typed.PrepareForFullClusterShutdown;
import org.bitina.cluster.ClusterSettings;
import org.bitina.protocol.TraceFilter;
import org.bitina.scenario.Scenario;

/**
 * Runs one scenario in this JVM: an ActorSystem whose guardian spawns the coordinator (and
 * the trace writer when asked), then waits for the report and terminates the system.
 */
public final class ScenarioRunner {
    private ScenarioRunner() {}

    /**
     * @param pekko   settings laid over the cluster defaults and application.conf (seed nodes,
     *                ports; tests turn serialize-messages on with it)
     * @param members cluster members to wait for before placing the devices (1: this JVM alone)
     * @param traceFilter which events the trace and the capture keep ({@code --trace-filter})
     * @param pcap    where to write every link transmission as pcapng ({@code --pcap}), or null
     */
    public record Options(
            Path trace,
            Limits limits,
            Duration timeout,
            Config pekko,
            int members,
            Duration membersTimeout,
            TraceFilter traceFilter,
            Path pcap) {
        public Options(Path trace, Limits limits, Duration timeout, Config pekko) {
            this(trace, limits, timeout, pekko, 1, Duration.ofSeconds(60));
        }

        public Options(
                Path trace, Limits limits, Duration timeout, Config pekko, int members, Duration membersTimeout) {
            this(trace, limits, timeout, pekko, members, membersTimeout, TraceFilter.ALL, null);
        }

        public static Options defaults() {
            return new Options(null, Limits.DEFAULT, Duration.ofHours(2), ConfigFactory.empty());
        }

        public Options withTrace(Path t) {
            return new Options(t, limits, timeout, pekko, members, membersTimeout, traceFilter, pcap);
        }

        /** Every link transmission into {@code p} as pcapng. */
        public Options withPcap(Path p) {
            return new Options(trace, limits, timeout, pekko, members, membersTimeout, traceFilter, p);
        }

        /** Only the events {@code f} passes go into the trace and the capture. */
        public Options withTraceFilter(TraceFilter f) {
            return new Options(trace, limits, timeout, pekko, members, membersTimeout, f, pcap);
        }

        public Options withPekko(Config c) {
            return new Options(trace, limits, timeout, c, members, membersTimeout, traceFilter, pcap);
        }

        /** A run over {@code n} cluster members, waiting at most {@code wait} for them to come. */
        public Options withMembers(int n, Duration wait) {
            return new Options(trace, limits, timeout, pekko, n, wait, traceFilter, pcap);
        }

        /** Whether the devices record anything (a trace or a capture). */
        boolean records() {
            return trace != null || pcap != null;
        }
    }

    public static Report run(Scenario scenario, Options options, RunProgress progress) {
        AtomicReference<String> failure = new AtomicReference<>();
        Behavior<RunGuardian.Command> guardian = RunGuardian.create(scenario, options, progress, failure::set);
        Config settings =
                options.pekko().withFallback(ClusterSettings.defaults()).withFallback(ConfigFactory.load());
        if (ClusterSettings.runsAlone(options.members(), settings)) {
            settings = ClusterSettings.alone(settings);
        }
        ActorSystem<RunGuardian.Command> system = ActorSystem.create(guardian, ClusterSettings.SYSTEM, settings);
        CompletionStage<Report> report = null;
        try {
            report = AskPattern.ask(system, RunGuardian.Start::new, options.timeout(), system.scheduler());
            // the report, or the system's end when the guardian gave up (the cluster did not form)
            CompletableFuture.anyOf(
                            report.toCompletableFuture(),
                            system.getWhenTerminated().toCompletableFuture())
                    .get(options.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (!report.toCompletableFuture().isDone() && failure.get() != null) {
                throw new IllegalStateException(failure.get());
            }
            return report.toCompletableFuture().get(1, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the run did not finish: " + e, e);
        } finally {
            if (options.members() > 1
                    && report != null
                    && report.toCompletableFuture().isDone()) {
                try {
                    prepareForFullShutdown(system);
                } catch (RuntimeException e) {
                    // the system is going already (a member was lost, the guardian gave up): nothing to prepare
                }
            }
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the report is what matters; a slow shutdown is not a failed run
            }
        }
    }

    /**
     * The run is over for every member at once: Pekko's full-cluster shutdown, so that no cluster
     * singleton hands over, then the other members leave while this one, the leader, still moves
     * them out, and this one leaves last, alone. Left to themselves (the seed leaving first while
     * the others stay) the seed waited in the cluster-exiting phase for the coordinator singleton's
     * hand-over to the next oldest member, which never comes (only this member defines the
     * singleton), and the members, left without their leader, waited out the same phase: 2 s and a
     * WARN each. Waits at most 5 s for each step; members already gone do not hold it up.
     */
    private static void prepareForFullShutdown(ActorSystem<?> system) {
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(PrepareForFullClusterShutdown.prepareForFullClusterShutdown());
        awaitFor(() -> cluster.selfMember().status() == MemberStatus.shutDown());
        for (Member m : cluster.state().getMembers()) {
            if (!m.address().equals(cluster.selfMember().address())) {
                cluster.manager().tell(Leave.create(m.address()));
            }
        }
        awaitFor(() -> StreamSupport.stream(cluster.state().getMembers().spliterator(), false)
                .allMatch(m -> m.address().equals(cluster.selfMember().address())));
    }

    private static void awaitFor(BooleanSupplier done) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!done.getAsBoolean() && System.nanoTime() < until) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
