package org.bitina.bitmap;

import java.util.Arrays;

/**
 * The explicit node-list encoding of seed 000 section 7: the sorted indices of the
 * members, each {@code ceil(log2 N)} bits on the wire. Worthwhile only for very large
 * domains with very few members (MoE dispatch); operations are sorted-list merges.
 */
public final class NodeList implements EndpointSet {
    private final int capacity;
    private final int[] members;

    private NodeList(int capacity, int[] members) {
        this.capacity = capacity;
        this.members = members;
    }

    /** {@code members} must be strictly ascending and inside the bit space. */
    public static NodeList ofSorted(int capacity, int[] members) {
        EndpointSets.checkCapacity(capacity);
        for (int i = 0; i < members.length; i++) {
            if (members[i] < 0 || members[i] >= capacity) {
                throw new IllegalArgumentException("index " + members[i] + " outside bit space of " + capacity);
            }
            if (i > 0 && members[i] <= members[i - 1]) {
                throw new IllegalArgumentException("node list must be strictly ascending: " + Arrays.toString(members));
            }
        }
        return new NodeList(capacity, members.clone());
    }

    /** Bits per listed index: ceil(log2 N), at least 1. */
    public static int indexBits(int capacity) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(capacity - 1));
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public Encoding encoding() {
        return Encoding.NODE_LIST;
    }

    @Override
    public boolean contains(int index) {
        return Arrays.binarySearch(members, index) >= 0;
    }

    @Override
    public int cardinality() {
        return members.length;
    }

    @Override
    public int nextSetBit(int from) {
        int pos = Arrays.binarySearch(members, Math.max(from, 0));
        if (pos < 0) {
            pos = -pos - 1;
        }
        return pos < members.length ? members[pos] : -1;
    }

    @Override
    public int[] indices() {
        return members.clone();
    }

    @Override
    public NodeList and(EndpointSet other) {
        int[] o = membersOf(other);
        int[] r = new int[Math.min(members.length, o.length)];
        int n = 0;
        for (int i = 0, j = 0; i < members.length && j < o.length; ) {
            if (members[i] < o[j]) {
                i++;
            } else if (members[i] > o[j]) {
                j++;
            } else {
                r[n++] = members[i];
                i++;
                j++;
            }
        }
        return new NodeList(capacity, Arrays.copyOf(r, n));
    }

    @Override
    public NodeList or(EndpointSet other) {
        int[] o = membersOf(other);
        int[] r = new int[members.length + o.length];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < members.length || j < o.length) {
            if (j == o.length || (i < members.length && members[i] < o[j])) {
                r[n++] = members[i++];
            } else if (i == members.length || o[j] < members[i]) {
                r[n++] = o[j++];
            } else {
                r[n++] = members[i];
                i++;
                j++;
            }
        }
        return new NodeList(capacity, Arrays.copyOf(r, n));
    }

    @Override
    public NodeList andNot(EndpointSet other) {
        int[] o = membersOf(other);
        int[] r = new int[members.length];
        int n = 0;
        int j = 0;
        for (int m : members) {
            while (j < o.length && o[j] < m) {
                j++;
            }
            if (j == o.length || o[j] != m) {
                r[n++] = m;
            }
        }
        return new NodeList(capacity, Arrays.copyOf(r, n));
    }

    private int[] membersOf(EndpointSet other) {
        EndpointSets.checkSameSpace(this, other);
        return other instanceof NodeList l ? l.members : other.indices();
    }

    @Override
    public long encodedBits() {
        return (long) members.length * indexBits(capacity);
    }

    @Override
    public FlatBitmap toFlat() {
        return FlatBitmap.of(capacity, members);
    }

    @Override
    public NodeList toNodeList() {
        return this;
    }

    @Override
    public HierarchicalBitmap toHierarchical(int blockSize) {
        return HierarchicalBitmap.fromFlat(toFlat(), blockSize);
    }

    @Override
    public boolean equals(Object o) {
        return EndpointSets.equal(this, o);
    }

    @Override
    public int hashCode() {
        return EndpointSets.hash(this);
    }

    @Override
    public String toString() {
        return EndpointSets.format(this);
    }
}
