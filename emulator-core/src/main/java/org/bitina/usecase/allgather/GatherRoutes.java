package org.bitina.usecase.allgather;

import java.util.ArrayList;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;

/**
 * Who sends each chunk of an all-gather to whom (C2). Chunk c is owned by member c mod N.
 * {@link Kind#MULTICAST}: the owner sends it once, BIER-style, to every other member (one packet the
 * switches replicate). {@link Kind#RING}: the ring all-gather (the second half of NCCL's ring
 * AllReduce): the owner sends it to its successor, and each member passes it on until the owner's
 * predecessor has it: N-1 sends per chunk, so every member sends and receives (N-1)/N of the array.
 * As a {@link HostSchedule} (every send carries the finished chunk) it also bounds the per-hop
 * retransmission timeout ({@code HostBaselines.retransmissionTimeout}).
 */
final class GatherRoutes implements HostSchedule {
    enum Kind {
        MULTICAST,
        RING
    }

    private final Kind kind;
    private final int n;

    GatherRoutes(Kind kind, int members) {
        if (members < 1) {
            throw new IllegalArgumentException("an all-gather needs a member, not " + members);
        }
        this.kind = kind;
        this.n = members;
    }

    static int owner(int chunk, int members) {
        return chunk % members;
    }

    boolean ring() {
        return kind == Kind.RING;
    }

    @Override
    public int members() {
        return n;
    }

    /** The members {@code member} sends {@code chunk} to once it holds it, in member order. */
    List<Integer> targets(int member, int chunk) {
        int owner = owner(chunk, n);
        List<Integer> to = new ArrayList<>();
        if (kind == Kind.RING) {
            int successor = (member + 1) % n;
            if (successor != owner) {
                to.add(successor);
            }
        } else if (member == owner) {
            for (int m = 0; m < n; m++) {
                if (m != owner) {
                    to.add(m);
                }
            }
        }
        return to;
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        return targets(member, chunk).stream()
                .map(to -> new Send(to, HostSchedule.all(n)))
                .toList();
    }
}
