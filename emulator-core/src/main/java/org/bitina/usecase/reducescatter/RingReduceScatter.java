package org.bitina.usecase.reducescatter;

import java.util.BitSet;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;

/**
 * The ring reduce-scatter (the first half of NCCL's ring AllReduce, A7, L2): members in a ring in
 * member order; chunk c is owned by member c mod N. The owner's successor sends its contribution on,
 * each member adds its own and passes the partial sum on, and the owner adds the last: N-1 sends per
 * chunk, one per member but the owner, so every member sends (N-1)/N of its array and keeps only its
 * shard.
 */
final class RingReduceScatter implements HostSchedule {
    private final int n;

    RingReduceScatter(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a ring needs a member, not " + members);
        }
        this.n = members;
    }

    /** The member that ends with chunk {@code chunk}'s sum. */
    static int owner(int chunk, int members) {
        return chunk % members;
    }

    @Override
    public int members() {
        return n;
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        int owner = owner(chunk, n);
        if (member == owner) {
            return List.of(); // the owner completes the sum and keeps it
        }
        // the owner's successor starts; each member on the way adds its own
        BitSet when = new BitSet(n);
        for (int p = (owner + 1) % n; ; p = (p + 1) % n) {
            when.set(p);
            if (p == member) {
                break;
            }
        }
        return List.of(new Send((member + 1) % n, when));
    }

    @Override
    public boolean keeps(int member, int chunk) {
        return owner(chunk, n) == member;
    }
}
