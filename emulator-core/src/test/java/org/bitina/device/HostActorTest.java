package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.LogCapturingExtension;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.bitmap.EndpointSets;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.usecase.References;
import org.bitina.usecase.Straggler;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReduceDriver;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** Worker w1 of Fig. 1 as an actor; its switch s1 and the coordinator are probes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(LogCapturingExtension.class)
class HostActorTest {
    private static final long MS = 1_000_000L;
    private final ActorTestKit kit = ActorTestKit.create(ManualTime.config().withFallback(ConfigFactory.load()));
    private final ManualTime manualTime = ManualTime.get(kit.system());
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(fig1);
    private final BitSpace space = new BitSpace(List.of("w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"));
    private final DataSpec data = new DataSpec(1000, ElementType.FLOAT32, ReductionOp.SUM, 250, 2, 7, 1024);
    private final AtomicLong clock = new AtomicLong();

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    private AllReducePlan plan(Map<String, Straggler> stragglers) {
        return AllReducePlan.builder()
                .jobName("fig1")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(1)
                .space(space)
                .members(List.of("w1", "w2", "w3", "w4"))
                .data(data)
                .uplink(Map.of("w1", "s1", "w2", "s1", "w3", "s7", "w4", "s7"))
                .timeoutNanos(50 * MS)
                .stragglers(stragglers)
                .seed(7)
                .build();
    }

    private ActorRef<DeviceCommand> w1(TestProbe<DeviceCommand> s1) {
        ActorRef<DeviceCommand> w1 = kit.spawn(HostActor.create("w1", 16, 500 * MS, clock::get, new References()));
        w1.tell(new DeviceCommand.Wire(Map.of("s1", s1.ref()), Map.of("s1", LinkSpec.DEFAULT), routing, 1, null));
        w1.tell(new DeviceCommand.InstallJob(JobTables.builder("fig1", 1, 1, 8, 50 * MS)
                .bift(Bift.build(routing, "w1", space))
                .build()));
        return w1;
    }

    /** Frames a host sent in one turn arrive as one batch: the next frame, batch or not. */
    private final ArrayDeque<DeviceCommand.FrameIn> pending = new ArrayDeque<>();

    private InaPacket next(TestProbe<DeviceCommand> probe) {
        if (pending.isEmpty()) {
            DeviceCommand m = probe.receiveMessage();
            if (m instanceof DeviceCommand.FrameBatch b) {
                pending.addAll(b.frames());
            } else {
                pending.add((DeviceCommand.FrameIn) m);
            }
        }
        return pending.poll().frame().packet();
    }

    @Test
    void workerKeepsItsWindowAndAdvancesOnResults() {
        TestProbe<DeviceCommand> s1 = kit.createTestProbe();
        TestProbe<DeviceCommand.HostEvent> coordinator = kit.createTestProbe();
        ActorRef<DeviceCommand> w1 = w1(s1);
        w1.tell(new DeviceCommand.StartDriver(
                new AllReduceDriver(AllReduceDriver.Role.WORKER, plan(Map.of()), "w1"), coordinator.ref()));
        w1.tell(new DeviceCommand.BeginJob(1, 1));
        InaPacket c0 = next(s1);
        InaPacket c1 = next(s1);
        assertEquals(0, c0.header().seq());
        assertEquals(1, c1.header().seq());
        assertEquals(EndpointSets.parse("[10000000]"), c0.endpoints(), "P-BM = the worker's own bit");
        s1.expectNoMessage(Duration.ofMillis(20));

        AllReduceData d = new AllReduceData(data);
        for (int chunk = 0; chunk < 4; chunk++) {
            float[] sum = new float[d.chunkLength(chunk)];
            for (int bit = 0; bit < 4; bit++) {
                float[] v = d.values(bit, chunk);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += v[i];
                }
            }
            InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, chunk).withOp(ReductionOp.SUM);
            w1.tell(new DeviceCommand.FrameIn(
                    new Frame(new InaPacket(h, EndpointSets.parse("[10000000]"), Payload.of(sum)), null, 10), "s1"));
            if (chunk < 2) {
                assertEquals(chunk + 2, next(s1).header().seq(), "a result frees a window slot");
            }
        }
        DeviceCommand.DriverDone done = (DeviceCommand.DriverDone) coordinator
                .fishForMessage(
                        Duration.ofSeconds(3),
                        m -> m instanceof DeviceCommand.DriverDone
                                ? FishingOutcomes.complete()
                                : FishingOutcomes.continueAndIgnore())
                .get(0);
        assertTrue(done.report().done());
        assertEquals(4, done.report().verifiedChunks());
        assertTrue(done.report().mismatches().isEmpty());
    }

    @Test
    void aWorkerThatGivesUpInItsTimerTellsTheCoordinatorItIsDone() {
        TestProbe<DeviceCommand> s1 = kit.createTestProbe();
        TestProbe<DeviceCommand.HostEvent> coordinator = kit.createTestProbe();
        ActorRef<DeviceCommand> w1 = w1(s1);
        w1.tell(new DeviceCommand.StartDriver(
                new AllReduceDriver(AllReduceDriver.Role.WORKER, plan(Map.of()), "w1"), coordinator.ref()));
        w1.tell(new DeviceCommand.BeginJob(1, 1));
        TestProbe<String> synced = kit.createTestProbe();
        // no result ever comes: the worker asks again, then gives up on each chunk in its timer;
        // the host reads the clock when it handles a tick, so each tick is handled before the clock moves
        for (int i = 0; i < 200; i++) {
            w1.tell(new DeviceCommand.Sync(synced.ref()));
            synced.receiveMessage();
            clock.addAndGet(100 * MS);
            w1.tell(HostActor.Tick.INSTANCE);
        }
        DeviceCommand.DriverDone done = (DeviceCommand.DriverDone) coordinator
                .fishForMessage(
                        Duration.ofSeconds(3),
                        m -> m instanceof DeviceCommand.DriverDone
                                ? FishingOutcomes.complete()
                                : FishingOutcomes.continueAndIgnore())
                .get(0);
        assertTrue(done.report().done());
        assertEquals(0, done.report().verifiedChunks(), "nothing arrived");
        assertEquals(
                4,
                done.report().gaveUp().stream()
                        .filter(x -> x.contains("no result after"))
                        .count(),
                "every chunk named as without result: " + done.report().gaveUp());
    }

    @Test
    void aWrongResultIsNamedNotAccepted() {
        TestProbe<DeviceCommand> s1 = kit.createTestProbe();
        TestProbe<DeviceCommand.HostEvent> coordinator = kit.createTestProbe();
        ActorRef<DeviceCommand> w1 = w1(s1);
        w1.tell(new DeviceCommand.StartDriver(
                new AllReduceDriver(AllReduceDriver.Role.WORKER, plan(Map.of()), "w1"), coordinator.ref()));
        w1.tell(new DeviceCommand.BeginJob(1, 1));
        next(s1);
        next(s1);
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 0).withOp(ReductionOp.SUM);
        w1.tell(new DeviceCommand.FrameIn(
                new Frame(new InaPacket(h, EndpointSets.parse("[10000000]"), Payload.of(new float[250])), null, 0),
                "s1"));
        next(s1);
        TestProbe<DeviceCommand.DeviceStats> stats = kit.createTestProbe();
        w1.tell(new DeviceCommand.CollectStats(1, 1, stats.ref()));
        var report = stats.receiveMessage().drivers().get(0);
        assertEquals(1, report.mismatches().size(), report.toString());
        assertTrue(report.mismatches().get(0).startsWith("chunk 0 element"));
    }

    @Test
    void stragglerSendsItsChosenChunksAfterTheDelay() {
        TestProbe<DeviceCommand> s1 = kit.createTestProbe();
        TestProbe<DeviceCommand.HostEvent> coordinator = kit.createTestProbe();
        ActorRef<DeviceCommand> w1 = w1(s1);
        Map<String, Straggler> slow = Map.of("w1", new Straggler(30 * MS, 0, Set.of(1L)));
        w1.tell(new DeviceCommand.StartDriver(
                new AllReduceDriver(AllReduceDriver.Role.WORKER, plan(slow), "w1"), coordinator.ref()));
        w1.tell(new DeviceCommand.BeginJob(1, 1));
        assertEquals(0, next(s1).header().seq());
        s1.expectNoMessage(Duration.ofMillis(20));
        manualTime.timePasses(Duration.ofMillis(30));
        DeviceCommand.FrameIn late = (DeviceCommand.FrameIn) s1.receiveMessage();
        assertEquals(1, late.frame().packet().header().seq());
        assertTrue(late.frame().vt() >= 30 * MS, "the delay is in modelled time too");
    }
}
