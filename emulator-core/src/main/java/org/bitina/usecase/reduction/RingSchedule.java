package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The ring AllReduce (A7, L2), as NCCL's ring runs it: members in a ring in member order; chunk
 * c is owned by member c mod N. Reduce-scatter: the owner's successor sends its contribution
 * on, each member adds its own and passes it on, until the owner adds the last; all-gather: the
 * owner sends the sum round the ring, each member keeping it and passing it on, until the
 * owner's predecessor. Each chunk crosses 2(N-1) ring links; a member sends 2(N-1)/N of its
 * array (its bus factor).
 */
public final class RingSchedule implements HostSchedule {
    private final int n;

    public RingSchedule(int members) {
        this.n = members;
    }

    @Override
    public int members() {
        return n;
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        List<Send> out = new ArrayList<>(2);
        ring(member, chunk % n, n, HostSchedule::only, HostSchedule.all(n), (to, when) -> out.add(new Send(to, when)));
        return out;
    }

    /** What a ring position contributes: its own member, or a rack leader's whole rack. */
    interface Group {
        BitSet of(int position);
    }

    interface Sink {
        void send(int toPosition, BitSet when);
    }

    /**
     * The sends of ring {@code position} for a chunk owned by {@code owner}, in a ring of
     * {@code size} positions each contributing {@code group.of(position)}: the reduce-scatter send
     * (none at the owner, which completes the sum) and the all-gather send (none at the owner's
     * predecessor, whose successor already has it). Shared with {@link HierarchicalSchedule}'s ring of leaders.
     */
    static void ring(int position, int owner, int size, Group group, BitSet full, Sink sink) {
        if (size == 1) {
            return;
        }
        int successor = (position + 1) % size;
        if (position != owner) {
            BitSet when = new BitSet();
            // the owner's successor starts; each position on adds its group
            for (int p = (owner + 1) % size; ; p = (p + 1) % size) {
                when.or(group.of(p));
                if (p == position) {
                    break;
                }
            }
            sink.send(successor, when);
        }
        if (successor != owner) {
            sink.send(successor, full);
        }
    }
}
