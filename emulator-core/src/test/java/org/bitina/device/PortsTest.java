package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.pekko.actor.testkit.typed.Effect;
import org.apache.pekko.actor.testkit.typed.javadsl.BehaviorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestInbox;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.capture.BierFrame;
import org.bitina.protocol.Frame;
import org.bitina.protocol.NodeEngine;
import org.bitina.protocol.PacketCapture;
import org.bitina.protocol.Recorded;
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.LinkSpec;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * The ports of device {@code a} with neighbours {@code b} and {@code c} as test inboxes, driven
 * from inside a behavior under the synchronous testkit, so that what the ports schedule is an
 * effect to inspect and what they tell is in an inbox.
 */
class PortsTest {
    private static final LinkSpec SPEC = new LinkSpec(3_000, 8_000_000_000L, 9000, 0.0);

    /** Something the ports do while the device handles one message. */
    private interface Step {
        void run(ActorContext<Step> ctx);
    }

    private final TestInbox<DeviceCommand> b = TestInbox.create();
    private final TestInbox<DeviceCommand> c = TestInbox.create();
    private final TestInbox<Recorded> trace = TestInbox.create();
    private final BehaviorTestKit<Step> device = BehaviorTestKit.create(Behaviors.<Step>receive((ctx, step) -> {
        step.run(ctx);
        return Behaviors.same();
    }));

    private Ports ports(long seed) {
        Ports p = new Ports("a");
        Map<String, ActorRef<DeviceCommand>> neighbors = new LinkedHashMap<>();
        neighbors.put("b", b.getRef());
        neighbors.put("c", c.getRef());
        p.wire(new DeviceCommand.Wire(
                neighbors, Map.of("b", SPEC, "c", SPEC), null, seed, new Recorder(trace.getRef(), true, false)));
        return p;
    }

    private static Frame frame(long seq, int floats, long vt) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, seq).withOp(ReductionOp.SUM);
        return new Frame(new InaPacket(h, FlatBitmap.of(8, 1), Payload.of(new float[floats])), "b", vt);
    }

    /** Sends {@code frames} to {@code neighbor} while handling one message, then flushes as the device does. */
    private void sendAll(Ports p, String neighbor, List<Frame> frames) {
        device.run(ctx -> {
            frames.forEach(f -> p.send(ctx, neighbor, f));
            p.flush();
        });
    }

    /** What {@code inbox} got, batches opened, in order. */
    private static List<DeviceCommand.FrameIn> received(TestInbox<DeviceCommand> inbox) {
        List<DeviceCommand.FrameIn> out = new ArrayList<>();
        for (DeviceCommand m : inbox.getAllReceived()) {
            if (m instanceof DeviceCommand.FrameBatch batch) {
                out.addAll(batch.frames());
            } else {
                out.add((DeviceCommand.FrameIn) m);
            }
        }
        return out;
    }

    private static long serialisation(Frame f) {
        return SPEC.serializationNanos(PacketCodec.encodedSize(f.packet()));
    }

    @Test
    void theFramesForOneNeighbourLeaveAsOneBatchInOrderOnlyWhenTheMessageIsDone() {
        Ports p = ports(1);
        List<Frame> toB = List.of(frame(0, 4, 0), frame(1, 4, 0), frame(2, 4, 0));
        device.run(ctx -> {
            toB.forEach(f -> p.send(ctx, "b", f));
            p.send(ctx, "c", frame(9, 4, 0));
            assertFalse(b.hasMessages() || c.hasMessages(), "nothing leaves before the message is handled");
            p.flush();
        });
        DeviceCommand.FrameBatch batch = assertInstanceOf(DeviceCommand.FrameBatch.class, b.receiveMessage());
        assertEquals(
                List.of(0L, 1L, 2L),
                batch.frames().stream()
                        .map(m -> m.frame().packet().header().seq())
                        .toList());
        assertTrue(batch.frames().stream().allMatch(m -> m.from().equals("a")));
        assertFalse(b.hasMessages(), "one message for the three frames");
        assertEquals(
                9L,
                assertInstanceOf(DeviceCommand.FrameIn.class, c.receiveMessage())
                        .frame()
                        .packet()
                        .header()
                        .seq(),
                "a single frame goes as itself");
        device.run(ctx -> p.flush());
        assertFalse(b.hasMessages() || c.hasMessages(), "a flush sends what was put out once");
    }

    @Test
    void eachFrameArrivesAtTheModelledTimeOfItsLinkQueuedBehindTheOnesBefore() {
        Ports p = ports(1);
        Frame first = frame(0, 200, 1_000);
        Frame second = frame(1, 10, 1_000);
        sendAll(p, "b", List.of(first, second));
        List<DeviceCommand.FrameIn> got = received(b);
        long firstArrives = 1_000 + serialisation(first) + SPEC.latencyNanos();
        assertEquals(firstArrives, got.get(0).frame().vt());
        assertEquals(firstArrives + serialisation(second), got.get(1).frame().vt(), "serialised after the first left");
        assertEquals(first.packet(), got.get(0).frame().packet(), "the packet itself is untouched");
    }

    @Test
    void aBatchStaysWithin128KiBAndIsSplitOnlyWhereTheNextFrameWouldNotFit() {
        Ports p = ports(1);
        List<Frame> frames =
                IntStream.range(0, 100).mapToObj(i -> frame(i, 1000, 0)).toList();
        sendAll(p, "b", frames);
        List<DeviceCommand> messages = b.getAllReceived();
        assertTrue(messages.size() > 1, "100 frames of 4 KB do not fit one batch");
        List<Long> seqs = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            DeviceCommand.FrameBatch batch = assertInstanceOf(DeviceCommand.FrameBatch.class, messages.get(i));
            int bytes = batch.frames().stream().mapToInt(FrameSerializer::size).sum();
            assertTrue(bytes <= 128 * 1024, "batch " + i + " holds " + bytes + " bytes");
            if (i + 1 < messages.size()) {
                DeviceCommand.FrameIn next = ((DeviceCommand.FrameBatch) messages.get(i + 1))
                        .frames()
                        .get(0);
                assertTrue(
                        bytes + FrameSerializer.size(next) > 128 * 1024,
                        "batch " + i + " could have taken the next frame");
            }
            batch.frames().forEach(m -> seqs.add(m.frame().packet().header().seq()));
        }
        assertEquals(IntStream.range(0, 100).mapToObj(i -> (long) i).toList(), seqs, "every frame once, in order");
    }

    @Test
    void aCaptureHasEveryPacketOnItsLinkWhenItsFirstBitLeavesAndEveryDropWithItsReason() throws Exception {
        Frame f = frame(5, 10, 0);
        int size = PacketCodec.encodedSize(f.packet());
        TestInbox<Recorded> captures = TestInbox.create();
        Ports p = new Ports("a");
        // room for one frame waiting behind the one on the wire
        LinkSpec small = new LinkSpec(3_000, 8_000_000_000L, 9000, 0.0, size);
        p.wire(new DeviceCommand.Wire(
                Map.of("b", b.getRef()), Map.of("b", small), null, 1, new Recorder(captures.getRef(), false, true)));
        sendAll(p, "b", List.of(f, f, f));
        List<PacketCapture> got = new ArrayList<>();
        captures.getAllReceived().forEach(r -> got.add((PacketCapture) r));
        assertEquals(3, got.size(), "two sent, one dropped; no trace events asked for");
        long serialization = small.serializationNanos(size);
        assertEquals(
                List.of(0L, serialization, 0L),
                got.stream().map(c -> c.event().vt()).toList(),
                "the second leaves when the first is on the wire; the third is refused at once");
        assertEquals(
                List.of("send", "send", "drop"),
                got.stream().map(c -> c.event().event().label()).toList());
        assertEquals("queue full", got.get(2).event().detail());
        assertEquals("a->b", got.get(0).link());
        for (PacketCapture c : got) {
            // Ethernet, BIER's fixed words and a 64-bit bitstring (the smallest BSL) before the packet
            int at = BierFrame.ETHERNET_BYTES + BierFrame.BIER_FIXED_BYTES + 64 / 8;
            assertEquals(
                    f.packet(),
                    PacketCodec.decode(ByteBuffer.wrap(c.frame(), at, c.frame().length - at)),
                    "the codec's own bytes");
        }
    }

    @Test
    void aFrameForANeighbourWithoutALinkIsTracedAsADrop() {
        Ports p = ports(1);
        sendAll(p, "z", List.of(frame(4, 1, 77)));
        TraceEvent e = (TraceEvent) trace.receiveMessage();
        assertEquals(TraceEvent.Kind.DROP, e.event());
        assertEquals("no link to z", e.detail());
        assertEquals(List.of("z"), e.to());
        assertEquals(4, e.seq());
        assertFalse(b.hasMessages() || c.hasMessages());
    }

    @Test
    void aFrameThatFindsTheBufferFullIsDroppedAsQueueFullAndCountedOnItsLink() {
        Frame f = frame(5, 10, 0);
        int size = PacketCodec.encodedSize(f.packet());
        Ports p = new Ports("a");
        // room for one frame waiting behind the one on the wire
        LinkSpec small = new LinkSpec(3_000, 8_000_000_000L, 9000, 0.0, size);
        p.wire(new DeviceCommand.Wire(
                Map.of("b", b.getRef()), Map.of("b", small), null, 1, new Recorder(trace.getRef(), true, false)));
        sendAll(p, "b", List.of(f, f, f));
        assertEquals(2, received(b).size());
        TraceEvent e = (TraceEvent) trace.receiveMessage();
        assertEquals(TraceEvent.Kind.DROP, e.event());
        assertEquals("queue full", e.detail());
        assertEquals(5, e.seq());
        DeviceCommand.LinkStats stats = p.stats().get(0);
        assertEquals(
                new DeviceCommand.LinkStats(
                        "a", "b", 2, 2L * size, 2L * PacketCodec.headerBytes(f.packet()), 1, size, 1),
                new DeviceCommand.LinkStats(
                        stats.from(),
                        stats.to(),
                        stats.packets(),
                        stats.bytes(),
                        stats.headerBytes(),
                        stats.lost(),
                        stats.maxQueueBytes(),
                        stats.queueDrops()));
        // the finite buffer's depth over time: all three met at time 0, one waited, one found it full
        assertEquals(1, stats.queue().size());
        assertEquals(size, stats.queue().get(0)[1]);
    }

    @Test
    void aDownLinkDropsTheFrameTracesWhyAndCountsItLost() {
        Ports p = ports(1);
        p.fault(new DeviceCommand.LinkFault("b", false, null, null, null, null));
        sendAll(p, "b", List.of(frame(3, 1, 0)));
        assertFalse(b.hasMessages());
        TraceEvent e = (TraceEvent) trace.receiveMessage();
        assertEquals(TraceEvent.Kind.DROP, e.event());
        assertEquals("link down", e.detail());
        assertEquals("t1/j1", e.job());
        assertEquals("[01000000]", e.bitmap());
        DeviceCommand.LinkStats stats =
                p.stats().stream().filter(s -> s.to().equals("b")).findFirst().orElseThrow();
        assertEquals(new DeviceCommand.LinkStats("a", "b", 0, 0, 0, 1, 0, 0), stats);
        p.fault(new DeviceCommand.LinkFault("b", true, null, null, null, null));
        sendAll(p, "b", List.of(frame(3, 1, 0)));
        assertTrue(b.hasMessages(), "up again");
    }

    @Test
    void aDelayedFrameIsScheduledAfterItsWallDelayInsteadOfBatched() {
        Ports p = ports(1);
        p.fault(new DeviceCommand.LinkFault("b", null, null, null, null, 5_000_000L));
        Frame f = frame(0, 1, 0);
        sendAll(p, "b", List.of(f));
        assertFalse(b.hasMessages(), "not sent with the others");
        Effect.Scheduled<?> s = device.expectEffectClass(Effect.Scheduled.class);
        assertEquals(Duration.ofMillis(5), Duration.ofNanos(s.delay().toNanos()));
        assertEquals(b.getRef(), s.target());
        DeviceCommand.FrameIn m = assertInstanceOf(DeviceCommand.FrameIn.class, s.message());
        assertEquals(
                serialisation(f) + SPEC.latencyNanos(),
                m.frame().vt(),
                "the modelled arrival does not depend on wall delay");
    }

    @Test
    void aDuplicatedFrameArrivesTwice() {
        Ports p = ports(1);
        p.fault(new DeviceCommand.LinkFault("b", null, null, 1.0, null, null));
        sendAll(p, "b", List.of(frame(5, 1, 0)));
        List<DeviceCommand.FrameIn> got = received(b);
        assertEquals(2, got.size());
        assertEquals(got.get(0), got.get(1));
    }

    @Test
    void performSendsTheSendsTracesTheTracesAndReturnsWhatIsForThisDevice() {
        Ports p = ports(1);
        Frame out = frame(1, 1, 0);
        Frame local = frame(2, 1, 0);
        TraceEvent event = new TraceEvent(
                "a", "t1/j1", null, 1, TraceEvent.Kind.FORWARD, "agg", "[01000000]", List.of("b"), 0, null);
        List<Frame> delivered = new ArrayList<>();
        device.run(ctx -> {
            delivered.addAll(p.perform(
                    ctx,
                    List.of(
                            new NodeEngine.Send("b", out),
                            new NodeEngine.Deliver(local),
                            new NodeEngine.Traced(event))));
            p.flush();
        });
        assertEquals(List.of(local), delivered);
        assertEquals(out.packet(), received(b).get(0).frame().packet());
        assertEquals(event, trace.receiveMessage());
        assertFalse(c.hasMessages());
    }

    /** Which of 200 frames to b and 200 to c get through a link losing half. */
    private List<List<Long>> throughLossyLinks(long seed) {
        TestInbox<DeviceCommand> toB = TestInbox.create();
        TestInbox<DeviceCommand> toC = TestInbox.create();
        Ports p = new Ports("a");
        p.wire(new DeviceCommand.Wire(
                Map.of("b", toB.getRef(), "c", toC.getRef()), Map.of("b", SPEC, "c", SPEC), null, seed, null));
        p.fault(new DeviceCommand.LinkFault("b", null, 0.5, null, null, null));
        p.fault(new DeviceCommand.LinkFault("c", null, 0.5, null, null, null));
        List<Frame> frames =
                IntStream.range(0, 200).mapToObj(i -> frame(i, 1, 0)).toList();
        device.run(ctx -> {
            frames.forEach(f -> p.send(ctx, "b", f));
            frames.forEach(f -> p.send(ctx, "c", f));
            p.flush();
        });
        return List.of(
                received(toB).stream()
                        .map(m -> m.frame().packet().header().seq())
                        .toList(),
                received(toC).stream()
                        .map(m -> m.frame().packet().header().seq())
                        .toList());
    }

    @Test
    void aSeedRepeatsEveryLinksLossPatternAndEachLinkDrawsItsOwn() {
        List<List<Long>> run = throughLossyLinks(9);
        assertEquals(run, throughLossyLinks(9), "the same seed loses the same frames");
        assertNotEquals(run, throughLossyLinks(10));
        assertNotEquals(run.get(0), run.get(1), "links b and c do not lose the same frames");
        assertTrue(
                run.get(0).size() > 60 && run.get(0).size() < 140,
                "about half got through: " + run.get(0).size());
    }

    @Test
    void statsCountPerLinkAndResetZeroesThem() {
        Ports p = ports(1);
        Frame f = frame(0, 10, 0);
        sendAll(p, "b", List.of(f, f));
        int size = PacketCodec.encodedSize(f.packet());
        int header = PacketCodec.headerBytes(f.packet());
        assertEquals(
                List.of(
                        new DeviceCommand.LinkStats("a", "b", 2, 2L * size, 2L * header, 0, size, 0),
                        new DeviceCommand.LinkStats("a", "c", 0, 0, 0, 0, 0, 0)),
                p.stats());
        p.resetLinks();
        assertTrue(p.stats().stream()
                .allMatch(s -> s.packets() == 0 && s.bytes() == 0 && s.headerBytes() == 0 && s.lost() == 0));
        b.getAllReceived();
        sendAll(p, "b", List.of(frame(0, 10, 0)));
        assertEquals(
                serialisation(f) + SPEC.latencyNanos(),
                received(b).get(0).frame().vt(),
                "the modelled queue was emptied too");
    }
}
