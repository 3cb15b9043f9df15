package org.bitina.usecase.reduction;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.References;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * Checks an AllReduce result chunk against a reference computed on the host from the
 * contributions the result says it holds. int32 (fixed point) must match exactly, in
 * two's complement like the switch ALU. float32 max and min must match exactly; a float32
 * sum may differ from the exact (double) sum by at most n * 2^-24 * sum(|x|), and a
 * product by n * 2^-24 * |product|: the rounding bound of n-1 float additions or
 * multiplications in any order, so that any tree shape passes and a wrong value fails.
 */
public final class Verifier {
    public static final String FLOAT_TOLERANCE = "float32 sum: |got - exact| <= n * 2^-24 * sum|x|; "
            + "product: <= n * 2^-24 * |exact|; max, min and int32: exact";
    private static final double U = Math.scalb(1.0, -24);

    /** A verifier with references of its own (tests, and one worker alone). */
    public Verifier() {}

    /** A mismatch, or null when the chunk is right. */
    public record Mismatch(int chunk, int index, double got, double expected, double tolerance) {
        @Override
        public String toString() {
            return String.format(
                    "chunk %d element %d: got %s, expected %s (tolerance %s)", chunk, index, got, expected, tolerance);
        }
    }

    /** The reference of one chunk for one set of contributors. */
    private record Expected(int[] exactInt, double[] exact, double[] tolerance) {}

    private record Key(DataSpec spec, int chunk, EndpointSet holds) {}

    /**
     * References shared by the workers that hold this verifier (those of one run on one JVM,
     * through {@link References}): every worker of a 128-way job checks the
     * same chunk against the same reference, computed once. Workers run on several threads:
     * a concurrent map, so that a lookup never waits on another chunk's computation.
     */
    private final ConcurrentHashMap<Key, Expected> cache = new ConcurrentHashMap<>();
    /** One instance per member set: a worker checks its complete results with it, so their key costs O(1), not O(N). */
    private final ConcurrentHashMap<EndpointSet, EndpointSet> canonical = new ConcurrentHashMap<>();

    /**
     * The one instance of {@code members} this verifier keys its full-membership references by.
     * A worker names a complete result's holders with it: looking that reference up is then
     * O(1) (the set's hash is kept, equality is identity), so only a partial result's
     * provenance is hashed and compared bit by bit.
     */
    public EndpointSet members(EndpointSet members) {
        return canonical.computeIfAbsent(members.toFlat(), k -> k);
    }

    /** The instance of a plan's member set, per (bit space, member list) instance: every worker of a JVM shares it. */
    private record PlanKey(Object space, Object members) {
        @Override
        public boolean equals(Object o) {
            return o instanceof PlanKey k && k.space == space && k.members == members;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(space) + System.identityHashCode(members);
        }
    }

    private final ConcurrentHashMap<PlanKey, EndpointSet> ofPlan = new ConcurrentHashMap<>();

    /** One generator per data spec for the workers that share this verifier: a sum's bases drawn once per JVM. */
    private final ConcurrentHashMap<DataSpec, AllReduceData> inputs = new ConcurrentHashMap<>();

    /** The inputs of {@code spec}, the same instance for every worker (and reference) of this verifier. */
    public AllReduceData data(DataSpec spec) {
        return inputs.computeIfAbsent(spec, AllReduceData::new);
    }

    /**
     * {@link #members(EndpointSet)} of {@code members} in {@code space}, made once for the workers
     * that share one plan's instances (building it per worker was O(N) each, O(N^2) per job: 4e9
     * steps at 65,536 workers); a plan that arrived as a copy gets its own, equal, set.
     */
    public EndpointSet members(BitSpace space, List<String> members) {
        return ofPlan.computeIfAbsent(new PlanKey(space, members), k -> members(space.setOf(members)));
    }

    /**
     * The verifier the endpoints of this JVM share ({@code references}), with the reference of every chunk
     * of {@code plan} over {@code holders} (what a finished chunk holds) computed before the phase.
     */
    public static Verifier prepared(References references, AllReducePlan plan, List<String> holders) {
        Verifier v = references.shared(Verifier.class, Verifier::new);
        v.prepare(v.data(plan.data()), v.members(plan.space(), holders));
        return v;
    }

    /** As {@link #prepared(References, AllReducePlan, List)}, over what a finished chunk of {@code schedule} holds. */
    public static Verifier prepared(References references, AllReducePlan plan, HostSchedule schedule) {
        return prepared(
                references,
                plan,
                schedule.contributors().stream().mapToObj(plan.members()::get).toList());
    }

    /**
     * Computes the full-membership reference of every chunk ahead of a phase (when its drivers
     * are set up), so that phase wall times measure the emulation, not the reference arithmetic.
     */
    public void prepare(AllReduceData data, EndpointSet members) {
        for (int c = 0; c < data.chunks(); c++) {
            int chunk = c;
            cache.computeIfAbsent(new Key(data.spec(), chunk, members(members)), k -> expected(data, chunk, members));
        }
    }

    public Mismatch check(AllReduceData data, int chunk, EndpointSet holds, Payload got) {
        int len = data.chunkLength(chunk);
        if (got.elements() != len || got.elementType() != data.spec().type() || holds.isEmpty()) {
            return new Mismatch(chunk, -1, got.elements(), len, 0);
        }
        Expected e =
                cache.computeIfAbsent(new Key(data.spec(), chunk, holds.toFlat()), k -> expected(data, chunk, holds));
        if (got instanceof Payload.Int32 gi) {
            for (int i = 0; i < len; i++) {
                if (gi.values()[i] != e.exactInt()[i]) {
                    return new Mismatch(chunk, i, gi.values()[i], e.exactInt()[i], 0);
                }
            }
            return null;
        }
        float[] g = ((Payload.Float32) got).values();
        for (int i = 0; i < len; i++) {
            if (!(Math.abs(g[i] - e.exact()[i]) <= e.tolerance()[i])) {
                return new Mismatch(chunk, i, g[i], e.exact()[i], e.tolerance()[i]);
            }
        }
        return null;
    }

    private static Expected expected(AllReduceData data, int chunk, EndpointSet holds) {
        if (data.closedForm()) {
            return closedSum(data, chunk, holds);
        }
        int len = data.chunkLength(chunk);
        int n = holds.cardinality();
        ReductionOp op = data.op();
        if (data.spec().type() == ElementType.INT32) {
            int[] expected = null;
            for (int b : holds.indices()) {
                int[] v = ((Payload.Int32) data.payload(b, chunk)).values();
                if (expected == null) {
                    expected = v;
                } else {
                    op.apply(expected, v);
                }
            }
            return new Expected(expected, null, null);
        }
        double[] exact = new double[len];
        double[] abs = new double[len];
        // one array for every member's values, and one loop per operation: the same additions and
        // products in the same order (member by member) as one array each and the operation chosen
        // per element, so the same reference to the bit
        float[] v = new float[len];
        boolean first = true;
        for (int b : holds.indices()) {
            data.fill(b, chunk, v);
            if (first) {
                for (int i = 0; i < len; i++) {
                    exact[i] = v[i];
                }
            } else {
                switch (op) {
                    case SUM -> {
                        for (int i = 0; i < len; i++) {
                            exact[i] += v[i];
                        }
                    }
                    case PRODUCT -> {
                        for (int i = 0; i < len; i++) {
                            exact[i] *= v[i];
                        }
                    }
                    case MAX -> {
                        for (int i = 0; i < len; i++) {
                            exact[i] = Math.max(exact[i], v[i]);
                        }
                    }
                    case MIN -> {
                        for (int i = 0; i < len; i++) {
                            exact[i] = Math.min(exact[i], v[i]);
                        }
                    }
                    case NONE -> throw new IllegalStateException("no op");
                }
            }
            for (int i = 0; i < len; i++) {
                abs[i] += Math.abs((double) v[i]);
            }
            first = false;
        }
        double[] tol = new double[len];
        for (int i = 0; i < len; i++) {
            tol[i] = switch (op) {
                case SUM -> n * U * abs[i];
                case PRODUCT -> n * U * Math.abs(exact[i]);
                default -> 0;
            };
        }
        return new Expected(null, exact, tol);
    }

    /**
     * A sum's reference in closed form ({@link AllReduceData}): {@code n base + sum of terms} per
     * element, and the sum of magnitudes {@code sum |base + t|} from the sorted terms' prefix sums
     * (the terms below {@code -base} count negative). Every quantity is a multiple of 2^-12 well
     * inside a double's 53 bits, so each is exact and equal to the bit to what adding the holders'
     * values one by one gives: the same reference and tolerance, at O(holders log holders) per
     * chunk and O(log holders) per element.
     */
    private static Expected closedSum(AllReduceData data, int chunk, EndpointSet holds) {
        int len = data.chunkLength(chunk);
        int[] bits = holds.indices();
        int n = bits.length;
        if (data.spec().type() == ElementType.INT32) {
            int terms = 0;
            for (int b : bits) {
                terms += data.fixedTerm(b, chunk);
            }
            int[] base = data.fixedBase(chunk);
            int[] expected = new int[len];
            for (int i = 0; i < len; i++) {
                expected[i] = n * base[i] + terms; // wraps as n additions do
            }
            return new Expected(expected, null, null);
        }
        double[] t = new double[n];
        for (int k = 0; k < n; k++) {
            t[k] = data.term(bits[k], chunk);
        }
        Arrays.sort(t);
        double[] below = new double[n + 1]; // below[k]: the sum of the k smallest terms
        for (int k = 0; k < n; k++) {
            below[k + 1] = below[k] + t[k];
        }
        float[] base = data.base(chunk);
        double[] exact = new double[len];
        double[] tol = new double[len];
        for (int i = 0; i < len; i++) {
            double b = base[i];
            exact[i] = n * b + below[n];
            int k = firstAtLeast(t, -b); // terms t[0..k) make b + t negative
            double abs = (below[n] - below[k] + (n - k) * b) - (below[k] + k * b);
            tol[i] = n * U * abs;
        }
        return new Expected(null, exact, tol);
    }

    /** The first index of sorted {@code t} whose value is at least {@code x}; {@code t.length} when none is. */
    private static int firstAtLeast(double[] t, double x) {
        int lo = 0;
        int hi = t.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (t[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
