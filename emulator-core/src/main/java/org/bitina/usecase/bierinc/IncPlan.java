package org.bitina.usecase.bierinc;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.RecoverySettings;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.reduction.AllReducePlan;

/**
 * A BIER-INC collective (seed 001) as the members see it.
 *
 * @param base       the data, members and their endpoint bit space (what results are verified over)
 * @param collective AllReduce (one tree per owner), Reduce to a root, Broadcast from a root
 * @param wire       the bit space the bitstrings use: the members themselves, or the leaf
 *                   switches in front of them when the leaves are the edge BFRs (B6)
 * @param leafOf     member to its leaf switch when the leaves are the edge BFRs, else empty
 * @param owners     the members that are BFIRs: chunk c belongs to owners[c mod size]
 * @param waitNanos  the longest an owner waits for a chunk's reductions before it asks the
 *                   missing members again, and a member without news waits before it sends
 *                   again (the cap of the backoff, {@link #wait(int)})
 * @param firstWaitNanos the first of those waits: under the virtual clock a few modelled round
 *                   trips (L1), else {@code waitNanos}
 */
public record IncPlan(
        AllReducePlan base,
        Collective collective,
        BitSpace wire,
        Map<String, String> leafOf,
        List<String> owners,
        long waitNanos,
        long firstWaitNanos)
        implements JobPlan {
    /** A plan without a path model: every wait is {@code waitNanos}. */
    public IncPlan(
            AllReducePlan base,
            Collective collective,
            BitSpace wire,
            Map<String, String> leafOf,
            List<String> owners,
            long waitNanos) {
        this(base, collective, wire, leafOf, owners, waitNanos, waitNanos);
    }

    /**
     * L1: the wait after the {@code n}-th ask (0 for the first): {@code firstWaitNanos} doubled at
     * each ask (binary backoff) up to {@value RecoveryPolicy#DOUBLINGS} times, at most {@code waitNanos}.
     */
    public long wait(int n) {
        return policy().after(n + 1);
    }

    /**
     * The waits as the one retransmission rule ({@link RecoveryPolicy}), bounded by the job's
     * {@code recovery} settings; how many asks and sends it allows is the member's ({@link
     * IncMember}), so the sends here are only the job's setting or one.
     */
    public RecoveryPolicy policy() {
        long first = Math.max(1, Math.min(firstWaitNanos, waitNanos));
        RecoverySettings s = base.recovery();
        return RecoveryPolicy.capped(
                first, Math.min(waitNanos, first << RecoveryPolicy.DOUBLINGS), Math.max(1, s.maxSends()), s);
    }

    @Override
    public int tenant() {
        return base.tenant();
    }

    @Override
    public int wireJob() {
        return base.wireJob();
    }

    public enum Collective {
        ALLREDUCE,
        REDUCE,
        BROADCAST
    }

    public boolean leafEdge() {
        return !leafOf.isEmpty();
    }

    public String owner(int chunk) {
        return owners.get(chunk % owners.size());
    }

    /** Whether {@code host} ends with a result of {@code chunk}: every member in AllReduce, the owner in Reduce, the others in Broadcast. */
    public boolean expectsResult(int chunk, String host) {
        boolean owner = owner(chunk).equals(host);
        return switch (collective) {
            case ALLREDUCE -> true;
            case REDUCE -> owner;
            case BROADCAST -> !owner;
        };
    }

    /** Whether {@code host} sends a share of {@code chunk} in reverse: an owner only when its leaf aggregates for it (B6). */
    public boolean contributes(int chunk, String host) {
        return collective != Collective.BROADCAST
                && (leafEdge() || !owner(chunk).equals(host));
    }

    /** The bitstring position standing for a member: its own, or its leaf's (B6). */
    public int wireBit(String member) {
        return wire.index(leafEdge() ? leafOf.get(member) : member);
    }

    /** The bitstring positions of some members (their leaves' when the leaves are the edge). */
    public EndpointSet wireBitsOf(EndpointSet members) {
        return FlatBitmap.of(
                wire.capacity(),
                base.space().names(members).stream().mapToInt(this::wireBit).toArray());
    }

    /** The owner that is BFIR behind a bitstring position (one per leaf when the leaves are the edge). */
    public String ownerOfWireBit(int bit) {
        for (String o : owners) {
            if (wireBit(o) == bit) {
                return o;
            }
        }
        return null;
    }

    /** The members a bitstring stands for. */
    public EndpointSet membersOf(EndpointSet bits) {
        if (!leafEdge()) {
            return bits.toFlat();
        }
        FlatBitmap out = FlatBitmap.of(base.space().capacity());
        for (String m : base.members()) {
            if (bits.contains(wire.index(leafOf.get(m)))) {
                out = (FlatBitmap)
                        out.or(FlatBitmap.of(out.capacity(), base.space().index(m)));
            }
        }
        return out;
    }

    /** The bitstring that reaches every member but {@code owner} (a leaf also delivers to the owner's neighbours). */
    public EndpointSet forwardSet(String owner) {
        FlatBitmap all = FlatBitmap.of(wire.capacity());
        for (String m : base.members()) {
            if (leafEdge() || !m.equals(owner)) {
                all = (FlatBitmap) all.or(FlatBitmap.of(wire.capacity(), wireBit(m)));
            }
        }
        return all;
    }
}
