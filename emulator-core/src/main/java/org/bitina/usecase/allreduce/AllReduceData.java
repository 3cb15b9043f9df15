package org.bitina.usecase.allreduce;

import java.util.SplittableRandom;
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

    /** Worker {@code bit}'s values for {@code chunk}, as floats before any fixed-point encoding. */
    public float[] values(int bit, int chunk) {
        SplittableRandom r = new SplittableRandom(spec.seed() * 0x9E3779B97F4A7C15L + ((long) bit << 32) + chunk);
        float[] v = new float[chunkLength(chunk)];
        for (int i = 0; i < v.length; i++) {
            double u = r.nextDouble();
            v[i] = (float) switch (spec.op()) {
                case PRODUCT -> 0.95 + 0.1 * u;
                case MAX, MIN -> -1000 + 2000 * u;
                default -> -1 + 2 * u;
            };
        }
        return v;
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
