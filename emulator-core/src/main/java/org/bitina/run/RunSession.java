package org.bitina.run;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.bitina.cluster.ClusterSettings;
import org.bitina.scenario.Scenario;

/**
 * Many runs on one ActorSystem of one member, one after the other: what a test or benchmark
 * that runs hundreds of small scenarios (the chaos suite) needs, without an ActorSystem's
 * start and coordinated shutdown per run. Each run gets its own guardian, member agent,
 * devices and runner, all stopped when its report is in.
 */
public final class RunSession implements AutoCloseable {
    private sealed interface Command extends NoSerializationVerificationNeeded {}

    private record RunOne(
            Scenario scenario, ScenarioRunner.Options options, RunProgress progress, ActorRef<Report> replyTo)
            implements Command {}

    private record Reported(Report report) implements Command {}

    private final ActorSystem<Command> system;
    private final Duration timeout;

    /** @param timeout how long one run may take before {@link #run} gives up on it */
    public RunSession(Duration timeout) {
        this.timeout = timeout;
        this.system = ActorSystem.create(
                root(),
                ClusterSettings.SYSTEM,
                ClusterSettings.alone(ClusterSettings.defaults().withFallback(ConfigFactory.load())));
    }

    private static Behavior<Command> root() {
        return Behaviors.setup(ctx -> {
            ActorRef<Report> reported = ctx.messageAdapter(Report.class, Reported::new);
            int[] runs = {0};
            ActorRef<RunGuardian.Command>[] current = new ActorRef[1];
            ActorRef<Report>[] asker = new ActorRef[1];
            return Behaviors.receive(Command.class)
                    .onMessage(RunOne.class, m -> {
                        current[0] = ctx.spawn(
                                RunGuardian.create(m.scenario(), m.options(), m.progress(), why -> {}),
                                "run-" + ++runs[0]);
                        asker[0] = m.replyTo();
                        current[0].tell(new RunGuardian.Start(reported));
                        return Behaviors.same();
                    })
                    .onMessage(Reported.class, m -> {
                        asker[0].tell(m.report());
                        // the run's devices, agent and runner go with its guardian
                        ctx.stop(current[0]);
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /** Runs {@code s} on this session's member; one run at a time. */
    public Report run(Scenario s, RunProgress progress) {
        ScenarioRunner.Options options = ScenarioRunner.Options.defaults();
        try {
            return AskPattern.<Command, Report>ask(
                            system, r -> new RunOne(s, options, progress, r), timeout, system.scheduler())
                    .toCompletableFuture()
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the run did not finish: " + e, e);
        }
    }

    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing is best effort: the runs' reports are what mattered
        }
    }
}
