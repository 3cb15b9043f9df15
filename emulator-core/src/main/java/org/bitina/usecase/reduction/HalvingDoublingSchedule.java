package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Rabenseifner's AllReduce (L2; Thakur, Rabenseifner and Gropp, "Optimization of collective
 * communication operations in MPICH", 2005; MPICH's {@code allreduce_intra_reduce_scatter_allgather}):
 * a reduce-scatter by recursive halving, then an all-gather by recursive doubling, over the
 * largest power of two P of members not above N. The chunks are cut into P blocks; at the step
 * of distance d (1, 2, ... P/2) a member and the member d away swap halves of the blocks they
 * still reduce (the lower one keeps the lower half) and add what comes in; the all-gather undoes
 * the steps in reverse order with the finished sums. With N not a power of two, as MPICH does:
 * of the first 2r members (r = N - P) each even one sends its whole array to the odd one after it
 * and sits out, the odd one taking its place, and gets the finished array back from it at the
 * end. A member of a power-of-two job makes 2 log2 N steps and sends 2(N-1)/N of its array.
 */
public final class HalvingDoublingSchedule implements HostSchedule {
    private final int n;
    private final int pof2;
    private final int rem;
    private final int chunks;

    public HalvingDoublingSchedule(int members, int chunks) {
        this.n = members;
        this.chunks = chunks;
        this.pof2 = Integer.highestOneBit(members);
        this.rem = members - pof2;
    }

    @Override
    public int members() {
        return n;
    }

    /** The power of two of members that halve and double. */
    public int pof2() {
        return pof2;
    }

    /** A member's rank among the {@link #pof2()} that halve and double, or -1 for one that sits out. */
    public int newRank(int member) {
        if (member < 2 * rem) {
            return member % 2 == 0 ? -1 : member / 2;
        }
        return member - rem;
    }

    /** The member that takes rank {@code v} among the power of two. */
    public int member(int v) {
        return v < rem ? 2 * v + 1 : v + rem;
    }

    /** The contributions rank {@code v} brings in: its member's, and its even partner's when it has one. */
    private BitSet group(int v) {
        int m = member(v);
        BitSet b = HostSchedule.only(m);
        if (m < 2 * rem) {
            b.set(m - 1);
        }
        return b;
    }

    /**
     * The block of {@code pof2} that {@code chunk} lies in: block b holds chunks from floor(b C / P)
     * on (C chunks; the first blocks are empty when there are fewer chunks than P).
     */
    int block(int chunk) {
        return (int) Math.min(pof2 - 1, (((long) chunk + 1) * pof2 - 1) / chunks);
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        BitSet full = HostSchedule.all(n);
        int v = newRank(member);
        if (v < 0) {
            // sits out: its whole array to the odd member after it, which sends the sum back
            return List.of(new Send(member + 1, HostSchedule.only(member)));
        }
        List<Send> out = new ArrayList<>();
        int b = block(chunk);
        int lo = 0;
        int hi = pof2;
        int steps = Integer.numberOfTrailingZeros(pof2);
        int[] los = new int[steps];
        int[] his = new int[steps];
        BitSet holds = group(v);
        for (int k = 0; k < steps; k++) {
            int mask = 1 << k;
            int partner = v ^ mask;
            los[k] = lo;
            his[k] = hi;
            int mid = lo + (hi - lo) / 2;
            boolean keepLower = v < partner;
            boolean inSent = keepLower ? b >= mid && b < hi : b >= lo && b < mid;
            if (inSent) {
                out.add(new Send(member(partner), (BitSet) holds.clone()));
            }
            if (keepLower) {
                hi = mid;
            } else {
                lo = mid;
            }
            // the partner's ranks' contributions join for the half kept
            int first = partner & ~(mask - 1);
            for (int w = first; w < first + mask; w++) {
                holds.or(group(w));
            }
        }
        // all-gather: the steps in reverse, each sending the blocks held so far (finished sums)
        for (int k = steps - 1; k >= 0; k--) {
            int partner = v ^ (1 << k);
            if (b >= lo && b < hi) {
                out.add(new Send(member(partner), full));
            }
            lo = los[k];
            hi = his[k];
        }
        if (member < 2 * rem) {
            out.add(new Send(member - 1, full));
        }
        return out;
    }
}
