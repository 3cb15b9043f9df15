package org.bitina.usecase.reduction;

import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;

/**
 * The array an AllReduce job reduces (A3, A4).
 *
 * @param elements        elements per worker
 * @param chunk           elements per chunk (one packet)
 * @param window          chunks in flight per worker
 * @param fixedPointScale for int32: values are fixed point with this many units per 1.0
 */
public record DataSpec(
        int elements, ElementType type, ReductionOp op, int chunk, int window, long seed, int fixedPointScale) {
    public int chunks() {
        return (elements + chunk - 1) / chunk;
    }

    /** The elements of chunk {@code c}: {@link #chunk}, the last one what is left. */
    public int chunkLength(int c) {
        return Math.min(chunk, elements - c * chunk);
    }
}
