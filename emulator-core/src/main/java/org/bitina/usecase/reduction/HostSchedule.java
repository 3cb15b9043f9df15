package org.bitina.usecase.reduction;

import java.util.BitSet;
import java.util.List;

/**
 * A host AllReduce algorithm as a pure schedule (L2): for each member (an index into the job's
 * member list) and chunk, the sends it makes and when. A send fires the moment the member's copy
 * of the chunk holds exactly the contributions {@link Send#when} names; what a member receives is
 * told apart by its provenance alone (contributions it lacks are added, the full sum replaces its
 * copy, contributions it holds already are a duplicate). So a schedule is its dataflow, with no
 * barrier between steps: chunks pipeline, as NCCL's do. {@link ScheduleWorker} runs any schedule,
 * with the window, duplicate suppression and per-hop retransmission every one of them shares.
 */
public interface HostSchedule {

    /**
     * @param to   the member (index) the chunk goes to
     * @param when the members (indices) whose contributions the chunk holds when it is sent; all of
     *             them means the finished sum
     */
    record Send(int to, BitSet when) {}

    /** How many members the schedule is over. */
    int members();

    /** The sends of {@code member} for {@code chunk}, in the order it makes them. */
    List<Send> sends(int member, int chunk);

    /**
     * Whether {@code member} ends with {@code chunk}'s finished sum (every member of an AllReduce; a
     * reduce-scatter's chunk only at its owner): a member is done when it holds every chunk it keeps.
     */
    default boolean keeps(int member, int chunk) {
        return true;
    }

    /**
     * The members (indices) whose data a finished chunk holds: every member for a reduction; a
     * broadcast's root alone, the others starting with nothing of their own.
     */
    default BitSet contributors() {
        return all(members());
    }

    /** The members as a set of indices: what a finished chunk holds. */
    static BitSet all(int n) {
        BitSet b = new BitSet(n);
        b.set(0, n);
        return b;
    }

    /** One member alone: what its copy holds before anything arrives. */
    static BitSet only(int member) {
        BitSet b = new BitSet();
        b.set(member);
        return b;
    }
}
