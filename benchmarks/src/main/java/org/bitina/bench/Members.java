package org.bitina.bench;

import com.typesafe.config.ConfigFactory;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.bitina.cluster.ClusterSettings;
import org.bitina.cluster.MemberAgent;
import org.bitina.run.Limits;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.Scenario;

/**
 * Runs a scenario on one member, or on several cluster members in this JVM: one
 * ActorSystem each, on loopback, so frames and window barriers cross Artery TCP as between
 * JVMs (the members share this JVM's heap and cores).
 */
final class Members {
    private Members() {}

    static Report run(Scenario s, int members, RunProgress progress) throws Exception {
        if (members <= 1) {
            return ScenarioRunner.run(s, ScenarioRunner.Options.defaults(), progress);
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> seeds = List.of("127.0.0.1:" + port);
        List<ActorSystem<MemberAgent.Command>> others = new ArrayList<>();
        try {
            for (int i = 1; i < members; i++) {
                others.add(ActorSystem.create(
                        MemberAgent.create(() -> {}),
                        ClusterSettings.SYSTEM,
                        ClusterSettings.member("127.0.0.1", 0, seeds).withFallback(ConfigFactory.load())));
            }
            ScenarioRunner.Options o = new ScenarioRunner.Options(
                    null,
                    Limits.DEFAULT,
                    Duration.ofHours(2),
                    ClusterSettings.member("127.0.0.1", port, seeds),
                    members,
                    Duration.ofSeconds(60));
            return ScenarioRunner.run(s, o, progress);
        } finally {
            others.forEach(ActorSystem::terminate);
            for (ActorSystem<MemberAgent.Command> m : others) {
                m.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }
}
