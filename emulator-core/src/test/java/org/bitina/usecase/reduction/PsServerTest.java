package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The parameter-server baseline without a network: two workers' contributions handed to the server, its answers back. */
class PsServerTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 10 * MS;
    private final BitSpace space = new BitSpace(List.of("w1", "w2", "ps"));
    private final DataSpec data = new DataSpec(64, ElementType.INT32, ReductionOp.SUM, 32, 2, 4, 1 << 16);
    private final AllReducePlan plan = AllReducePlan.builder()
            .jobName("j")
            .mode(Mode.of("ps"))
            .tenant(1)
            .wireJob(2_000_001)
            .space(space)
            .members(List.of("w1", "w2"))
            .data(data)
            .uplink(Map.of("w1", "ps", "w2", "ps"))
            .psHost("ps")
            .timeoutNanos(TIMEOUT)
            .seed(4)
            .build();
    private final AllReduceData values = new AllReduceData(data);

    private int[] sum(int chunk, int... bits) {
        int[] s = new int[data.chunk()];
        for (int b : bits) {
            int[] v = ((Payload.Int32) values.payload(b, chunk)).values();
            for (int i = 0; i < s.length; i++) {
                s[i] += v[i];
            }
        }
        return s;
    }

    private static Frame only(List<EndpointDriver.Out> out) {
        assertEquals(1, out.size(), out.toString());
        return out.get(0).frame();
    }

    @Test
    void theServerReducesBothWorkersContributionsAndAnswersEachOfThemWithTheSum() {
        PsServer ps = new PsServer(plan);
        AllReduceWorker w1 = new AllReduceWorker(plan, "w1");
        AllReduceWorker w2 = new AllReduceWorker(plan, "w2");
        assertTrue(ps.start(0).isEmpty(), "a server waits for contributions");
        List<EndpointDriver.Out> c1 = w1.start(0);
        List<EndpointDriver.Out> c2 = w2.start(0);
        assertEquals(data.chunks(), c1.size(), "the window covers both chunks");
        for (int c = 0; c < data.chunks(); c++) {
            Frame from1 = c1.get(c).frame();
            assertEquals("ps", from1.destination());
            assertTrue(ps.accepts(from1.packet()));
            assertTrue(ps.onDeliver(from1, MS).isEmpty(), "half a chunk: nothing to answer yet");
            List<EndpointDriver.Out> answers = ps.onDeliver(c2.get(c).frame(), MS);
            assertEquals(
                    List.of("w1", "w2"),
                    answers.stream().map(o -> o.frame().destination()).toList(),
                    "one answer per worker");
            for (EndpointDriver.Out a : answers) {
                InaPacket p = a.frame().packet();
                assertEquals(PacketType.UNICAST, p.header().type());
                assertEquals(c, p.header().seq());
                assertEquals(space.index(a.frame().destination()), p.header().destination());
                assertEquals(FlatBitmap.of(3, 0, 1), p.endpoints(), "the sum holds w1 and w2");
                assertArrayEquals(sum(c, 0, 1), ((Payload.Int32) p.payload()).values());
                (a.frame().destination().equals("w1") ? w1 : w2).onDeliver(a.frame(), 2 * MS);
            }
        }
        for (AllReduceWorker w : List.of(w1, w2)) {
            assertTrue(w.done());
            assertEquals(List.of(), w.report().mismatches());
            assertEquals(data.chunks(), w.report().verifiedChunks());
        }
        assertEquals(data.chunks(), ps.report().received(), "one result per chunk");
        assertEquals("ps", ps.report().endpoint());
    }

    @Test
    void atItsTimeoutTheServerAnswersWithWhatItHasAndFoldsTheLateContributionInAfterwards() {
        PsServer ps = new PsServer(plan);
        Frame from1 = new AllReduceWorker(plan, "w1").start(0).get(0).frame();
        Frame from2 = new AllReduceWorker(plan, "w2").start(0).get(0).frame();
        ps.onDeliver(from1, MS);
        assertEquals(MS + TIMEOUT, ps.nextDeadline());
        assertTrue(ps.onTimer(MS + TIMEOUT - 1).isEmpty());
        List<EndpointDriver.Out> partial = ps.onTimer(MS + TIMEOUT);
        assertEquals(2, partial.size(), "both workers get the partial result");
        assertEquals(FlatBitmap.of(3, 0), partial.get(0).frame().packet().endpoints(), "it holds w1 alone");
        assertArrayEquals(
                sum(0, 0), ((Payload.Int32) partial.get(1).frame().packet().payload()).values());
        List<EndpointDriver.Out> better = ps.onDeliver(from2, MS + TIMEOUT + 1);
        assertEquals(2, better.size(), "w2's late share widens the result, sent to both again");
        assertEquals(FlatBitmap.of(3, 0, 1), better.get(0).frame().packet().endpoints());
        assertArrayEquals(
                sum(0, 0, 1), ((Payload.Int32) better.get(0).frame().packet().payload()).values());
    }

    @Test
    void aWorkerThatAsksAgainGetsTheResultAgainAloneAndIsNotCountedTwice() {
        PsServer ps = new PsServer(plan);
        AllReduceWorker w1 = new AllReduceWorker(plan, "w1");
        Frame from1 = w1.start(0).get(0).frame();
        ps.onDeliver(from1, MS);
        List<EndpointDriver.Out> result =
                ps.onDeliver(new AllReduceWorker(plan, "w2").start(0).get(0).frame(), MS);
        assertEquals(2, result.size());
        // w1's result was lost: its timer sends chunk 0 again, flagged as a retransmission
        List<EndpointDriver.Out> again = w1.onTimer(w1.nextDeadline());
        Frame retransmission = again.stream()
                .map(EndpointDriver.Out::frame)
                .filter(f -> f.packet().header().seq() == 0)
                .findFirst()
                .orElseThrow();
        assertTrue(retransmission.packet().header().has(Flags.RETRANSMIT));
        Frame resent = only(ps.onDeliver(retransmission, 50 * MS));
        assertEquals("w1", resent.destination());
        assertEquals(result.get(0).frame().packet().payload(), resent.packet().payload());
        assertEquals(1, ps.report().received(), "a resend is not another result");
        // the same contribution without the flag is a plain duplicate: nothing to answer
        assertTrue(ps.onDeliver(from1, 51 * MS).isEmpty());
    }

    @Test
    void theServerTakesContributionsOnly() {
        PsServer ps = new PsServer(plan);
        Frame contribution = new AllReduceWorker(plan, "w1").start(0).get(0).frame();
        assertTrue(ps.accepts(contribution.packet()));
        assertFalse(
                ps.accepts(contribution
                        .packet()
                        .withHeader(contribution.packet().header().withType(PacketType.UNICAST))),
                "its own answers to a worker on the same host are the worker's");
        assertTrue(ps.done(), "a server never holds a phase open");
    }

    @Test
    void aMarkedContributionMarksTheResultToEveryWorkerAndItsWorkersCutTheirWindow() {
        AllReducePlan dcqcn = plan.toBuilder()
                .congestion(Dcqcn.Settings.DEFAULTS, Map.of("w1", 100L, "w2", 100L))
                .build();
        PsServer ps = new PsServer(dcqcn);
        AllReduceWorker w1 = new AllReduceWorker(dcqcn, "w1");
        List<EndpointDriver.Out> c1 = w1.start(0);
        List<EndpointDriver.Out> c2 = new AllReduceWorker(dcqcn, "w2").start(0);
        // chunk 0: w2's contribution arrives ECN-marked; chunk 1: nothing marked
        ps.onDeliver(c1.get(0).frame(), MS);
        Frame marked = c2.get(0).frame();
        List<EndpointDriver.Out> r0 =
                ps.onDeliver(new Frame(marked.packet().flagged(Flags.CE), marked.destination(), marked.vt()), MS);
        ps.onDeliver(c1.get(1).frame(), MS);
        List<EndpointDriver.Out> r1 = ps.onDeliver(c2.get(1).frame(), MS);
        assertEquals(2, r0.size());
        assertTrue(r0.stream().allMatch(o -> o.frame().packet().header().has(Flags.CE)), "both answers carry the mark");
        assertTrue(r1.stream().noneMatch(o -> o.frame().packet().header().has(Flags.CE)), "an unmarked chunk's do not");
        w1.onDeliver(r0.get(0).frame(), 2 * MS);
        assertEquals(1L, w1.report().stats().get("markedResults"));
        assertEquals(1L, w1.report().stats().get("windowCuts"), "the worker halves its window (AIMD)");
    }
}
