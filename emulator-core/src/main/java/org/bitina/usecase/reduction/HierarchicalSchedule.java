package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The hierarchical AllReduce (L2; as Horovod's and NCCL's two-level collectives and BlueConnect
 * do it): inside each rack the members send their chunk to the rack's leader, the leaders run
 * the {@link RingSchedule ring} among themselves with each rack's sum as its contribution, and
 * each leader sends the finished chunk back to its rack. A rack is the members under one edge
 * switch; its leader is its first member. Only L leaders cross the fabric: each sends 2(L-1)/L of
 * the array; a leader's host link carries its rack's R-1 arrays in and out besides (its bus factor
 * R-1 + 2(L-1)/L for racks of R).
 */
public final class HierarchicalSchedule implements HostSchedule {
    private final int n;
    /** Per member, its rack's leader (itself for a leader). */
    private final int[] leaderOf;
    /** The leaders in member order, and each member's position among them (-1 for the others). */
    private final int[] leaders;

    private final int[] position;
    /** Per leader position, its rack (the leader included). */
    private final BitSet[] racks;

    /** @param leaderOf per member index, the index of its rack's leader (leaders point at themselves) */
    public HierarchicalSchedule(int[] leaderOf) {
        this.n = leaderOf.length;
        this.leaderOf = leaderOf.clone();
        this.position = new int[n];
        List<Integer> l = new ArrayList<>();
        for (int m = 0; m < n; m++) {
            if (leaderOf[m] == m) {
                position[m] = l.size();
                l.add(m);
            } else {
                position[m] = -1;
            }
        }
        this.leaders = l.stream().mapToInt(Integer::intValue).toArray();
        this.racks = new BitSet[leaders.length];
        for (int i = 0; i < leaders.length; i++) {
            racks[i] = new BitSet(n);
        }
        for (int m = 0; m < n; m++) {
            int leader = leaderOf[m];
            if (leader < 0 || leader >= n || leaderOf[leader] != leader) {
                throw new IllegalArgumentException("member " + m + "'s leader " + leader + " is not a leader");
            }
            racks[position[leader]].set(m);
        }
    }

    @Override
    public int members() {
        return n;
    }

    /** How many racks (leaders) the job spans. */
    public int racks() {
        return leaders.length;
    }

    public boolean isLeader(int member) {
        return leaderOf[member] == member;
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        BitSet full = HostSchedule.all(n);
        if (!isLeader(member)) {
            return List.of(new Send(leaderOf[member], HostSchedule.only(member)));
        }
        List<Send> out = new ArrayList<>();
        int size = leaders.length;
        RingSchedule.ring(
                position[member],
                chunk % size,
                size,
                p -> racks[p],
                full,
                (to, when) -> out.add(new Send(leaders[to], when)));
        BitSet rack = racks[position[member]];
        for (int m = rack.nextSetBit(0); m >= 0; m = rack.nextSetBit(m + 1)) {
            if (m != member) {
                out.add(new Send(m, full));
            }
        }
        return out;
    }
}
