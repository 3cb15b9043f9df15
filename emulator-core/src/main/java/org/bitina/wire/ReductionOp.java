package org.bitina.wire;

/**
 * The reductions of seed 000 section 3 (sum, product, max, min), with their wire code.
 * The arithmetic lives here so that every node and every reference reduces identically.
 * int32 arithmetic is two's complement and wraps, as a switch ALU does: it is exact and
 * independent of the order of contributions. float32 sum and product depend on order;
 * verifiers compare them with a tolerance.
 */
public enum ReductionOp {
    NONE(0),
    SUM(1),
    PRODUCT(2),
    MAX(3),
    MIN(4);

    private final int wireValue;

    ReductionOp(int wireValue) {
        this.wireValue = wireValue;
    }

    public int wireValue() {
        return wireValue;
    }

    public static ReductionOp fromWire(int value) {
        for (ReductionOp op : values()) {
            if (op.wireValue == value) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown reduction op " + value);
    }

    /** {@code acc[i] = acc[i] op x[i]}. */
    public void apply(float[] acc, float[] x) {
        checkLengths(acc.length, x.length);
        switch (this) {
            case SUM -> {
                for (int i = 0; i < acc.length; i++) acc[i] += x[i];
            }
            case PRODUCT -> {
                for (int i = 0; i < acc.length; i++) acc[i] *= x[i];
            }
            case MAX -> {
                for (int i = 0; i < acc.length; i++) acc[i] = Math.max(acc[i], x[i]);
            }
            case MIN -> {
                for (int i = 0; i < acc.length; i++) acc[i] = Math.min(acc[i], x[i]);
            }
            case NONE -> throw new IllegalStateException("no reduction op for this packet");
        }
    }

    /** {@code acc[i] = acc[i] op x[i]}, exact two's complement arithmetic. */
    public void apply(int[] acc, int[] x) {
        checkLengths(acc.length, x.length);
        switch (this) {
            case SUM -> {
                for (int i = 0; i < acc.length; i++) acc[i] += x[i];
            }
            case PRODUCT -> {
                for (int i = 0; i < acc.length; i++) acc[i] *= x[i];
            }
            case MAX -> {
                for (int i = 0; i < acc.length; i++) acc[i] = Math.max(acc[i], x[i]);
            }
            case MIN -> {
                for (int i = 0; i < acc.length; i++) acc[i] = Math.min(acc[i], x[i]);
            }
            case NONE -> throw new IllegalStateException("no reduction op for this packet");
        }
    }

    /**
     * {@code acc = acc op x} on payloads of the same element type and length; an empty
     * payload (an ACK) reduces to nothing.
     */
    public void apply(Payload acc, Payload x) {
        if (acc instanceof Payload.Float32 a && x instanceof Payload.Float32 b) {
            apply(a.values(), b.values());
        } else if (acc instanceof Payload.Int32 a && x instanceof Payload.Int32 b) {
            apply(a.values(), b.values());
        } else if (acc.elementType() != x.elementType()) {
            throw new IllegalArgumentException("cannot reduce " + x + " into " + acc);
        }
    }

    private static void checkLengths(int a, int b) {
        if (a != b) {
            throw new IllegalArgumentException("cannot reduce arrays of " + a + " and " + b + " elements");
        }
    }
}
