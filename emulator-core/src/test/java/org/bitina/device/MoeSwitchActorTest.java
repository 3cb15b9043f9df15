package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LogCapturingExtension;
import org.apache.pekko.actor.testkit.typed.javadsl.ManualTime;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.bitmap.EndpointSets;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.NodeKind;
import org.bitina.topology.Routing;
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

/** s0 of the seed's Fig. 2 as an actor; src, s1 and s7 are probes; time is manual. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(LogCapturingExtension.class)
class MoeSwitchActorTest {
    private static final long MS = 1_000_000L;
    private final ActorTestKit kit = ActorTestKit.create(ManualTime.config().withFallback(ConfigFactory.load()));
    private final ManualTime manualTime = ManualTime.get(kit.system());
    private final AtomicLong clock = new AtomicLong();
    private final BitSpace experts = new BitSpace(List.of("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"));

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    private static Topology fig2() {
        List<Node> nodes = new ArrayList<>(List.of(
                new Node("s0", NodeKind.SWITCH, -1),
                new Node("s1", NodeKind.SWITCH, 1),
                new Node("s7", NodeKind.SWITCH, 2),
                new Node("src", NodeKind.HOST, 0)));
        List<Link> links = new ArrayList<>(List.of(
                new Link("src", "s0", LinkSpec.DEFAULT),
                new Link("s0", "s1", LinkSpec.DEFAULT),
                new Link("s0", "s7", LinkSpec.DEFAULT)));
        for (int i = 1; i <= 8; i++) {
            nodes.add(new Node("e" + i, NodeKind.HOST, i <= 4 ? 1 : 2));
            links.add(new Link(i <= 4 ? "s1" : "s7", "e" + i, LinkSpec.DEFAULT));
        }
        return new Topology(nodes, links);
    }

    record Rig(
            ActorRef<DeviceCommand> s0,
            TestProbe<DeviceCommand> src,
            TestProbe<DeviceCommand> s1,
            TestProbe<DeviceCommand> s7) {}

    private Rig rig() {
        Routing routing = Routing.compute(fig2());
        Map<String, TestProbe<DeviceCommand>> probes = new LinkedHashMap<>();
        for (String n : List.of("src", "s1", "s7")) {
            probes.put(n, kit.createTestProbe());
        }
        ActorRef<DeviceCommand> s0 = kit.spawn(SwitchActor.create("s0", 16, 500 * MS, clock::get));
        Map<String, ActorRef<DeviceCommand>> nbrs = new LinkedHashMap<>();
        Map<String, LinkSpec> specs = new LinkedHashMap<>();
        probes.forEach((n, p) -> {
            nbrs.put(n, p.ref());
            specs.put(n, LinkSpec.DEFAULT);
        });
        s0.tell(new DeviceCommand.Wire(nbrs, specs, routing, 1, null));
        s0.tell(new DeviceCommand.InstallJob(JobTables.builder("fig2", 1, 1, 8, 50 * MS)
                .bift(Bift.build(routing, "s0", experts))
                .build()));
        return new Rig(s0, probes.get("src"), probes.get("s1"), probes.get("s7"));
    }

    private static Frame frameOf(DeviceCommand m) {
        return ((DeviceCommand.FrameIn) m).frame();
    }

    private void dispatch(Rig r) {
        InaHeader h = InaHeader.of(PacketType.DISPATCH, 1, 1, 5)
                .withOp(ReductionOp.SUM)
                .withDestination(0);
        r.s0().tell(new DeviceCommand.FrameIn(
                new Frame(
                        new InaPacket(h, EndpointSets.parse("[01100110]"), Payload.of(new float[] {1f})),
                        null,
                        0,
                        "src"),
                "src"));
        Frame toS1 = frameOf(r.s1().receiveMessage());
        Frame toS7 = frameOf(r.s7().receiveMessage());
        assertEquals(EndpointSets.parse("[01100000]"), toS1.packet().endpoints());
        assertEquals(EndpointSets.parse("[00000110]"), toS7.packet().endpoints());
        assertEquals("s0", toS1.via(), "s0 installed a C-BM: combines from below come to it");
    }

    private static DeviceCommand.FrameIn combine(String pbm, float v, String from) {
        InaHeader h = InaHeader.of(PacketType.COMBINE, 1, 1, 5)
                .withOp(ReductionOp.SUM)
                .withDestination(0);
        return new DeviceCommand.FrameIn(
                new Frame(new InaPacket(h, EndpointSets.parse(pbm), Payload.of(new float[] {v})), "s0", 10), from);
    }

    @Test
    void s0InstallsTheCbmAndSendsOneCombineToTheSource() {
        Rig r = rig();
        dispatch(r);
        r.s0().tell(combine("[01100000]", 2f, "s1"));
        r.src().expectNoMessage(Duration.ofMillis(20));
        r.s0().tell(combine("[00000110]", 3f, "s7"));
        InaPacket out = frameOf(r.src().receiveMessage()).packet();
        assertEquals(EndpointSets.parse("[01100110]"), out.endpoints(), "P-BM = C-BM");
        assertArrayEquals(new float[] {5f}, ((Payload.Float32) out.payload()).values());
        assertEquals(PacketType.COMBINE, out.header().type());
    }

    @Test
    void aSilentBranchMakesTheCbmTimerSendAPartialThenTheLatePartFollows() {
        Rig r = rig();
        dispatch(r);
        r.s0().tell(combine("[01100000]", 2f, "s1"));
        clock.addAndGet(50 * MS);
        manualTime.timePasses(Duration.ofMillis(50));
        InaPacket partial = frameOf(r.src().receiveMessage()).packet();
        assertTrue(partial.header().has(Flags.PARTIAL));
        assertEquals(EndpointSets.parse("[01100000]"), partial.endpoints(), "names exactly what it holds");
        r.s0().tell(combine("[00000110]", 3f, "s7"));
        InaPacket late = frameOf(r.src().receiveMessage()).packet();
        assertTrue(late.header().has(Flags.LATE));
        assertEquals(EndpointSets.parse("[00000110]"), late.endpoints());
        r.s0().tell(combine("[00000110]", 3f, "s7"));
        r.src().expectNoMessage(Duration.ofMillis(20));
    }
}
