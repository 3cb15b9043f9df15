package org.bitina.usecase.reducescatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.AllReduceWorker;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.usecase.reduction.Verifier;
import org.bitina.wire.ElementType;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** A member keeps its own shard: the right sum for another member's chunk is still named wrong and not verified. */
class ShardWorkerTest {
    private static final long MS = 1_000_000L;
    private final List<String> members = List.of("w1", "w2", "w3");
    private final BitSpace space = new BitSpace(members);
    /** Three chunks: w1 owns chunk 0, w2 chunk 1, w3 chunk 2. */
    private final DataSpec data = new DataSpec(3 * 8, ElementType.INT32, ReductionOp.SUM, 8, 4, 5, 1024);

    private final AllReducePlan plan = AllReducePlan.builder()
            .jobName("rs")
            .mode(Mode.INA)
            .tenant(1)
            .wireJob(1)
            .space(space)
            .members(members)
            .data(data)
            .uplink(Map.of("w1", "s1", "w2", "s1", "w3", "s1"))
            .timeoutNanos(10 * MS)
            .seed(5)
            .build();

    /** The true sum of {@code chunk} over every member, as the root sends it. */
    private Payload sum(int chunk) {
        AllReduceData d = new AllReduceData(data);
        Payload s = d.payload(0, chunk).copy();
        for (int b = 1; b < members.size(); b++) {
            ReductionOp.SUM.apply(s, d.payload(b, chunk));
        }
        return s;
    }

    private Frame result(int chunk, Payload p) {
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, chunk).withOp(ReductionOp.SUM);
        return new Frame(new InaPacket(h, space.setOf(List.of("w2")), p), "w2", MS);
    }

    private ShardWorker w2() {
        Verifier v = new Verifier();
        v.prepare(new AllReduceData(data), v.members(space, members));
        ShardWorker w = new ShardWorker(plan, "w2", new AllReduceWorker(plan, "w2", v));
        assertEquals(3, w.start(0).size(), "every chunk contributes: a window of four");
        return w;
    }

    @Test
    void itsOwnShardsSumAndNoticesForTheOthersEndItVerified() {
        ShardWorker w = w2();
        w.onDeliver(result(0, Payload.EMPTY), MS);
        w.onDeliver(result(1, sum(1)), MS);
        w.onDeliver(result(2, Payload.EMPTY), MS);
        DriverReport r = w.report();
        assertTrue(w.done());
        assertEquals(List.of(), r.mismatches());
        assertEquals(3, r.verifiedChunks());
    }

    @Test
    void anotherMembersShardReachingItIsNamedAndNotVerifiedThoughItsSumIsRight() {
        ShardWorker w = w2();
        w.onDeliver(result(0, sum(0)), MS); // w1's shard, correctly summed, at w2
        w.onDeliver(result(1, sum(1)), MS);
        w.onDeliver(result(2, Payload.EMPTY), MS);
        DriverReport r = w.report();
        assertEquals(List.of("chunk 0: the sum of another member's shard reached w2"), r.mismatches());
        assertEquals(2, r.verifiedChunks(), "chunk 0 does not count");
    }

    @Test
    void itsOwnShardComingAsANoticeIsNamed() {
        ShardWorker w = w2();
        w.onDeliver(result(0, Payload.EMPTY), MS);
        w.onDeliver(result(1, Payload.EMPTY), MS);
        w.onDeliver(result(2, Payload.EMPTY), MS);
        assertEquals(
                List.of("chunk 1: w2's own shard came as a notice without its sum"),
                w.report().mismatches());
        assertEquals(2, w.report().verifiedChunks());
    }
}
