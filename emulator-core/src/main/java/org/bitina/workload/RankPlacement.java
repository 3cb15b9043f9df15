package org.bitina.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which host each rank runs on. Without {@code ranks = [...]}, rank {@code i} is the {@code i}-th
 * host in host order (the topology's order of hosts, so the ranks of a tensor-parallel group, which
 * are consecutive, sit on neighbouring hosts); with it, rank {@code i} is its {@code i}-th name.
 */
public final class RankPlacement {
    private RankPlacement() {}

    /**
     * The host of each of {@code worldSize} ranks among {@code hostOrder}; fails, saying what is
     * wrong, when there are too few hosts or {@code ranks} names one that is not a host.
     */
    public static List<String> hosts(List<String> ranks, List<String> hostOrder, int worldSize) {
        if (ranks.isEmpty()) {
            if (hostOrder.size() < worldSize) {
                throw new IllegalArgumentException("the workload has " + worldSize + " ranks but the topology only "
                        + hostOrder.size() + " hosts");
            }
            return List.copyOf(hostOrder.subList(0, worldSize));
        }
        if (ranks.size() != worldSize) {
            throw new IllegalArgumentException(
                    "workload.ranks names " + ranks.size() + " hosts for " + worldSize + " ranks");
        }
        Set<String> known = new HashSet<>(hostOrder);
        for (String h : ranks) {
            if (!known.contains(h)) {
                throw new IllegalArgumentException(
                        "workload.ranks names '" + h + "', which is not a host of the topology");
            }
        }
        return List.copyOf(ranks);
    }
}
