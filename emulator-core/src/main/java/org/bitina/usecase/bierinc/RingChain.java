package org.bitina.usecase.bierinc;

import java.util.BitSet;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;

/**
 * The host baseline of a BIER-INC Reduce or Broadcast (L2): NCCL's ring algorithm for those two
 * collectives, a pipelined chain along the members in member order that starts (Broadcast) or ends
 * (Reduce) at the root. A Broadcast: the root sends each chunk to its successor, each member keeps
 * it and passes it on, until the root's predecessor. A Reduce: the root's successor sends its
 * contribution on, each member adds its own and passes the partial sum on, and the root adds the
 * last and alone keeps the result. Either way each chunk crosses N-1 host links and a member sends
 * at most its array once (bus factor 1, as nccl-tests counts both).
 */
final class RingChain implements HostSchedule {
    private final int n;
    private final int root;
    private final boolean broadcast;

    RingChain(int members, int root, IncPlan.Collective collective) {
        if (members < 1 || root < 0 || root >= members) {
            throw new IllegalArgumentException("a chain of " + members + " members has no root " + root);
        }
        if (collective == IncPlan.Collective.ALLREDUCE) {
            throw new IllegalArgumentException("an allreduce runs the ring AllReduce, not a chain");
        }
        this.n = members;
        this.root = root;
        this.broadcast = collective == IncPlan.Collective.BROADCAST;
    }

    @Override
    public int members() {
        return n;
    }

    /** {@code member}'s place on the chain: 0 at the root, then in member order round the ring. */
    private int position(int member) {
        return Math.floorMod(member - root, n);
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        int p = position(member);
        int next = (member + 1) % n;
        if (broadcast) {
            // the last member of the chain has no one to pass it to
            return p == n - 1 ? List.of() : List.of(new Send(next, contributors()));
        }
        if (p == 0) {
            return List.of(); // the root completes the sum
        }
        BitSet when = new BitSet(n);
        for (int q = 1; q <= p; q++) {
            when.set((root + q) % n);
        }
        return List.of(new Send(next, when));
    }

    /** A Reduce's result stays at the root; a Broadcast's data reaches everyone. */
    @Override
    public boolean keeps(int member, int chunk) {
        return broadcast || member == root;
    }

    /** A Broadcast carries the root's data alone; a Reduce every member's. */
    @Override
    public BitSet contributors() {
        return broadcast ? HostSchedule.only(root) : HostSchedule.all(n);
    }
}
