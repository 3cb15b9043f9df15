package org.bitina.usecase.broadcast;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.bitina.usecase.reduction.HostSchedule;

/**
 * The unicast baseline of a broadcast as a schedule (L2): the root sends each chunk to every other
 * member in turn, in member order from its successor on; the others only receive. Every chunk
 * leaves the root N-1 times, so its link carries N-1 copies of the array.
 */
record RootUnicast(int members, int root) implements HostSchedule {
    RootUnicast {
        if (members < 1 || root < 0 || root >= members) {
            throw new IllegalArgumentException(members + " members have no root " + root);
        }
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        if (member != root) {
            return List.of();
        }
        List<Send> sends = new ArrayList<>(members - 1);
        for (int k = 1; k < members; k++) {
            sends.add(new Send((root + k) % members, contributors()));
        }
        return sends;
    }

    /** The root's data alone: the others start with nothing of their own. */
    @Override
    public BitSet contributors() {
        return HostSchedule.only(root);
    }
}
