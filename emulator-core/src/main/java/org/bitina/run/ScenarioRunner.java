package org.bitina.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.Scenario;

/**
 * Runs one scenario in this JVM: an ActorSystem whose guardian spawns the coordinator (and
 * the trace writer when asked), then waits for the report and terminates the system.
 */
public final class ScenarioRunner {
    private ScenarioRunner() {
    }

    /** @param pekko settings laid over application.conf (tests turn serialize-messages on with it) */
    public record Options(Path trace, Coordinator.Limits limits, Duration timeout, com.typesafe.config.Config pekko) {
        public static Options defaults() {
            return new Options(null, Coordinator.Limits.DEFAULT, Duration.ofHours(2), com.typesafe.config.ConfigFactory.empty());
        }

        public Options withTrace(Path t) {
            return new Options(t, limits, timeout, pekko);
        }

        public Options withPekko(com.typesafe.config.Config c) {
            return new Options(trace, limits, timeout, c);
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

    public static Report run(Scenario scenario, Options options, RunProgress progress) {
        // references first, outside the actors: phase wall times then measure the emulation alone
        for (org.bitina.topology.JobSpec job : scenario.jobs()) {
            if (job instanceof org.bitina.topology.JobSpec.AllReduce ar) {
                progress.label.set("computing the reference of " + job.name());
                org.bitina.job.Verifier.prepare(new org.bitina.job.AllReduceData(ar.data()),
                        ar.common().bitSpace().setOf(ar.common().members()));
            }
        }
        Behavior<Guardian> guardian = Behaviors.setup(ctx -> {
            ActorRef<TraceEvent> trace = null;
            ActorRef<Object> adapter = null;
            if (options.trace() != null) {
                ActorRef<TraceWriter.Command> writer = ctx.spawn(TraceWriter.create(options.trace()), "trace-writer");
                adapter = ctx.spawn(TraceWriter.adapter(writer), "trace");
                trace = adapter.narrow();
            }
            ActorRef<Coordinator.Command> coordinator =
                    ctx.spawn(Coordinator.create(scenario, trace, progress, options.limits()), "coordinator");
            ActorRef<Report> finished = ctx.messageAdapter(Report.class, Finished::new);
            ActorRef<Boolean> closed = ctx.messageAdapter(Boolean.class, TraceClosed::new);
            ActorRef<Object> w = adapter;
            Report[] result = new Report[1];
            @SuppressWarnings("unchecked")
            ActorRef<Report>[] requester = new ActorRef[1];
            return Behaviors.receive(Guardian.class)
                    .onMessage(Start.class, start -> {
                        requester[0] = start.replyTo();
                        coordinator.tell(new Coordinator.Run(finished));
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
        });
        ActorSystem<Guardian> system = ActorSystem.create(guardian, "bitina",
                options.pekko().withFallback(com.typesafe.config.ConfigFactory.load()));
        try {
            CompletionStage<Report> report = AskPattern.ask(system, Start::new, options.timeout(), system.scheduler());
            return report.toCompletableFuture().get(options.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
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
