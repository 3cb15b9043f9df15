package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LogCapturingExtension;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** s7 of the seed's Fig. 1 as an actor, its neighbours s5 and s6 as probes; time is manual. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(LogCapturingExtension.class)
class SwitchActorTest {
    private static final long MS = 1_000_000L;
    private final ActorTestKit kit = ActorTestKit.create(ManualTime.config().withFallback(ConfigFactory.load()));
    private final ManualTime manualTime = ManualTime.get(kit.system());
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(fig1);
    private final BitSpace hosts =
            new BitSpace(fig1.hosts().stream().map(Node::name).toList());
    private final AtomicLong clock = new AtomicLong();

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    record Rig(ActorRef<DeviceCommand> s7, TestProbe<DeviceCommand> s5, TestProbe<DeviceCommand> s6) {}

    private Rig s7() {
        TestProbe<DeviceCommand> s5 = kit.createTestProbe();
        TestProbe<DeviceCommand> s6 = kit.createTestProbe();
        ActorRef<DeviceCommand> s7 = kit.spawn(SwitchActor.create("s7", 16, 500 * MS, clock::get));
        Map<String, ActorRef<DeviceCommand>> nbrs = new LinkedHashMap<>();
        nbrs.put("s5", s5.ref());
        nbrs.put("s6", s6.ref());
        s7.tell(new DeviceCommand.Wire(nbrs, Map.of("s5", LinkSpec.DEFAULT, "s6", LinkSpec.DEFAULT), routing, 1, null));
        s7.tell(new DeviceCommand.InstallJob(JobTables.builder("fig1", 1, 1, 8, 50 * MS)
                .bift(Bift.build(routing, "s7", hosts))
                .vatNode(EndpointSets.parse("[00110000]"), "s6")
                .build()));
        return new Rig(s7, s5, s6);
    }

    private static DeviceCommand.FrameIn contribution(String pbm, float value, String from) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM);
        return new DeviceCommand.FrameIn(
                new Frame(new InaPacket(h, EndpointSets.parse(pbm), Payload.of(new float[] {value})), "s6", 100), from);
    }

    private static InaPacket packetOf(DeviceCommand m) {
        return ((DeviceCommand.FrameIn) m).frame().packet();
    }

    @Test
    void s7ForwardsS1ResultUntouchedBecauseAndIsZero() {
        Rig r = s7();
        DeviceCommand.FrameIn in = contribution("[11000000]", 3f, "s5");
        r.s7().tell(in);
        DeviceCommand.FrameIn out = (DeviceCommand.FrameIn) r.s6().receiveMessage();
        assertEquals(in.frame().packet(), out.frame().packet());
        assertEquals("s7", out.from());
        assertTrue(out.frame().vt() > in.frame().vt(), "the link adds modelled time");
        r.s5().expectNoMessage(Duration.ofMillis(20));
    }

    @Test
    void s7AggregatesW3AndW4AndSendsOneResultUp() {
        Rig r = s7();
        r.s7().tell(contribution("[00100000]", 1.5f, "s5"));
        r.s7().tell(contribution("[00100000]", 1.5f, "s5")); // a duplicate is never added twice
        r.s7().tell(contribution("[00010000]", 2f, "s5"));
        InaPacket up = packetOf(r.s6().receiveMessage());
        assertEquals(EndpointSets.parse("[00110000]"), up.endpoints(), "P-BM = A-BM");
        assertArrayEquals(new float[] {3.5f}, ((Payload.Float32) up.payload()).values());
        assertEquals(0, up.header().flags() & Flags.PARTIAL);
        r.s6().expectNoMessage(Duration.ofMillis(20));
    }

    @Test
    void completionTimerSendsAPartialThatNamesWhatItHolds() {
        Rig r = s7();
        r.s7().tell(contribution("[00100000]", 1.5f, "s5"));
        r.s6().expectNoMessage(Duration.ofMillis(20));
        clock.addAndGet(50 * MS);
        manualTime.timePasses(Duration.ofMillis(50));
        InaPacket up = packetOf(r.s6().receiveMessage());
        assertEquals(EndpointSets.parse("[00100000]"), up.endpoints());
        assertTrue(up.header().has(Flags.PARTIAL));
        // the missing w4 arrives late: passed upward untouched, marked late
        r.s7().tell(contribution("[00010000]", 2f, "s5"));
        InaPacket late = packetOf(r.s6().receiveMessage());
        assertEquals(EndpointSets.parse("[00010000]"), late.endpoints());
        assertTrue(late.header().has(Flags.LATE));
    }

    @Test
    void framesOfAnUnknownJobAreDroppedAndCounted() {
        Rig r = s7();
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 9, 9, 0).withOp(ReductionOp.SUM);
        r.s7().tell(new DeviceCommand.FrameIn(
                new Frame(new InaPacket(h, EndpointSets.parse("[00100000]"), Payload.of(new float[1])), "s6", 0),
                "s5"));
        TestProbe<DeviceCommand.DeviceStats> stats = kit.createTestProbe();
        r.s7().tell(new DeviceCommand.CollectStats(9, 9, stats.ref()));
        assertEquals(1, stats.receiveMessage().unknownJobDrops());
        r.s6().expectNoMessage(Duration.ofMillis(20));
        // and the switch still works
        r.s7().tell(contribution("[11000000]", 1f, "s5"));
        r.s6().receiveMessage();
    }

    @Test
    void multicastResultIsReplicatedByTheBift() {
        Rig r = s7();
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 0).withOp(ReductionOp.SUM);
        EndpointSet abm = EndpointSets.parse("[11110000]");
        r.s7().tell(new DeviceCommand.FrameIn(
                new Frame(new InaPacket(h, abm, Payload.of(new float[] {7f})), null, 0), "s6"));
        InaPacket down = packetOf(r.s5().receiveMessage());
        assertEquals(abm, down.endpoints(), "all four workers sit below s5");
        r.s6().expectNoMessage(Duration.ofMillis(20));
    }

    @Test
    void statsReportLinkCounters() {
        Rig r = s7();
        r.s7().tell(contribution("[11000000]", 1f, "s5"));
        r.s6().receiveMessage();
        TestProbe<DeviceCommand.DeviceStats> stats = kit.createTestProbe();
        r.s7().tell(new DeviceCommand.CollectStats(1, 1, stats.ref()));
        DeviceCommand.DeviceStats s = stats.receiveMessage();
        List<DeviceCommand.LinkStats> toS6 =
                s.links().stream().filter(l -> l.to().equals("s6")).toList();
        assertEquals(1, toS6.get(0).packets());
        assertEquals(1L, s.counters().get(Counter.FORWARDED));
    }

    @Test
    void aMessageTheSwitchCannotHandleIsNamedAndTheSwitchGoesOn() {
        Rig r = s7();
        // a frame with no packet stands for any input a bug would make a device throw on
        r.s7().tell(new DeviceCommand.FrameIn(null, "s5"));
        r.s7().tell(contribution("[11000000]", 1f, "s5"));
        r.s6().receiveMessage();
        TestProbe<DeviceCommand.DeviceStats> stats = kit.createTestProbe();
        r.s7().tell(new DeviceCommand.CollectStats(1, 1, stats.ref()));
        DeviceCommand.DeviceStats s = stats.receiveMessage();
        assertEquals(1, s.failures());
        assertTrue(
                s.failuresNamed().get(0).startsWith("s7 could not handle FrameIn: java.lang.NullPointerException"),
                s.failuresNamed().toString());
        r.s7().tell(DeviceCommand.ResetLinks.INSTANCE);
        r.s7().tell(new DeviceCommand.CollectStats(1, 1, stats.ref()));
        assertEquals(0, stats.receiveMessage().failures(), "counted per phase");
    }
}
