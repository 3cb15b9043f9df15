package org.bitina.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.bitina.cluster.ClusterSettings;
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
     * @param traceFilter which events the trace keeps ({@code --trace-filter})
     */
    public record Options(Path trace, Limits limits, Duration timeout, com.typesafe.config.Config pekko, int members,
                          Duration membersTimeout, org.bitina.protocol.TraceFilter traceFilter) {
        public Options(Path trace, Limits limits, Duration timeout, com.typesafe.config.Config pekko) {
            this(trace, limits, timeout, pekko, 1, Duration.ofSeconds(60));
        }

        public Options(Path trace, Limits limits, Duration timeout, com.typesafe.config.Config pekko, int members,
                       Duration membersTimeout) {
            this(trace, limits, timeout, pekko, members, membersTimeout, org.bitina.protocol.TraceFilter.ALL);
        }

        public static Options defaults() {
            return new Options(null, Limits.DEFAULT, Duration.ofHours(2), com.typesafe.config.ConfigFactory.empty());
        }

        public Options withTrace(Path t) {
            return new Options(t, limits, timeout, pekko, members, membersTimeout, traceFilter);
        }

        /** Only the events {@code f} passes go into the trace. */
        public Options withTraceFilter(org.bitina.protocol.TraceFilter f) {
            return new Options(trace, limits, timeout, pekko, members, membersTimeout, f);
        }

        public Options withPekko(com.typesafe.config.Config c) {
            return new Options(trace, limits, timeout, c, members, membersTimeout, traceFilter);
        }

        /** A run over {@code n} cluster members, waiting at most {@code wait} for them to come. */
        public Options withMembers(int n, Duration wait) {
            return new Options(trace, limits, timeout, pekko, n, wait, traceFilter);
        }
    }

    public static Report run(Scenario scenario, Options options, RunProgress progress) {
        java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Behavior<RunGuardian.Command> guardian = RunGuardian.create(scenario, options, progress, failure::set);
        ActorSystem<RunGuardian.Command> system = ActorSystem.create(guardian, ClusterSettings.SYSTEM,
                options.pekko().withFallback(ClusterSettings.defaults()).withFallback(com.typesafe.config.ConfigFactory.load()));
        try {
            CompletionStage<Report> report = AskPattern.ask(system, RunGuardian.Start::new, options.timeout(), system.scheduler());
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
