package org.bitina.usecase.reduction;

import org.bitina.protocol.FixedPoint;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * The arrays an AllReduce job reduces: every worker's chunk is drawn from a generator
 * seeded by (job seed, worker bit, chunk), so any node can regenerate any contribution
 * without storing it, and the reference is computed from the same values independently of
 * the network. Ranges suit the op: sums draw from [-1, 1), products from [0.95, 1.05) so
 * that 128-way products stay in range, max and min from [-1000, 1000).
 */
public final class AllReduceData {
    private final DataSpec spec;

    public AllReduceData(DataSpec spec) {
        this.spec = spec;
    }

    public DataSpec spec() {
        return spec;
    }

    public int chunks() {
        return spec.chunks();
    }

    public int chunkLength(int chunk) {
        return Math.min(spec.chunk(), spec.elements() - chunk * spec.chunk());
    }

    /**
     * Worker {@code bit}'s values for {@code chunk}, as floats before any fixed-point encoding:
     * a counter-based generator (SplitMix64's finaliser over the stream's counter), two values
     * of 24 random bits from each 64-bit draw, filled in bulk.
     */
    public float[] values(int bit, int chunk) {
        float[] v = new float[chunkLength(chunk)];
        fill(bit, chunk, v);
        return v;
    }

    /**
     * {@link #values} written into the first {@code chunkLength(chunk)} places of {@code v}: the
     * verifier's reference goes through every member's values with one array instead of one each.
     */
    void fill(int bit, int chunk, float[] into) {
        int n = chunkLength(chunk);
        if (into.length < n) {
            throw new IllegalArgumentException("chunk " + chunk + " has " + n + " values, the array " + into.length);
        }
        float[] v = into;
        float lo;
        float span;
        switch (spec.op()) {
            case PRODUCT -> {
                lo = 0.95f;
                span = 0.1f;
            }
            case MAX, MIN -> {
                lo = -1000f;
                span = 2000f;
            }
            default -> {
                lo = -1f;
                span = 2f;
            }
        }
        long stream = mix(spec.seed() * 0x9E3779B97F4A7C15L + ((long) bit << 32) + chunk);
        int i = 0;
        for (long counter = 0; i + 1 < n; counter++, i += 2) {
            long z = mix(stream + counter * 0x9E3779B97F4A7C15L);
            v[i] = lo + span * ((z >>> 40) * 0x1.0p-24f);
            v[i + 1] = lo + span * (((z >>> 16) & 0xFFFFFF) * 0x1.0p-24f);
        }
        if (i < n) {
            v[i] = lo + span * ((mix(stream + (long) (i / 2) * 0x9E3779B97F4A7C15L) >>> 40) * 0x1.0p-24f);
        }
    }

    /** SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The payload worker {@code bit} contributes for {@code chunk}. */
    public Payload payload(int bit, int chunk) {
        float[] v = values(bit, chunk);
        if (spec.type() == ElementType.INT32) {
            int[] fixed = new int[v.length];
            for (int i = 0; i < v.length; i++) {
                fixed[i] = FixedPoint.encode(v[i], spec.fixedPointScale());
            }
            return Payload.of(fixed);
        }
        return Payload.of(v);
    }

    public ReductionOp op() {
        return spec.op();
    }
}
