package org.bitina.usecase.reduction;

import org.bitina.protocol.FixedPoint;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * The arrays an AllReduce job reduces: every worker's chunk is drawn from generators seeded by
 * (job seed, worker bit, chunk), so any node can regenerate any contribution without storing
 * it, and the reference is computed from the same values independently of the network.
 *
 * <p>A sum's inputs have a closed form (issue 44 item 1): worker {@code m}'s element {@code i}
 * of chunk {@code c} is {@code base(c, i) + term(m, c)}, the base drawn per element and shared by
 * every worker, the term drawn per worker and chunk, each a multiple of 2^-12 in [-0.5, 0.5)
 * (so their sum, in [-1, 1), is exact in float32, and any sum of up to 2^29 of them exact in a
 * double). The sum over any set of holders is then {@code |H| base + sum of terms}: O(holders)
 * per chunk and O(1) per element, instead of regenerating every holder's values; in int32 the
 * same with both parts in fixed point, wrapping as the switch ALU does. A missing, doubled or
 * foreign contribution moves every element by its value; an element from elsewhere, or a chunk
 * from another, differs in its base. Products, max and min keep an independent draw per
 * element: with a per-worker term one worker would hold every element's maximum, and a missing
 * other worker would go unseen. Ranges suit the op: products from [0.95, 1.05) so that 128-way
 * products stay in range, max and min from [-1000, 1000).
 */
public final class AllReduceData {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** Keeps the bases' streams apart from every worker's (whose streams mix in the bit above bit 32). */
    private static final long BASE_DOMAIN = 0xBA5E_0000_0000_0000L;

    private final DataSpec spec;
    /**
     * Per chunk, the bases of a sum's inputs, drawn when the data is made (final: every worker of
     * a JVM shares them through {@link Verifier#data} and reads them without a lock); null otherwise.
     */
    private final float[][] bases;
    /** The same in fixed point, for int32 sums. */
    private final int[][] fixedBases;

    public AllReduceData(DataSpec spec) {
        this.spec = spec;
        boolean sum = closedForm(spec);
        this.bases = sum ? new float[spec.chunks()][] : null;
        this.fixedBases = sum && spec.type() == ElementType.INT32 ? new int[spec.chunks()][] : null;
        for (int c = 0; sum && c < bases.length; c++) {
            bases[c] = drawBase(c);
            if (fixedBases != null) {
                fixedBases[c] = new int[bases[c].length];
                for (int i = 0; i < bases[c].length; i++) {
                    fixedBases[c][i] = FixedPoint.encode(bases[c][i], spec.fixedPointScale());
                }
            }
        }
    }

    /** Whether {@code spec}'s inputs are base plus term: a sum's, of either type. */
    static boolean closedForm(DataSpec spec) {
        return spec.op() == ReductionOp.SUM;
    }

    /** Whether this job's inputs are base plus term ({@link #closedForm(DataSpec)}). */
    public boolean closedForm() {
        return closedForm(spec);
    }

    public DataSpec spec() {
        return spec;
    }

    public int chunks() {
        return spec.chunks();
    }

    public int chunkLength(int chunk) {
        return spec.chunkLength(chunk);
    }

    /**
     * Worker {@code bit}'s values for {@code chunk}, as floats before any fixed-point encoding: a
     * sum's base plus the worker's term; otherwise a counter-based generator (SplitMix64's
     * finaliser over the stream's counter), two values of 24 random bits from each 64-bit draw.
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
        if (closedForm()) {
            float[] b = base(chunk);
            float t = term(bit, chunk);
            for (int i = 0; i < n; i++) {
                into[i] = b[i] + t; // exact: both on the 2^-12 grid, the sum in [-1, 1)
            }
            return;
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
        long stream = stream(bit, chunk);
        int i = 0;
        for (long counter = 0; i + 1 < n; counter++, i += 2) {
            long z = mix(stream + counter * GOLDEN);
            v[i] = lo + span * ((z >>> 40) * 0x1.0p-24f);
            v[i + 1] = lo + span * (((z >>> 16) & 0xFFFFFF) * 0x1.0p-24f);
        }
        if (i < n) {
            v[i] = lo + span * ((mix(stream + (long) (i / 2) * GOLDEN) >>> 40) * 0x1.0p-24f);
        }
    }

    /** Worker {@code bit}'s stream for {@code chunk}. */
    private long stream(int bit, int chunk) {
        return mix(spec.seed() * GOLDEN + ((long) bit << 32) + chunk);
    }

    /** A multiple of 2^-12 in [-0.5, 0.5) from the top 12 bits of {@code z}. */
    private static float grid(long z) {
        return ((int) (z >>> 52) - 2048) * 0x1.0p-12f;
    }

    /** A sum's term of worker {@code bit} in {@code chunk}: one draw of its stream. */
    float term(int bit, int chunk) {
        return grid(mix(stream(bit, chunk)));
    }

    /** The term in fixed point: what an int32 worker adds to every element's base. */
    int fixedTerm(int bit, int chunk) {
        return FixedPoint.encode(term(bit, chunk), spec.fixedPointScale());
    }

    /** A sum's bases of {@code chunk}: five 12-bit draws from each 64-bit one, made once and shared (read only). */
    float[] base(int chunk) {
        return bases[chunk];
    }

    private float[] drawBase(int chunk) {
        int n = chunkLength(chunk);
        float[] b = new float[n];
        long stream = mix((spec.seed() * GOLDEN) ^ BASE_DOMAIN ^ chunk);
        for (int i = 0, counter = 0; i < n; counter++) {
            long z = mix(stream + counter * GOLDEN);
            for (int k = 0; k < 5 && i < n; k++, i++, z <<= 12) {
                b[i] = grid(z);
            }
        }
        return b;
    }

    /** The bases in fixed point (int32 sums). */
    int[] fixedBase(int chunk) {
        return fixedBases[chunk];
    }

    /** SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The payload worker {@code bit} contributes for {@code chunk}. */
    public Payload payload(int bit, int chunk) {
        if (spec.type() == ElementType.INT32 && closedForm()) {
            int[] b = fixedBase(chunk);
            int t = fixedTerm(bit, chunk);
            int[] fixed = new int[b.length];
            for (int i = 0; i < b.length; i++) {
                fixed[i] = b[i] + t;
            }
            return Payload.of(fixed);
        }
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
