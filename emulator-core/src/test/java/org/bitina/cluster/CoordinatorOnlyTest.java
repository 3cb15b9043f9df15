package org.bitina.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 14.6: a member agent takes devices and a halt only from its run's coordinator. Three
 * ActorSystems on loopback in this JVM: the coordinator (the member's seed), the member, and
 * a rogue that knows the member's address (as the receptionist would tell it) and sends it
 * forged commands. Plain TCP here: this is the check behind TLS, for members that hold the
 * credentials, and for --insecure runs.
 */
class CoordinatorOnlyTest {
    private ActorSystem<Void> coordinator;
    private ActorSystem<MemberAgent.Command> member;
    private ActorSystem<Void> rogue;
    private final AtomicBoolean halted = new AtomicBoolean();

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (ActorSystem<?> s : new ActorSystem<?>[] {rogue, member, coordinator}) {
            if (s != null) {
                s.terminate();
                s.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** {@code ref} as {@code system} sees it: what arrives when it is named in a message. */
    private static <T> ActorRef<T> seenFrom(ActorSystem<?> system, ActorSystem<?> owner, ActorRef<T> ref) {
        return ActorRefResolver.get(system)
                .resolveActorRef(ActorRefResolver.get(owner).toSerializationFormat(ref));
    }

    private static MemberAgent.SpawnDevices spawn(
            ActorRef<MemberAgent.Spawned> replyTo, byte[] token, ActorRef<MemberAgent.Vouch> vouch) {
        return new MemberAgent.SpawnDevices(
                "r1", List.of("s1"), List.of("h1"), 64, 1_000_000_000L, replyTo, 1, 2, true, token, vouch, List.of());
    }

    /** A voucher that vouches for anything: what a rogue would run. */
    private static Behavior<MemberAgent.Vouch> yesMan() {
        return Behaviors.receive((ctx, v) -> {
            v.agent().tell(new MemberAgent.Vouched(v.nonce(), true));
            return Behaviors.same();
        });
    }

    /** What a rogue that knows the member's address can send it. */
    private void forge(
            ActorRef<MemberAgent.Command> agentAtRogue,
            TestProbe<MemberAgent.Spawned> rogueProbe,
            ActorSystem<Void> coordinator,
            ActorRef<MemberAgent.Vouch> voucher) {
        // a rogue's halt, with no token and with a guessed one
        agentAtRogue.tell(new MemberAgent.Halt(null));
        agentAtRogue.tell(new MemberAgent.Halt(new byte[16]));
        // a rogue's devices, vouched for by its own voucher: not at a seed of the member
        ActorRef<MemberAgent.Vouch> rogueVoucher = rogue.systemActorOf(yesMan(), "vouch", Props.empty());
        agentAtRogue.tell(spawn(rogueProbe.getRef(), new byte[16], rogueVoucher));
        // a rogue's devices naming the real coordinator's voucher, which did not issue the rogue's token
        agentAtRogue.tell(spawn(rogueProbe.getRef(), new byte[16], seenFrom(rogue, coordinator, voucher)));
        // a rogue's answer to a check it never saw
        agentAtRogue.tell(new MemberAgent.Vouched(new byte[16], true));
        rogueProbe.expectNoMessage(Duration.ofSeconds(3));
    }

    @Test
    void haltAndDevicesFromAnyoneButTheCoordinatorAreRefusedAndTheCoordinatorsAreTaken() throws Exception {
        int seedPort = freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        coordinator = ActorSystem.create(
                Behaviors.empty(),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", seedPort, seeds).withFallback(ConfigFactory.load()));
        member = ActorSystem.create(
                MemberAgent.create(() -> halted.set(true)),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", 0, seeds).withFallback(ConfigFactory.load()));
        rogue = ActorSystem.create(
                Behaviors.empty(),
                ClusterSettings.SYSTEM,
                ClusterSettings.member("127.0.0.1", 0, seeds).withFallback(ConfigFactory.load()));

        ActorRef<MemberAgent.Command> agentAtCoordinator = seenFrom(coordinator, member, member);
        ActorRef<MemberAgent.Command> agentAtRogue = seenFrom(rogue, member, member);
        byte[] token = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};
        ActorRef<MemberAgent.Vouch> voucher = coordinator.systemActorOf(
                MemberAgent.voucher(Map.of(agentAtCoordinator, token)), "vouch", Props.empty());
        TestProbe<MemberAgent.Spawned> rogueProbe = TestProbe.create(rogue);

        // five forged commands, one WARN line: a flood does not flood the log
        LoggingTestKit.warn("refused").withOccurrences(1).expect(member, () -> {
            forge(agentAtRogue, rogueProbe, coordinator, voucher);
            return null;
        });
        assertFalse(halted.get(), "a rogue's halt was refused");

        // the coordinator's devices are taken, once its voucher confirms the token
        TestProbe<MemberAgent.Spawned> placed = TestProbe.create(coordinator);
        agentAtCoordinator.tell(spawn(placed.getRef(), token, voucher));
        MemberAgent.Spawned spawned = placed.receiveMessage(Duration.ofSeconds(20));
        assertEquals(Set.of("s1", "h1"), spawned.devices().keySet());

        // bound now: a second placement is refused, even with the coordinator's voucher; a halt still needs the token
        agentAtRogue.tell(spawn(rogueProbe.getRef(), token.clone(), seenFrom(rogue, coordinator, voucher)));
        agentAtRogue.tell(new MemberAgent.Halt(new byte[] {7, 7, 7}));
        rogueProbe.expectNoMessage(Duration.ofSeconds(2));
        assertFalse(halted.get(), "a halt with the wrong token was refused");

        agentAtCoordinator.tell(new MemberAgent.Halt(token));
        long until = System.nanoTime() + 20_000_000_000L;
        while (!halted.get() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertTrue(halted.get(), "the coordinator's halt was taken");
    }
}
