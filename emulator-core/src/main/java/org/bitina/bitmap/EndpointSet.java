package org.bitina.bitmap;

import java.util.stream.IntStream;

/**
 * A set of endpoints of one job's bit space (seed 000 section 2, requirement F1): the
 * D-BM, P-BM, A-BM and C-BM of the framework are all endpoint sets. Index 0 is the job's
 * first endpoint, printed leftmost as in the seeds ({@code [01100110]}).
 *
 * <p>Sets are immutable. Equality is set equality: two sets are {@code equals} when they
 * have the same capacity and the same members, whatever their encodings, so the
 * completion test "OR of P-BMs equals the node bitmap" is encoding-agnostic. Binary
 * operations require equal capacities and return a set in the receiver's encoding.
 */
public sealed interface EndpointSet permits FlatBitmap, HierarchicalBitmap, NodeList {

    /** Largest bit space accepted anywhere, so that hostile lengths cannot exhaust memory. */
    int MAX_CAPACITY = 1 << 20;

    /** Number of bit positions in the job's bit space (N). */
    int capacity();

    Encoding encoding();

    boolean contains(int index);

    int cardinality();

    default boolean isEmpty() {
        return cardinality() == 0;
    }

    /** Smallest member at or after {@code from}, or -1. */
    int nextSetBit(int from);

    /** Members in ascending order. */
    default IntStream stream() {
        IntStream.Builder b = IntStream.builder();
        for (int i = nextSetBit(0); i >= 0; i = nextSetBit(i + 1)) {
            b.add(i);
        }
        return b.build();
    }

    default int[] indices() {
        return stream().toArray();
    }

    EndpointSet and(EndpointSet other);

    EndpointSet or(EndpointSet other);

    EndpointSet andNot(EndpointSet other);

    default boolean intersects(EndpointSet other) {
        return !and(other).isEmpty();
    }

    default boolean isSubsetOf(EndpointSet other) {
        return andNot(other).isEmpty();
    }

    /**
     * Exact size of the endpoint-set field in bits, as seed 000 section 7 counts it:
     * N for a flat bitmap, B + k*b for a hierarchical one with k selected blocks, and
     * K * ceil(log2 N) for a node list.
     */
    long encodedBits();

    FlatBitmap toFlat();

    NodeList toNodeList();

    HierarchicalBitmap toHierarchical(int blockSize);

    /** Converts to {@code encoding}; {@code blockSize} is used only for the hierarchical one. */
    default EndpointSet to(Encoding encoding, int blockSize) {
        return switch (encoding) {
            case FLAT -> toFlat();
            case NODE_LIST -> toNodeList();
            case HIERARCHICAL -> toHierarchical(blockSize);
        };
    }
}
