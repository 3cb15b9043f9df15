package org.bitina.workload;

import java.util.List;

/** The ranks a collective runs over (a communicator), in rank order, and the name it goes by. */
public record ProcessGroup(String name, List<Integer> ranks) {
    public ProcessGroup {
        ranks = List.copyOf(ranks);
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("process group " + name + " has no ranks");
        }
        for (int i = 1; i < ranks.size(); i++) {
            if (ranks.get(i) <= ranks.get(i - 1)) {
                throw new IllegalArgumentException(
                        "process group " + name + ": ranks not strictly increasing " + ranks);
            }
        }
    }

    public int size() {
        return ranks.size();
    }

    public boolean contains(int rank) {
        return ranks.contains(rank);
    }
}
