package org.bitina.usecase.allgather;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** A gathering member checks each shard against its owner's input, and resends to exactly the overdue receivers. */
class GatherMemberTest {
    private static final long US = 1_000L;
    private final List<String> members = List.of("w1", "w2", "w3");
    private final BitSpace space = new BitSpace(members);
    /** Three chunks: w1 owns chunk 0, w2 chunk 1, w3 chunk 2. */
    private final DataSpec data = new DataSpec(3 * 8, ElementType.INT32, ReductionOp.SUM, 8, 4, 5, 1024);

    private final AllReducePlan plan = AllReducePlan.builder()
            .jobName("ag")
            .mode(Mode.INA)
            .tenant(1)
            .wireJob(1)
            .space(space)
            .members(members)
            .data(data)
            .timeoutNanos(10 * US)
            .seed(5)
            .build();

    private GatherMember member(String host) {
        return new GatherMember(plan, host, new GatherRoutes(GatherRoutes.Kind.MULTICAST, 3));
    }

    private Frame copy(int chunk, String from, Payload p) {
        InaHeader h = InaHeader.of(PacketType.DATA, 1, 1, chunk).withSource(space.index(from));
        return new Frame(new InaPacket(h, space.setOf(List.of("w2")), p), null, US, from);
    }

    private Payload shardOf(String owner, int chunk) {
        return new AllReduceData(data).payload(space.index(owner), chunk);
    }

    @Test
    void eachMemberMulticastsItsOwnShardToTheOthersAndEndsWithEveryShardVerified() {
        GatherMember w2 = member("w2");
        List<EndpointDriver.Out> first = w2.start(0);
        assertEquals(1, first.size(), "its one chunk");
        InaPacket sent = first.get(0).frame().packet();
        assertEquals(1, sent.header().seq());
        assertEquals(space.setOf(List.of("w1", "w3")), sent.endpoints(), "one packet to both others");
        w2.onDeliver(copy(0, "w1", shardOf("w1", 0)), US);
        w2.onDeliver(copy(2, "w3", shardOf("w3", 2)), US);
        DriverReport r = w2.report();
        assertTrue(w2.done());
        assertEquals(List.of(), r.mismatches());
        assertEquals(3, r.verifiedChunks());
    }

    @Test
    void aShardThatIsNotItsOwnersInputIsNamedAndNotVerified() {
        GatherMember w2 = member("w2");
        w2.start(0);
        // chunk 0 is w1's, but these are w3's values for it: the wrong member's shard
        w2.onDeliver(copy(0, "w1", shardOf("w3", 0)), US);
        w2.onDeliver(copy(2, "w3", shardOf("w3", 2)), US);
        DriverReport r = w2.report();
        assertEquals(List.of("chunk 0: not w1's shard as it sent it"), r.mismatches());
        assertEquals(2, r.verifiedChunks());
    }

    @Test
    void aChunkGoesAgainOnlyToTheReceiverWhoseAcknowledgementIsOverdue() {
        GatherMember w1 = member("w1");
        w1.start(0);
        InaHeader ack = InaHeader.of(PacketType.ACK, 1, 1, 0).withSource(space.index("w3"));
        w1.onDeliver(new Frame(new InaPacket(ack, FlatBitmap.of(3, 2), Payload.EMPTY), "w1", 2 * US), 2 * US);
        long due = w1.nextDeadline();
        assertTrue(due < Long.MAX_VALUE);
        List<EndpointDriver.Out> again = w1.onTimer(due);
        assertEquals(1, again.size());
        InaPacket p = again.get(0).frame().packet();
        assertTrue(p.header().has(Flags.RETRANSMIT));
        assertEquals(space.setOf(List.of("w2")), p.endpoints(), "w3 has it; only w2 is asked again");
        assertFalse(w1.done(), "w1 still lacks the others' shards");
    }

    @Test
    void aReceiverThatNeverAcknowledgesIsGivenUpOnAfterTenSendsAndNamedWithItsChunk() {
        GatherMember w1 = member("w1");
        w1.start(0);
        InaHeader ack = InaHeader.of(PacketType.ACK, 1, 1, 0).withSource(space.index("w3"));
        w1.onDeliver(new Frame(new InaPacket(ack, FlatBitmap.of(3, 2), Payload.EMPTY), "w1", 2 * US), 2 * US);
        int sends = 1;
        while (w1.nextDeadline() < Long.MAX_VALUE) {
            sends += w1.onTimer(w1.nextDeadline()).size();
        }
        assertEquals(RecoveryPolicy.GATHER_SENDS, sends, "the first send and nine again, then no timer is left");
        List<String> named = w1.report().gaveUp();
        assertEquals(List.of("to w2: no acknowledgement after 10 sends of 1 chunk (0)"), named);
    }
}
