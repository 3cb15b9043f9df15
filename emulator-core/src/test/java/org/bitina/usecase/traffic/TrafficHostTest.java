package org.bitina.usecase.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TrafficFlows;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.InaHeader;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.junit.jupiter.api.Test;

/** The background-traffic host driver (T3) without actors: what it sends when, what it counts, when it is done. */
class TrafficHostTest {
    private static final int PAYLOAD = 4000;
    private static final long GIVE_UP = 1_000_000;

    /** h1 sends flow 0 (10000 bytes at 100 ns) and flow 2 (4000 at 500 ns) to h2; h2 sends flow 1 to h1. */
    private static final List<TrafficFlows.Flow> FLOWS = List.of(
            new TrafficFlows.Flow(0, "h1", "h2", 100, 10_000),
            new TrafficFlows.Flow(1, "h2", "h1", 300, 4_000),
            new TrafficFlows.Flow(2, "h1", "h2", 500, 4_000));

    private static TrafficHost host(String name) {
        return new TrafficHost(new TrafficDriverSpec(
                name,
                TrafficFlows.TENANT,
                1,
                0,
                FLOWS.stream().filter(f -> f.from().equals(name)).toList(),
                FLOWS.stream().filter(f -> f.to().equals(name)).toList(),
                PAYLOAD,
                GIVE_UP));
    }

    @Test
    void aFlowLeavesAtItsStartAsMtuSizedUnicastPacketsAndTheRestInTheLast() {
        TrafficHost h1 = host("h1");
        assertEquals(List.of(), h1.start(0), "nothing is due at 0");
        assertEquals(100, h1.nextDeadline());
        List<EndpointDriver.Out> out = h1.onTimer(100);
        assertEquals(3, out.size(), "10000 bytes in packets of 4000: 4000, 4000, 2000");
        for (int k = 0; k < 3; k++) {
            Frame f = out.get(k).frame();
            InaHeader h = f.packet().header();
            assertEquals(PacketType.UNICAST, h.type());
            assertEquals(TrafficFlows.TENANT, h.tenant());
            assertEquals(0, h.seq(), "the flow's number");
            assertEquals(k, h.entropy(), "the packet's index in its flow");
            assertEquals("h2", f.destination());
            assertEquals(100, f.vt(), "at the flow's start: the NIC's queue paces them");
        }
        assertEquals(4000, out.get(0).frame().packet().payload().byteSize());
        assertEquals(2000, out.get(2).frame().packet().payload().byteSize());
        assertEquals(500, h1.nextDeadline(), "the next flow's start");
        assertFalse(h1.done(), "flow 2 is still to send, flow 1 to receive");
    }

    @Test
    void aReceiverFinishesAFlowAtItsLastPacketAndCountsDuplicatesOnce() {
        TrafficHost h1 = host("h1");
        TrafficHost h2 = host("h2");
        List<Frame> sent = new ArrayList<>();
        h1.onTimer(100).forEach(o -> sent.add(o.frame()));
        h1.onTimer(500).forEach(o -> sent.add(o.frame()));
        h2.start(0);
        h2.onTimer(300);
        // delivered out of order, with a duplicate of the first: flow 0 completes at its last arrival (900)
        long[] at = {700, 800, 900, 600};
        int[] order = {1, 0, 2, 3};
        for (int i = 0; i < order.length; i++) {
            h2.onDeliver(sent.get(order[i]).withVt(at[i]), at[i]);
        }
        h2.onDeliver(sent.get(0).withVt(950), 950);
        DriverReport r = h2.report();
        assertEquals(2, r.chunks(), "two flows to h2");
        assertEquals(2, r.received(), "both finished");
        assertEquals(900, r.unitVt()[0], "flow 0's last packet");
        assertEquals(600, r.unitVt()[1], "flow 2's one packet");
        assertEquals(14_000, r.stats().get("bytesReceived"));
        assertEquals(1, r.stats().get("duplicates"));
        assertTrue(h2.done(), "its one flow sent, both to it finished");
        TrafficFigures f = TrafficFigures.of(
                new TrafficPlan(0, null, TrafficFlows.TENANT, 1, FLOWS, Map.of(), List.of(spec("h2")), 0, GIVE_UP),
                List.of(r));
        assertEquals(1, f.flows(), "h2 started one flow");
        assertEquals(2, f.finished());
        // FCTs 900 - 100 = 800 ns and 600 - 500 = 100 ns
        assertEquals(0.8, f.fctMaxMicros(), 1e-9);
        assertEquals(0.8, f.fctP99Micros(), 1e-3);
        assertEquals(0.1, f.fctP50Micros(), 1e-3);
    }

    @Test
    void aFlowMissingAPacketIsUnfinishedAndTheReceiverGivesUpOnItAtItsTime() {
        TrafficHost h1 = host("h1");
        TrafficHost h2 = host("h2");
        List<Frame> sent = new ArrayList<>();
        h1.onTimer(100).forEach(o -> sent.add(o.frame()));
        h2.start(0);
        h2.onTimer(300);
        h2.onDeliver(sent.get(0), 700);
        h2.onDeliver(sent.get(2), 800);
        assertFalse(h2.done(), "flow 0 lacks a packet, flow 2 has none yet");
        assertEquals(GIVE_UP, h2.nextDeadline());
        h2.onTimer(GIVE_UP);
        assertTrue(h2.done(), "it gave up on what did not arrive");
        DriverReport r = h2.report();
        assertEquals(0, r.received());
        assertEquals(-1, r.unitVt()[0]);
        assertEquals(4_000 + 2_000, r.stats().get("bytesReceived"));
        assertEquals(Long.MAX_VALUE, h2.nextDeadline());
    }

    @Test
    void aPacketOfNoFlowToThisHostIsAStrayNeverAnError() {
        TrafficHost h2 = host("h2");
        Frame foreign = host("h2").onTimer(300).get(0).frame(); // flow 1 goes to h1, not h2
        h2.onDeliver(foreign, 400);
        Frame bad = foreign.withPacket(
                foreign.packet().withHeader(foreign.packet().header().withEntropy(99)));
        h2.onDeliver(bad, 400);
        assertEquals(2, h2.report().stats().get("strays"));
        assertEquals(0, h2.report().stats().get("packetsReceived"));
    }

    @Test
    void aFullPacketFillsTheMtuWithHeaderBitmapAndTag() {
        Topology t = Topologies.leafSpine(1, 1, 2, LinkSpec.DEFAULT);
        int payload = TrafficPlan.payloadBytes(t, 16);
        int mtu = t.links().get(0).spec().mtu();
        int overhead = PacketCodec.HEADER_BYTES + 1 + 16;
        assertEquals((mtu - overhead) / 4 * 4, payload);
    }

    private static TrafficDriverSpec spec(String name) {
        return new TrafficDriverSpec(
                name,
                TrafficFlows.TENANT,
                1,
                0,
                FLOWS.stream().filter(f -> f.from().equals(name)).toList(),
                FLOWS.stream().filter(f -> f.to().equals(name)).toList(),
                PAYLOAD,
                GIVE_UP);
    }
}
