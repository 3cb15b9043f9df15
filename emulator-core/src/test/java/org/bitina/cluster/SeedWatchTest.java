package org.bitina.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.typesafe.config.ConfigFactory;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18.3: a member started with {@code --exit-with-seed} (a Kubernetes Job's member pod)
 * learns that its run is over when its seed, the run's coordinator, leaves the cluster; another
 * member leaving is not that. Three ActorSystems on loopback in this JVM, plain TCP.
 */
class SeedWatchTest {
    private ActorSystem<Void> seed;
    private ActorSystem<Void> other;
    private ActorSystem<Void> member;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (ActorSystem<?> s : new ActorSystem<?>[] {member, other, seed}) {
            if (s != null) {
                s.terminate();
                s.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void awaitUp(ActorSystem<?> system) {
        TestProbe<SelfUp> up = TestProbe.create(system);
        Cluster.get(system).subscriptions().tell(Subscribe.create(up.getRef(), SelfUp.class));
        up.expectMessageClass(SelfUp.class, Duration.ofSeconds(30));
    }

    @Test
    void theRunIsOverWhenTheSeedLeavesNotWhenAnotherMemberDoes() throws Exception {
        int seedPort = freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        seed = ActorSystem.create(
                Behaviors.empty(),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", seedPort, seeds).withFallback(ConfigFactory.load()));
        other = ActorSystem.create(
                Behaviors.empty(),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", 0, seeds).withFallback(ConfigFactory.load()));
        member = ActorSystem.create(
                Behaviors.empty(),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", 0, seeds).withFallback(ConfigFactory.load()));
        assertEquals(Set.of(seed.address()), ClusterSettings.seeds(member), "the seed named at start");
        CompletableFuture<Boolean> over = new CompletableFuture<>();
        member.systemActorOf(
                SeedWatch.create(ClusterSettings.seeds(member), over::complete), "seed-watch", Props.empty());
        awaitUp(seed);
        awaitUp(other);
        awaitUp(member);

        TestProbe<ClusterEvent.MemberRemoved> removed = TestProbe.create(member);
        Cluster.get(member).subscriptions().tell(Subscribe.create(removed.getRef(), ClusterEvent.MemberRemoved.class));
        other.terminate();
        assertEquals(
                other.address(),
                removed.expectMessageClass(ClusterEvent.MemberRemoved.class, Duration.ofSeconds(30))
                        .member()
                        .address());
        // the watch saw the same event (one publisher, in order); give its adapter a moment
        Thread.sleep(500);
        assertFalse(over.isDone(), "another member left: the run is not over");

        seed.terminate();
        assertEquals(Boolean.TRUE, over.get(30, TimeUnit.SECONDS), "the seed left on its own (not lost)");
    }
}
