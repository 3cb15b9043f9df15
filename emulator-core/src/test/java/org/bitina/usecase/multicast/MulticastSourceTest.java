package org.bitina.usecase.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;

/**
 * A reliable-multicast source without a network: its data handed to real receivers (or not,
 * for a loss), their ACKs handed back one by one, as the unicast-ACK baseline delivers them.
 */
class MulticastSourceTest {
    private static final long MS = 1_000_000L;
    private static final long ROUND = 10 * MS;
    private static final List<String> RECEIVERS = List.of("r1", "r2", "r3", "r4");
    private final BitSpace space = new BitSpace(RECEIVERS);

    /** Four packets of 1000 bytes in windows of two, ACK per packet. */
    private MulticastPlan plan(int maxRounds, Set<String> silent) {
        MulticastSpec.Params params = new MulticastSpec.Params(4000, 1000, 2, 1, false, "preconfigured", maxRounds);
        Map<String, String> uplink = new LinkedHashMap<>();
        RECEIVERS.forEach(r -> uplink.put(r, "src"));
        return MulticastPlan.builder()
                .jobName("mc")
                .mode(Mode.of("unicast-ack"))
                .tenant(1)
                .wireJob(4_000_001)
                .source("src")
                .receivers(space)
                .params(params)
                .uplink(uplink)
                .roundTimeoutNanos(ROUND)
                .silent(silent)
                .members(RECEIVERS)
                .build();
    }

    /** The receivers, and the frames the source sent them. */
    private static final class Net {
        final MulticastSource source;
        final Map<String, MulticastReceiver> receivers = new LinkedHashMap<>();

        Net(MulticastPlan plan) {
            source = new MulticastSource(plan, "src");
            RECEIVERS.forEach(r -> receivers.put(r, new MulticastReceiver(plan, r)));
        }

        /** Hands {@code data} to every receiver it names except those {@code lost} on the way; returns their ACKs. */
        List<Frame> deliver(List<EndpointDriver.Out> data, Map<Long, Set<String>> lost) {
            List<Frame> acks = new ArrayList<>();
            for (EndpointDriver.Out o : data) {
                InaPacket p = o.frame().packet();
                receivers.forEach((name, r) -> {
                    if (r.accepts(p)
                            && !lost.getOrDefault(p.header().seq(), Set.of()).contains(name)) {
                        r.onDeliver(o.frame(), 0).forEach(a -> acks.add(a.frame()));
                    }
                });
            }
            return acks;
        }

        /** Hands the ACKs to the source; returns what it sends next. */
        List<EndpointDriver.Out> ack(List<Frame> acks, long now) {
            List<EndpointDriver.Out> out = new ArrayList<>();
            for (Frame a : acks) {
                assertTrue(source.accepts(a.packet()));
                out.addAll(source.onDeliver(a, now));
            }
            return out;
        }
    }

    private EndpointSet set(String... names) {
        return space.setOf(List.of(names));
    }

    private static List<Long> seqs(List<EndpointDriver.Out> out) {
        return out.stream().map(o -> o.frame().packet().header().seq()).toList();
    }

    @Test
    void theRetransmissionGoesToExactlyTheReceiversThatDidNotAcknowledgeEachPacket() {
        Net net = new Net(plan(5, Set.of()));
        List<EndpointDriver.Out> first = net.source.start(0);
        assertEquals(List.of(0L, 1L), seqs(first), "the first window");
        for (EndpointDriver.Out o : first) {
            assertEquals(set("r1", "r2", "r3", "r4"), o.frame().packet().endpoints());
            assertFalse(o.frame().packet().header().has(Flags.RETRANSMIT));
        }
        // packet 0 is lost on the way to r2, packet 1 on the way to r3 and r4
        Map<Long, Set<String>> lost = Map.of(0L, Set.of("r2"), 1L, Set.of("r3", "r4"));
        assertTrue(net.ack(net.deliver(first, lost), MS).isEmpty(), "the round is not over before its timer");
        assertEquals(ROUND, net.source.nextDeadline());
        List<EndpointDriver.Out> repair = net.source.onTimer(ROUND);
        assertEquals(List.of(0L, 1L), seqs(repair));
        for (EndpointDriver.Out o : repair) {
            InaPacket p = o.frame().packet();
            long seq = p.header().seq();
            EndpointSet acked = set(
                    RECEIVERS.stream().filter(r -> !lost.get(seq).contains(r)).toArray(String[]::new));
            assertEquals(
                    set("r1", "r2", "r3", "r4").andNot(acked),
                    p.endpoints(),
                    "packet " + seq + " to its miss set only");
            assertTrue(p.header().has(Flags.RETRANSMIT));
            assertEquals(1, p.header().destination(), "round 1");
        }
        List<EndpointDriver.Out> next = net.ack(net.deliver(repair, Map.of()), ROUND + MS);
        assertEquals(List.of(2L, 3L), seqs(next), "the window is whole everywhere: the next one starts at once");
        assertTrue(net.ack(net.deliver(next, Map.of()), ROUND + 2 * MS).isEmpty());
        assertTrue(net.source.done());
        Map<String, Long> stats = net.source.report().stats();
        assertEquals(1L, stats.get("retransmissionRounds"));
        assertEquals(3L, stats.get("rounds"), "two rounds for the first window, one for the second");
        assertEquals(2L + 2 + 2, stats.get("dataPackets"));
        long round0 = (4 - 1) + (4 - 2);
        long round1 = 1 + 2;
        long secondWindow = 2 * 4;
        assertEquals(
                round0 + round1 + secondWindow,
                stats.get("ackPacketsIntoSource"),
                "one ACK per receiver per packet it got");
        for (MulticastReceiver r : net.receivers.values()) {
            assertEquals(4, r.report().verifiedChunks(), r.report().endpoint() + " holds the whole block");
        }
    }

    @Test
    void aPartialAckFromTheTreeEndsTheRoundWithoutWaitingForTheTimer() {
        Net net = new Net(plan(5, Set.of()));
        List<EndpointDriver.Out> first = net.source.start(0);
        // the ACK tree gave up on r4 for both packets: it sends what it has, flagged partial
        List<EndpointDriver.Out> repair = new ArrayList<>();
        for (EndpointDriver.Out o : first) {
            InaPacket data = o.frame().packet();
            InaPacket ack = new InaPacket(
                    data.header().withType(PacketType.ACK).withFlags(Flags.PARTIAL),
                    set("r1", "r2", "r3"),
                    Payload.EMPTY);
            repair.addAll(net.source.onDeliver(new Frame(ack, "src", 0), MS));
        }
        assertEquals(List.of(0L, 1L), seqs(repair), "repaired at once, before the round's timer");
        assertTrue(repair.stream().allMatch(o -> o.frame().packet().endpoints().equals(set("r4"))));
    }

    @Test
    void aReceiverStillMissingAfterTheLastRoundIsNamedUnreachableAndLeftOutOfLaterWindows() {
        int maxRounds = 3;
        Net net = new Net(plan(maxRounds, Set.of("r3")));
        List<EndpointDriver.Out> out = net.source.start(0);
        long now = 0;
        for (int round = 1; round < maxRounds; round++) {
            net.ack(net.deliver(out, Map.of()), now + MS);
            now += ROUND;
            out = net.source.onTimer(now);
            assertTrue(
                    out.stream().allMatch(o -> o.frame().packet().endpoints().equals(set("r3"))),
                    "round " + round + " asks r3 alone");
        }
        net.ack(net.deliver(out, Map.of()), now + MS);
        now += ROUND;
        List<EndpointDriver.Out> next = net.source.onTimer(now);
        assertEquals(List.of(2L, 3L), seqs(next), "after " + maxRounds + " rounds the source goes on");
        assertTrue(
                next.stream().allMatch(o -> o.frame().packet().endpoints().equals(set("r1", "r2", "r4"))),
                "without r3");
        net.ack(net.deliver(next, Map.of()), now + MS);
        assertTrue(net.source.done());
        assertEquals(
                List.of(new DriverReport.PartialChunk(0, List.of("r3"))),
                net.source.report().partialChunks());
        assertEquals((long) maxRounds - 1, net.source.report().stats().get("retransmissionRounds"));
    }

    @Test
    void anAckForAWindowAlreadyFinishedChangesNothing() {
        Net net = new Net(plan(5, Set.of()));
        List<EndpointDriver.Out> first = net.source.start(0);
        List<Frame> acks = net.deliver(first, Map.of());
        List<EndpointDriver.Out> next = net.ack(acks, MS);
        assertEquals(List.of(2L, 3L), seqs(next));
        assertTrue(net.ack(List.of(acks.get(0)), 2 * MS).isEmpty(), "a late copy of a window-0 ACK");
        assertFalse(net.source.done());
        assertEquals(1, net.source.report().received(), "one window finished");
    }
}
