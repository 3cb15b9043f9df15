package org.bitina.usecase.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.RecoverySettings;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TrafficFlows;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;

/**
 * The background-traffic host driver (T3) without actors: what it sends when, how a flow recovers
 * from a loss (go-back-N on timeout), what it counts, when it gives up and when it is done.
 */
class TrafficHostTest {
    private static final int PAYLOAD = 4000;
    private static final long RTO = 2_000;
    private static final RecoveryPolicy POLICY = RecoveryPolicy.doubling(RTO, 2, 4, RecoverySettings.NONE);
    private static final long GIVE_UP = 1_000_000;
    /** The one-way time of every packet in {@link #run}. */
    private static final long WIRE = 300;

    /** h1 sends flow 0 (10000 bytes at 100 ns) and flow 2 (4000 at 500 ns) to h2; h2 sends flow 1 to h1. */
    private static final List<TrafficFlows.Flow> FLOWS = List.of(
            new TrafficFlows.Flow(0, "h1", "h2", 100, 10_000),
            new TrafficFlows.Flow(1, "h2", "h1", 300, 4_000),
            new TrafficFlows.Flow(2, "h1", "h2", 500, 4_000));

    private static TrafficHost host(String name) {
        return new TrafficHost(spec(name));
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
            assertFalse(h.has(Flags.RETRANSMIT));
            assertEquals("h2", f.destination());
            assertEquals(100, f.vt(), "at the flow's start: the NIC's queue paces them");
        }
        assertEquals(4000, out.get(0).frame().packet().payload().byteSize());
        assertEquals(2000, out.get(2).frame().packet().payload().byteSize());
        assertEquals(500, h1.nextDeadline(), "the next flow's start, before flow 0's timer at 100 + RTO");
        assertFalse(h1.done(), "flow 0 is unacknowledged, flow 2 still to send, flow 1 to receive");
    }

    @Test
    void aReceiverTakesPacketsInOrderAcknowledgesCumulativelyAndDiscardsPastAGap() {
        TrafficHost h1 = host("h1");
        TrafficHost h2 = host("h2");
        List<Frame> sent = new ArrayList<>();
        h1.onTimer(100).forEach(o -> sent.add(o.frame()));
        h2.start(0);
        List<EndpointDriver.Out> past = h2.onDeliver(sent.get(1).withVt(700), 700);
        assertEquals(List.of(), past, "packet 1 before packet 0: discarded, as go-back-N does");
        List<EndpointDriver.Out> ack = h2.onDeliver(sent.get(0).withVt(800), 800);
        assertEquals(1, ack.size());
        InaHeader a = ack.get(0).frame().packet().header();
        assertEquals(PacketType.ACK, a.type());
        assertEquals(0, a.seq(), "flow 0's");
        assertEquals(1, a.entropy(), "one packet taken");
        assertEquals("h1", ack.get(0).frame().destination());
        List<EndpointDriver.Out> again = h2.onDeliver(sent.get(0).withVt(850), 850);
        assertEquals(1, again.get(0).frame().packet().header().entropy(), "a duplicate is acknowledged again");
        DriverReport r = h2.report();
        assertEquals(1, r.stats().get("outOfOrder"));
        assertEquals(1, r.stats().get("duplicates"));
        assertEquals(4_000, r.stats().get("bytesReceived"), "each byte counted once");
    }

    @Test
    void withNothingLostEveryFlowFinishesOnceAndNothingIsSentAgain() {
        Map<String, TrafficHost> hosts = run(f -> false);
        DriverReport r2 = hosts.get("h2").report();
        assertEquals(2, r2.received(), "both flows to h2 finished");
        assertEquals(100 + WIRE, r2.unitVt()[0], "flow 0's last packet, handed over at its start");
        assertEquals(500 + WIRE, r2.unitVt()[1]);
        assertEquals(0, hosts.get("h1").report().stats().get(TrafficHost.RETRANSMITTED));
        assertEquals(0, hosts.get("h1").report().stats().get("timeouts"));
        assertEquals(2, hosts.get("h1").report().stats().get("flowsAcknowledged"));
        hosts.values().forEach(h -> assertTrue(h.done()));
    }

    @Test
    void aLostPacketCostsOneTimeoutAndTheRestOfTheFlowIsSentAgain() {
        Set<String> once = new HashSet<>();
        // flow 0's packet 1 is lost the first time
        Map<String, TrafficHost> hosts = run(f -> isData(f, 0, 1) && once.add("lost"));
        TrafficHost h1 = hosts.get("h1");
        DriverReport r2 = hosts.get("h2").report();
        assertEquals(2, r2.received(), "both flows finished");
        // packet 0's ACK at 100 + 2 WIRE restarts the timer; it fires RTO later and packets 1 and 2 go again
        long resentAt = 100 + 2 * WIRE + RTO;
        assertEquals(resentAt + WIRE, r2.unitVt()[0], "the flow ends one timeout after the loss was due");
        assertTrue(r2.unitVt()[0] - (100 + WIRE) >= RTO, "at least one timeout later than without the loss");
        assertEquals(2, h1.report().stats().get(TrafficHost.RETRANSMITTED), "go-back-N: packets 1 and 2");
        assertEquals(1, h1.report().stats().get("timeouts"));
        assertEquals(1, r2.stats().get("outOfOrder"), "packet 2 behind the gap was discarded");
        assertEquals(14_000, r2.stats().get("bytesReceived"), "no byte counted twice");
        assertTrue(h1.report().gaveUp().isEmpty());
        hosts.values().forEach(h -> assertTrue(h.done()));
    }

    @Test
    void aLostAcknowledgementIsRecoveredByTheDuplicateItsTimeoutBrings() {
        Set<String> once = new HashSet<>();
        Map<String, TrafficHost> hosts = run(f -> f.packet().header().type() == PacketType.ACK
                && f.packet().header().seq() == 2
                && once.add("lost"));
        assertEquals(2, hosts.get("h2").report().received());
        assertEquals(500 + WIRE, hosts.get("h2").report().unitVt()[1], "the data arrived at once");
        assertEquals(1, hosts.get("h2").report().stats().get("duplicates"), "its resend is acknowledged again");
        assertEquals(2, hosts.get("h1").report().stats().get("flowsAcknowledged"));
        TrafficFigures fig = TrafficFigures.of(
                new TrafficPlan(
                        0, null, TrafficFlows.TENANT, 1, FLOWS, Map.of(), List.of(spec("h1"), spec("h2")), 0, GIVE_UP),
                List.of(hosts.get("h1").report(), hosts.get("h2").report()));
        assertEquals(1, fig.duplicatesReceived(), "the resend the lost ACK caused was not needed");
        assertEquals(0, fig.discardedPastGap());
    }

    @Test
    void aSenderCutOffGivesUpAfterThePolicysSendsAndTheReceiverStopsWaitingAtItsTime() {
        // everything of flow 2 is lost, for good
        Map<String, TrafficHost> hosts = run(f -> isData(f, 2, 0));
        TrafficHost h1 = hosts.get("h1");
        List<String> gaveUp = h1.report().gaveUp();
        assertEquals(1, gaveUp.size(), gaveUp.toString());
        assertTrue(
                gaveUp.get(0).startsWith("flow 2 h1->h2: no acknowledgement of packet 0 of 1 after 4 sends"),
                gaveUp.get(0));
        assertEquals(3, h1.report().stats().get(TrafficHost.RETRANSMITTED), "three resends after the first");
        DriverReport r2 = hosts.get("h2").report();
        assertEquals(1, r2.received(), "flow 0 finished, flow 2 not");
        assertEquals(-1, r2.unitVt()[1]);
        assertTrue(hosts.get("h2").done(), "it stopped waiting at the give-up time");
        TrafficFigures fig = TrafficFigures.of(
                new TrafficPlan(
                        0, null, TrafficFlows.TENANT, 1, FLOWS, Map.of(), List.of(spec("h1"), spec("h2")), 0, GIVE_UP),
                List.of(h1.report(), r2, hosts.get("h2").report()));
        assertEquals(3, fig.flows(), "h1 started two, h2 one");
        assertEquals(1, fig.unfinished());
        assertEquals(gaveUp, fig.gaveUp());
        assertEquals(3, fig.retransmissions());
        assertEquals(4, fig.timeouts(), "three go-backs and the give-up");
    }

    @Test
    void aPacketOrAckOfNoFlowToThisHostIsAStrayNeverAnError() {
        TrafficHost h2 = host("h2");
        Frame foreign = host("h2").onTimer(300).get(0).frame(); // flow 1 goes to h1, not h2
        h2.onDeliver(foreign, 400);
        Frame bad = foreign.withPacket(
                foreign.packet().withHeader(foreign.packet().header().withEntropy(99)));
        h2.onDeliver(bad, 400);
        Frame forgedAck = foreign.withPacket(foreign.packet()
                .withHeader(foreign.packet().header().withType(PacketType.ACK).withEntropy(7)));
        h2.onDeliver(forgedAck, 400);
        assertEquals(3, h2.report().stats().get("strays"));
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

    private static boolean isData(Frame f, int flow, int packet) {
        InaHeader h = f.packet().header();
        return h.type() == PacketType.UNICAST && h.seq() == flow && h.entropy() >= packet;
    }

    private record InFlight(long at, long order, Frame frame) {}

    /** Both hosts on a wire of {@link #WIRE} each way that loses what {@code lost} says, until nothing is left. */
    private static Map<String, TrafficHost> run(Predicate<Frame> lost) {
        Map<String, TrafficHost> hosts = new LinkedHashMap<>();
        hosts.put("h1", host("h1"));
        hosts.put("h2", host("h2"));
        PriorityQueue<InFlight> wire =
                new PriorityQueue<>(Comparator.comparingLong(InFlight::at).thenComparingLong(InFlight::order));
        long[] order = {0};
        java.util.function.Consumer<List<EndpointDriver.Out>> send = outs -> {
            for (EndpointDriver.Out o : outs) {
                if (!lost.test(o.frame())) {
                    wire.add(new InFlight(o.frame().vt() + WIRE, order[0]++, o.frame()));
                }
            }
        };
        hosts.values().forEach(h -> send.accept(h.start(0)));
        for (int steps = 0; steps < 10_000; steps++) {
            long timer = hosts.values().stream()
                    .mapToLong(TrafficHost::nextDeadline)
                    .min()
                    .getAsLong();
            long arrival = wire.isEmpty() ? Long.MAX_VALUE : wire.peek().at();
            if (timer == Long.MAX_VALUE && arrival == Long.MAX_VALUE) {
                return hosts;
            }
            if (arrival <= timer) {
                InFlight in = wire.poll();
                send.accept(
                        hosts.get(in.frame().destination()).onDeliver(in.frame().withVt(in.at()), in.at()));
            } else {
                for (TrafficHost h : hosts.values()) {
                    if (h.nextDeadline() == timer) {
                        send.accept(h.onTimer(timer));
                    }
                }
            }
        }
        throw new AssertionError("the hosts never settle");
    }

    private static TrafficDriverSpec spec(String name) {
        return spec(name, FLOWS, POLICY, null);
    }

    private static TrafficDriverSpec spec(
            String name, List<TrafficFlows.Flow> flows, RecoveryPolicy policy, Dcqcn.Settings congestion) {
        return spec(name, flows, policy, congestion, 100_000_000_000L);
    }

    private static TrafficDriverSpec spec(
            String name,
            List<TrafficFlows.Flow> flows,
            RecoveryPolicy policy,
            Dcqcn.Settings congestion,
            long lineBps) {
        List<TrafficFlows.Flow> sends =
                flows.stream().filter(f -> f.from().equals(name)).toList();
        return new TrafficDriverSpec(
                name,
                TrafficFlows.TENANT,
                1,
                0,
                sends,
                sends.stream().map(f -> policy).toList(),
                flows.stream().filter(f -> f.to().equals(name)).toList(),
                PAYLOAD,
                OVERHEAD,
                GIVE_UP,
                congestion,
                lineBps);
    }

    private static final int OVERHEAD = (int) TrafficPlan.packetOverhead(0);

    /** DCQCN with its checks every 4 us and one CNP per flow per 50 us. */
    private static final Dcqcn.Settings DCQCN = new Dcqcn.Settings(
            4096,
            16384,
            0.2,
            50_000,
            1.0 / 16,
            55_000,
            4_000,
            55_000,
            5,
            5_000_000,
            50_000_000,
            100_000_000,
            1.0,
            false);

    /** h1 sends one flow of 100 full packets to h2 from time 0. */
    private static final List<TrafficFlows.Flow> LONG = List.of(new TrafficFlows.Flow(0, "h1", "h2", 0, 100 * PAYLOAD));

    @Test
    void underDcqcnAFlowIsPacedAtItsRateAndACnpHalvesItAtTheNextDecreaseCheck() {
        // a timeout far away: only the pacing decides when packets leave
        RecoveryPolicy patient = RecoveryPolicy.doubling(1_000_000, 2, 4, RecoverySettings.NONE);
        TrafficHost h1 = new TrafficHost(spec("h1", LONG, patient, DCQCN));
        List<Frame> sent = new ArrayList<>();
        h1.start(0).forEach(o -> sent.add(o.frame()));
        assertEquals(1, sent.size(), "one packet at the line rate, the next one serialisation later");
        // 4000 + overhead bytes at 100 Gbps, rounded up to whole nanoseconds
        long full = -Math.floorDiv(-8L * (PAYLOAD + OVERHEAD), 100);
        long cut = -Math.floorDiv(-8L * (PAYLOAD + OVERHEAD), 50);
        assertEquals(full, h1.nextDeadline());
        Frame ce = sent.get(0);
        Frame cnp = new Frame(
                new InaPacket(
                        InaHeader.of(PacketType.ACK, TrafficFlows.TENANT, 1, 0)
                                .withEntropy(1)
                                .withFlags(Flags.CE),
                        FlatBitmap.of(1),
                        Payload.EMPTY),
                "h1",
                600);
        h1.onDeliver(cnp, 600); // the first CNP: the rate is cut at the check 4 us + 1 ns later
        while (sent.size() < 30) {
            long t = h1.nextDeadline();
            h1.onTimer(t).forEach(o -> sent.add(o.frame()));
        }
        for (int k = 1; k < sent.size(); k++) {
            long gap = sent.get(k).vt() - sent.get(k - 1).vt();
            long leftAt = sent.get(k - 1).vt();
            // the gap after a packet is its serialisation at the rate when it left
            assertEquals(leftAt < 600 + 4_001 ? full : cut, gap, "packet " + k + " after " + leftAt);
        }
        assertEquals(1, h1.report().stats().get(TrafficHost.CNPS_TAKEN));
        assertEquals(1, h1.report().stats().get(TrafficHost.RATE_CUTS));
        assertEquals(50_000_000_000L, h1.report().stats().get(TrafficHost.LOWEST_RATE));
        assertFalse(ce.packet().header().has(Flags.CE), "the sender sends unmarked packets");
    }

    @Test
    void aTimeoutThatFindsTheQueuePairBusySendsWhenItIsFreeAndOnlyThenCountsASend() {
        // at 1 Gbps a full packet takes about 32 us, sixteen timeouts of 2 us: the go-back waits for the pair
        TrafficHost h1 = new TrafficHost(spec("h1", LONG, POLICY, DCQCN, 1_000_000_000L));
        List<Frame> sent = new ArrayList<>();
        h1.start(0).forEach(o -> sent.add(o.frame()));
        while (h1.report().gaveUp().isEmpty() && h1.nextDeadline() != Long.MAX_VALUE) {
            h1.onTimer(h1.nextDeadline()).forEach(o -> sent.add(o.frame()));
            if (sent.size() > 1000) {
                break;
            }
        }
        // nothing is ever acknowledged: the flow is given up after the policy's 4 sends of packet 0, each of
        // which left (a timer that ran while nothing was in flight would have spent sends never made)
        assertEquals(1, h1.report().gaveUp().size(), h1.report().gaveUp().toString());
        assertEquals(
                4, sent.stream().filter(f -> f.packet().header().entropy() == 0).count());
    }

    @Test
    void aReceiverAnswersAMarkedPacketWithACnpAtMostOncePerFlowPerInterval() {
        TrafficHost h2 = new TrafficHost(spec("h2", LONG, POLICY, DCQCN));
        TrafficHost h1 = new TrafficHost(spec("h1", LONG, POLICY, DCQCN));
        List<Frame> data = new ArrayList<>();
        h1.start(0).forEach(o -> data.add(o.frame()));
        while (data.size() < 3) {
            h1.onTimer(h1.nextDeadline()).forEach(o -> data.add(o.frame()));
        }
        List<Boolean> cnps = new ArrayList<>();
        long[] at = {1_000, 2_000, 52_000};
        for (int k = 0; k < 3; k++) {
            Frame d = data.get(k);
            Frame marked = d.withPacket(d.packet()
                            .withHeader(d.packet()
                                    .header()
                                    .withFlags(d.packet().header().flags() | Flags.CE)))
                    .withVt(at[k]);
            Frame ack = h2.onDeliver(marked, at[k]).get(0).frame();
            assertEquals(PacketType.ACK, ack.packet().header().type());
            cnps.add(ack.packet().header().has(Flags.CE));
        }
        assertEquals(List.of(true, false, true), cnps, "the second came within 50 us of the first");
        assertEquals(3, h2.report().stats().get(TrafficHost.MARKED));
        assertEquals(2, h2.report().stats().get(TrafficHost.CNPS_SENT));
        // without congestion control a receiver counts nothing of it and its ACKs carry no CNP
        TrafficHost plain = new TrafficHost(spec("h2", LONG, POLICY, null));
        Frame d = data.get(0);
        Frame marked = d.withPacket(d.packet()
                .withHeader(d.packet().header().withFlags(d.packet().header().flags() | Flags.CE)));
        assertFalse(
                plain.onDeliver(marked, 1_000).get(0).frame().packet().header().has(Flags.CE));
        assertFalse(plain.report().stats().containsKey(TrafficHost.CNPS_SENT));
    }
}
