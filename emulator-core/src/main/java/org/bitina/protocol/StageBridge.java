package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * The bridge at a partition root between its partition's tree and the second stage (seed 000
 * section 7, H2): a completed or partial partition aggregate goes up as one second-stage
 * contribution whose P-BM is the partition's stage bit, and the second stage's result comes
 * down as the partition's result, multicast with the partition root's A-BM (F6) as in a tree of
 * one stage. A partial aggregate names what it holds in the job's whole bit space (its
 * provenance), so that the stage result can say exactly whose contributions it carries and
 * every worker checks it against the reference of exactly those. Pure: packets in, packets out.
 */
public final class StageBridge {
    private StageBridge() {}

    /**
     * The second-stage contribution of partition aggregate {@code e} (its P-BM in the partition's
     * bit space), flagged partial when it is: with the members it holds, in the job's space, as
     * its provenance. A complete one needs none: its stage bit says it holds the whole partition.
     */
    public static InaPacket up(SecondStage s, int tenant, Emission e) {
        EndpointSet members = s.partitions().get(s.bit());
        boolean partial = e.pbm().cardinality() < members.cardinality();
        InaHeader h = InaHeader.of(
                        PacketType.CONTRIBUTION, tenant, s.stageJob(), e.key().seq())
                .withOp(e.op())
                .withFlags(partial ? Flags.PARTIAL : 0);
        EndpointSet holds = partial ? toJob(members, e.pbm()) : null;
        return new InaPacket(h, FlatBitmap.of(s.capacity(), s.bit()), e.payload(), holds, null);
    }

    /**
     * A contribution that reached the partition root after its partition's aggregate went up: on
     * to the second stage under the partition's bit, flagged late, naming in the job's space the
     * members it holds, so that the stage folds it in where it is news (its P-BM alone cannot say).
     */
    public static InaPacket late(SecondStage s, int tenant, InaPacket contribution) {
        InaHeader c = contribution.header();
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, tenant, s.stageJob(), c.seq())
                .withOp(c.op())
                .withFlags(Flags.PARTIAL | Flags.LATE);
        EndpointSet holds = toJob(s.partitions().get(s.bit()), contribution.endpoints());
        return new InaPacket(h, FlatBitmap.of(s.capacity(), s.bit()), contribution.payload(), holds, null);
    }

    /**
     * The partition's result for second-stage result {@code result}: the partition's wire job, the
     * partition root's A-BM as the multicast bitmap, the stage's provenance (the job's members the
     * result holds, present when it is not all of them) kept as it is.
     */
    public static InaPacket down(SecondStage s, int tenant, EndpointSet partitionAbm, InaPacket result) {
        InaHeader r = result.header();
        InaHeader h = InaHeader.of(PacketType.RESULT, tenant, s.partitionJob(), r.seq())
                .withOp(r.op())
                .withFlags(result.provenance() != null ? Flags.PARTIAL : 0);
        return new InaPacket(h, partitionAbm, result.payload(), result.provenance(), null);
    }

    /**
     * A partition's bits in the job's space: the partition's bit k is the k-th member of the
     * partition in the job's bit order (a partition's space lists its members in that order).
     */
    public static EndpointSet toJob(EndpointSet partitionMembers, EndpointSet partitionBits) {
        int[] job = partitionMembers.indices();
        if (partitionBits.capacity() != job.length) {
            throw new IllegalArgumentException(
                    "a partition of " + job.length + " members has no bitmap of " + partitionBits.capacity() + " bits");
        }
        return FlatBitmap.of(
                partitionMembers.capacity(),
                partitionBits.stream().map(k -> job[k]).toArray());
    }

    /** What a second-stage packet holds in the job's space: its provenance, else all of the partitions its P-BM names. */
    public static EndpointSet holds(SecondStage s, InaPacket p) {
        return p.provenance() != null ? p.provenance() : s.expand(p.endpoints());
    }
}
