package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.NodeEngine;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** A result lost on a link is asked for again and resent by the root, never counted twice. */
class AllReduceWorkerRetryTest {
    private static final long MS = 1_000_000L;
    private final BitSpace space = new BitSpace(List.of("w1", "w2"));
    private final DataSpec data = new DataSpec(100, ElementType.INT32, ReductionOp.SUM, 100, 1, 3, 1024);
    private final AllReducePlan plan = AllReducePlan.builder()
            .jobName("j")
            .mode(Mode.INA)
            .tenant(1)
            .wireJob(1)
            .space(space)
            .members(List.of("w1", "w2"))
            .data(data)
            .uplink(Map.of("w1", "s1", "w2", "s1"))
            .timeoutNanos(10 * MS)
            .seed(3)
            .build();

    @Test
    void aWorkerWithoutAResultSendsAgainThenGivesUpAndSaysSo() {
        AllReduceWorker w = new AllReduceWorker(plan, "w1");
        List<EndpointDriver.Out> first = w.start(0);
        assertEquals(1, first.size());
        assertEquals(40 * MS, w.nextDeadline(), "four root timeouts");
        List<EndpointDriver.Out> again = w.onTimer(40 * MS);
        assertEquals(1, again.size());
        assertTrue(again.get(0).frame().packet().header().has(Flags.RETRANSMIT));
        long t = 40 * MS;
        for (int i = 2; i < RecoveryPolicy.UNMODELLED_SENDS; i++) {
            t += 40 * MS;
            assertEquals(1, w.onTimer(t).size());
        }
        t += 40 * MS;
        assertTrue(w.onTimer(t).isEmpty(), "no more sends after the last attempt");
        assertTrue(w.done(), "the job can end");
        assertEquals(List.of("chunk 0: no result after 5 sends"), w.report().gaveUp());
        assertEquals(List.of(), w.report().mismatches(), "giving up is not a wrong value");
    }

    @Test
    void theRootResendsItsResultToTheWorkerThatAskedAgain() {
        Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
        Routing r = Routing.compute(fig1);
        BitSpace hosts = new BitSpace(List.of("w1", "w2"));
        NodeEngine s1 = new NodeEngine("s1", r, new AggregationTable(8, 1000 * MS), false);
        s1.install(JobTables.builder("j", 1, 1, 2, 10 * MS)
                .bift(Bift.build(r, "s1", hosts))
                .vatNode(FlatBitmap.full(2), null)
                .root(true)
                .build());
        AllReduceWorker w1 = new AllReduceWorker(plan, "w1");
        AllReduceWorker w2 = new AllReduceWorker(plan, "w2");
        s1.onFrame(w1.start(0).get(0).frame(), 0);
        List<NodeEngine.Action> done = s1.onFrame(w2.start(0).get(0).frame(), 1);
        assertEquals(2, sends(done), "the result went to w1 and w2 (and was lost on the way to w1)");
        // w1 asks again: its contribution is a duplicate, so the root sends the result to w1 alone
        List<NodeEngine.Action> resend = s1.onFrame(w1.onTimer(40 * MS).get(0).frame(), 40 * MS);
        assertEquals(1, sends(resend));
        NodeEngine.Send s = (NodeEngine.Send) resend.stream()
                .filter(a -> a instanceof NodeEngine.Send)
                .findFirst()
                .orElseThrow();
        assertEquals("w1", s.neighbor());
        assertEquals(PacketType.RESULT, s.frame().packet().header().type());
        assertEquals(1L, s1.counters(1, 1).get(Counter.RESULTS_RESENT));
        w1.onDeliver(s.frame(), 41 * MS);
        assertTrue(w1.done());
        assertTrue(w1.report().mismatches().isEmpty(), w1.report().mismatches().toString());
    }

    private static long sends(List<NodeEngine.Action> actions) {
        return actions.stream().filter(a -> a instanceof NodeEngine.Send).count();
    }

    /** The others' sum of a chunk without w1, as the root multicasts a partial result. */
    private InaPacket partialWithoutW1(AllReduceData d, int chunk) {
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, chunk)
                .withOp(ReductionOp.SUM)
                .withFlags(Flags.PARTIAL);
        return new InaPacket(h, space.setOf(List.of("w1")), d.payload(1, chunk), space.setOf(List.of("w2")), null);
    }

    private InaPacket complete(AllReduceData d, int chunk) {
        Payload sum = d.payload(0, chunk).copy();
        ReductionOp.SUM.apply(sum, d.payload(1, chunk));
        return new InaPacket(
                InaHeader.of(PacketType.RESULT, 1, 1, chunk).withOp(ReductionOp.SUM), space.setOf(List.of("w1")), sum);
    }

    @Test
    void aResultThatComesBeforeTheWorkerSentItsChunkCountsOnceAndTheChunkIsStillOffered() {
        // w1's link was down: w2 finished chunk 2 without it, and that result reached w1 before w1 got to chunk 2
        DataSpec three = new DataSpec(300, ElementType.INT32, ReductionOp.SUM, 100, 1, 3, 1024);
        AllReducePlan p = AllReducePlan.builder()
                .jobName("j")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(1)
                .space(space)
                .members(List.of("w1", "w2"))
                .data(three)
                .uplink(Map.of("w1", "s1", "w2", "s1"))
                .timeoutNanos(10 * MS)
                .seed(3)
                .build();
        AllReduceData d = new AllReduceData(three);
        AllReduceWorker w = new AllReduceWorker(p, "w1");
        assertEquals(
                List.of(0L),
                w.start(0).stream().map(o -> o.frame().packet().header().seq()).toList());
        assertEquals(
                List.of(),
                w.onDeliver(new Frame(partialWithoutW1(d, 2), null, 5), MS),
                "not in flight: no window slot frees");
        assertEquals(1, w.report().received());
        // chunk 0's result frees the slot: chunk 1 goes, tracked
        assertEquals(
                List.of(1L),
                w.onDeliver(new Frame(complete(d, 0), null, 6), 2 * MS).stream()
                        .map(o -> o.frame().packet().header().seq())
                        .toList());
        // chunk 1's result: chunk 2 is held already, so it is offered once, untracked, for the root to fold in
        List<EndpointDriver.Out> last = w.onDeliver(new Frame(complete(d, 1), null, 7), 3 * MS);
        assertEquals(
                List.of(2L),
                last.stream().map(o -> o.frame().packet().header().seq()).toList());
        assertTrue(w.done());
        assertEquals(3, w.report().received(), "each chunk counted once");
        assertEquals(
                Long.MAX_VALUE, w.nextDeadline(), "nothing waits for a result: no resends, no give-up counted twice");
        // the better result the fold-in brings replaces the partial one, and counts nothing again
        w.onDeliver(new Frame(complete(d, 2), null, 8), 4 * MS);
        assertEquals(3, w.report().received());
        assertTrue(
                w.report().partialChunks().isEmpty(), w.report().partialChunks().toString());
        assertEquals(3, w.report().verifiedChunks());
    }

    @Test
    void aCompletionNoticeFreesTheWindowAndNamesWhatItHoldsWithoutAValueToCheck() {
        DataSpec two = new DataSpec(200, ElementType.INT32, ReductionOp.SUM, 100, 1, 3, 1024);
        AllReducePlan p = AllReducePlan.builder()
                .jobName("j")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(1)
                .space(space)
                .members(List.of("w1", "w2"))
                .data(two)
                .uplink(Map.of("w1", "s1", "w2", "s1"))
                .timeoutNanos(10 * MS)
                .seed(3)
                .build();
        AllReduceWorker w = new AllReduceWorker(p, "w1");
        assertEquals(1, w.start(0).size(), "a window of one");
        // chunk 0's result went to its owner; w1 hears it is complete, without its payload
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 0);
        List<EndpointDriver.Out> next =
                w.onDeliver(new Frame(new InaPacket(h, space.setOf(List.of("w1")), Payload.EMPTY), "w1", MS), MS);
        assertEquals(1, next.size(), "the slot went to chunk 1");
        assertEquals(1, next.get(0).frame().packet().header().seq());
        // a partial notice that lacks w1: its contribution was lost on the way up
        InaHeader partial = InaHeader.of(PacketType.RESULT, 1, 1, 1).withFlags(Flags.PARTIAL);
        w.onDeliver(
                new Frame(
                        new InaPacket(
                                partial, space.setOf(List.of("w1")), Payload.EMPTY, space.setOf(List.of("w2")), null),
                        "w1",
                        2 * MS),
                2 * MS);
        // without a path model a partial is taken (as a partial result is): done, chunk 1 naming w1 missing
        assertTrue(w.done());
        assertEquals(
                List.of(new DriverReport.PartialChunk(1, List.of("w1"))),
                w.report().partialChunks());
        assertEquals(List.of(), w.report().mismatches());
        assertEquals(2, w.report().verifiedChunks(), "nothing wrong came: no value to check in a notice");
    }
}
