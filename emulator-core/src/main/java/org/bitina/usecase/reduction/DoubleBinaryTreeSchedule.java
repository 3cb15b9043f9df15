package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * NCCL's double binary tree AllReduce (L2; Sanders, Speck and Träff, "Two-tree algorithms for
 * full bandwidth broadcast, reduction and scan", 2009; NCCL 2.4 {@code ncclGetDtree}): two
 * binary trees over the members, the second the first mirrored (N even) or shifted by one (N
 * odd), so that a member that is a leaf in one is inner in the other. Even chunks take the first
 * tree, odd chunks the second: each tree carries half the data. In each tree a chunk is reduced
 * toward the root (a member sends its subtree's sum to its parent once it holds it) and the sum
 * is broadcast back down (a member sends it to each child once it has it), chunk by chunk,
 * pipelined. Each chunk crosses 2(N-1) tree edges; a member sends about 2 of its array's size at
 * most (1 up and 2 down in the tree it is inner in, 1 up in the other).
 */
public final class DoubleBinaryTreeSchedule implements HostSchedule {
    private final int n;
    /** Per tree and member: the members of its subtree, computed when first asked for. */
    private final Map<Long, BitSet> subtrees = new HashMap<>();

    public DoubleBinaryTreeSchedule(int members) {
        this.n = members;
    }

    @Override
    public int members() {
        return n;
    }

    /** One member's place in a tree: its parent (-1 at the root) and children (none, one or two). */
    public record Place(int parent, List<Integer> children) {}

    /**
     * NCCL's binary tree (its {@code ncclGetBtree}): rooted at 0, which has one child; a rank's
     * lowest set bit says its level; leaves and inner nodes alternate.
     */
    static Place btree(int n, int rank) {
        int bit = 1;
        while (bit < n && (bit & rank) == 0) {
            bit <<= 1;
        }
        if (rank == 0) {
            return new Place(-1, n > 1 ? List.of(bit >> 1) : List.of());
        }
        int up = (rank ^ bit) | (bit << 1);
        if (up >= n) {
            up = rank ^ bit;
        }
        List<Integer> children = new ArrayList<>(2);
        int low = bit >> 1;
        if (low != 0) {
            children.add(rank - low);
            int down1 = rank + low;
            while (down1 >= n) {
                low >>= 1;
                down1 = low == 0 ? -1 : rank + low;
            }
            if (down1 >= 0) {
                children.add(down1);
            }
        }
        return new Place(up, List.copyOf(children));
    }

    /** A member's place in tree {@code t} (0 or 1): the second tree mirrors (N even) or shifts (N odd) the first. */
    public Place place(int t, int member) {
        if (t == 0) {
            return btree(n, member);
        }
        if (n % 2 == 1) {
            Place p = btree(n, (member - 1 + n) % n);
            return new Place(
                    p.parent() < 0 ? -1 : (p.parent() + 1) % n,
                    p.children().stream().map(c -> (c + 1) % n).toList());
        }
        Place p = btree(n, n - 1 - member);
        return new Place(
                p.parent() < 0 ? -1 : n - 1 - p.parent(),
                p.children().stream().map(c -> n - 1 - c).toList());
    }

    /** The tree chunk {@code chunk} takes: even chunks the first, odd the second (one tree when N is 1). */
    public static int tree(int chunk) {
        return chunk & 1;
    }

    @Override
    public List<Send> sends(int member, int chunk) {
        int t = tree(chunk);
        Place p = place(t, member);
        List<Send> out = new ArrayList<>(3);
        if (p.parent() >= 0) {
            out.add(new Send(p.parent(), subtree(t, member)));
        }
        BitSet full = HostSchedule.all(n);
        for (int c : p.children()) {
            out.add(new Send(c, full));
        }
        return out;
    }

    /** The members under {@code member} in tree {@code t}, itself included. */
    BitSet subtree(int t, int member) {
        long key = ((long) t << 32) | member;
        BitSet s = subtrees.get(key);
        if (s == null) {
            s = HostSchedule.only(member);
            for (int c : place(t, member).children()) {
                s.or(subtree(t, c));
            }
            subtrees.put(key, s);
        }
        return s;
    }
}
