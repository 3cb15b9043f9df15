package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** A result chunk against the reference of exactly the contributions it says it holds: int32 exact, float32 within its bound. */
class VerifierTest {
    private final Verifier verifier = new Verifier();
    private static final double U = Math.scalb(1.0, -24);
    /** 250 elements in chunks of 100: the last chunk is 50 long. */
    private static final int ELEMENTS = 250;

    private static final EndpointSet ALL = FlatBitmap.of(4, 0, 1, 2, 3);

    private static AllReduceData data(ElementType type, ReductionOp op, long seed) {
        return new AllReduceData(new DataSpec(ELEMENTS, type, op, 100, 2, seed, 1 << 16));
    }

    /** The ints of {@code holds}' payloads reduced by hand, last contributor first. */
    private static int[] intReduce(AllReduceData d, int chunk, EndpointSet holds) {
        int[] bits = holds.indices();
        int[] acc = ((Payload.Int32) d.payload(bits[bits.length - 1], chunk))
                .values()
                .clone();
        for (int i = bits.length - 2; i >= 0; i--) {
            int[] v = ((Payload.Int32) d.payload(bits[i], chunk)).values();
            for (int j = 0; j < acc.length; j++) {
                acc[j] = switch (d.op()) {
                    case SUM -> acc[j] + v[j];
                    case MAX -> Math.max(acc[j], v[j]);
                    case MIN -> Math.min(acc[j], v[j]);
                    default -> throw new IllegalArgumentException(d.op().name());
                };
            }
        }
        return acc;
    }

    /** The floats of {@code holds} reduced in float32, last contributor first: another order than any reference. */
    private static float[] floatReduce(AllReduceData d, int chunk, EndpointSet holds) {
        int[] bits = holds.indices();
        float[] acc = d.values(bits[bits.length - 1], chunk).clone();
        for (int i = bits.length - 2; i >= 0; i--) {
            float[] v = d.values(bits[i], chunk);
            for (int j = 0; j < acc.length; j++) {
                acc[j] = switch (d.op()) {
                    case SUM -> acc[j] + v[j];
                    case PRODUCT -> acc[j] * v[j];
                    case MAX -> Math.max(acc[j], v[j]);
                    case MIN -> Math.min(acc[j], v[j]);
                    default -> throw new IllegalArgumentException(d.op().name());
                };
            }
        }
        return acc;
    }

    @Test
    void anInt32SumOfTheContributionsItHoldsIsRightAndOneUnitOffIsNamed() {
        AllReduceData d = data(ElementType.INT32, ReductionOp.SUM, 1);
        int[] sum = intReduce(d, 1, ALL);
        assertNull(verifier.check(d, 1, ALL, Payload.of(sum)));
        int[] off = sum.clone();
        off[37] += 1;
        assertEquals(
                new Verifier.Mismatch(1, 37, off[37], sum[37], 0),
                verifier.check(d, 1, ALL, Payload.of(off)),
                "int32 is exact: one unit off fails, at the element that is off");
    }

    @Test
    void aPartialResultIsCheckedAgainstTheContributorsItNamesNotAgainstAll() {
        AllReduceData d = data(ElementType.INT32, ReductionOp.SUM, 2);
        EndpointSet w1w3 = FlatBitmap.of(4, 0, 2);
        int[] partial = intReduce(d, 0, w1w3);
        assertNull(verifier.check(d, 0, w1w3, Payload.of(partial)));
        assertNotNull(verifier.check(d, 0, ALL, Payload.of(partial)), "what w1 and w3 sent is not what all four sent");
        assertNotNull(verifier.check(d, 0, w1w3, Payload.of(intReduce(d, 0, ALL))), "nor the other way round");
    }

    @Test
    void int32MaxAndMinAreExact() {
        for (ReductionOp op : List.of(ReductionOp.MAX, ReductionOp.MIN)) {
            AllReduceData d = data(ElementType.INT32, op, 3);
            int[] r = intReduce(d, 2, ALL);
            assertNull(verifier.check(d, 2, ALL, Payload.of(r)), op.name());
            r[0] -= 1;
            assertEquals(0, verifier.check(d, 2, ALL, Payload.of(r)).index(), op.name());
        }
    }

    @Test
    void aFloat32SumInAnyOrderPassesAndTheBoundIsNTimesUnitRoundoffTimesTheSumOfMagnitudes() {
        AllReduceData d = data(ElementType.FLOAT32, ReductionOp.SUM, 4);
        float[] sum = floatReduce(d, 0, ALL);
        assertNull(verifier.check(d, 0, ALL, Payload.of(sum)), "a float32 sum in another order is within the bound");
        double exact = 0;
        double magnitudes = 0;
        for (int b = 0; b < 4; b++) {
            exact += d.values(b, 0)[5];
            magnitudes += Math.abs(d.values(b, 0)[5]);
        }
        double tolerance = 4 * U * magnitudes;
        float[] off = sum.clone();
        off[5] = (float) (exact + 3 * tolerance);
        Verifier.Mismatch m = verifier.check(d, 0, ALL, Payload.of(off));
        assertEquals(5, m.index());
        assertEquals(exact, m.expected(), 1e-12);
        assertEquals(tolerance, m.tolerance(), 1e-15);
    }

    @Test
    void aFloat32ProductInAnyOrderPassesAndItsBoundScalesWithTheProduct() {
        AllReduceData d = data(ElementType.FLOAT32, ReductionOp.PRODUCT, 5);
        float[] product = floatReduce(d, 1, ALL);
        assertNull(verifier.check(d, 1, ALL, Payload.of(product)));
        double exact = 1;
        for (int b = 0; b < 4; b++) {
            exact *= d.values(b, 1)[0];
        }
        float[] off = product.clone();
        off[0] = (float) (exact * (1 + 16 * U));
        Verifier.Mismatch m = verifier.check(d, 1, ALL, Payload.of(off));
        assertEquals(0, m.index());
        assertEquals(4 * U * Math.abs(exact), m.tolerance(), 1e-15);
    }

    @Test
    void float32MaxAndMinMustMatchExactlyNotOneUlpOff() {
        for (ReductionOp op : List.of(ReductionOp.MAX, ReductionOp.MIN)) {
            AllReduceData d = data(ElementType.FLOAT32, op, 6);
            float[] r = floatReduce(d, 0, ALL);
            assertNull(verifier.check(d, 0, ALL, Payload.of(r)), op.name());
            r[9] = Math.nextUp(r[9]);
            Verifier.Mismatch m = verifier.check(d, 0, ALL, Payload.of(r));
            assertEquals(9, m.index(), op.name());
            assertEquals(0, m.tolerance(), op.name());
        }
    }

    @Test
    void theShortLastChunkIsCheckedOverItsOwnLength() {
        AllReduceData d = data(ElementType.INT32, ReductionOp.SUM, 7);
        int last = d.chunks() - 1;
        int[] sum = intReduce(d, last, ALL);
        assertEquals(ELEMENTS - 100 * last, sum.length);
        assertNull(verifier.check(d, last, ALL, Payload.of(sum)));
    }

    @Test
    void aResultOfTheWrongLengthOrTypeOrHoldingNobodyIsAMismatchWithoutAnElement() {
        AllReduceData d = data(ElementType.INT32, ReductionOp.SUM, 8);
        int[] sum = intReduce(d, 0, ALL);
        assertEquals(
                new Verifier.Mismatch(0, -1, 99, 100, 0),
                verifier.check(d, 0, ALL, Payload.of(Arrays.copyOf(sum, 99))));
        assertEquals(-1, verifier.check(d, 0, ALL, Payload.of(new float[100])).index(), "float32 for an int32 job");
        assertEquals(
                -1,
                verifier.check(d, 0, FlatBitmap.of(4), Payload.of(sum)).index(),
                "a result must hold someone's data");
    }

    @Test
    void equalMemberSetsShareOneInstanceAndACompleteResultIsCheckedAgainstThePreparedReference() {
        AllReduceData d = data(ElementType.FLOAT32, ReductionOp.SUM, 5);
        EndpointSet a = verifier.members(FlatBitmap.of(4, 0, 1, 2, 3));
        EndpointSet b = verifier.members(FlatBitmap.of(4, 3, 2, 1, 0));
        assertSame(
                a, b, "one instance per member set: a complete result's reference is found without hashing its bits");
        verifier.prepare(d, ALL);
        assertNull(verifier.check(d, 2, a, Payload.of(floatReduce(d, 2, ALL))));
        float[] off = floatReduce(d, 2, ALL);
        off[7] += 0.5f;
        assertNotNull(
                verifier.check(d, 2, a, Payload.of(off)), "the canonical set still names the reference of all four");
        // a partial result with its own provenance is looked up by its bits
        EndpointSet partial = FlatBitmap.of(4, 0, 2);
        assertNull(verifier.check(d, 2, partial, Payload.of(floatReduce(d, 2, partial))));
        assertNotNull(verifier.check(d, 2, partial, Payload.of(floatReduce(d, 2, ALL))));
    }

    @Test
    void inputsAreSeededPerWorkerAndChunkAndStayInTheirOpsRange() {
        AllReduceData sum = data(ElementType.FLOAT32, ReductionOp.SUM, 9);
        assertArrayEquals(sum.values(1, 2), sum.values(1, 2), "the same (seed, worker, chunk), the same values");
        assertFalse(Arrays.equals(sum.values(1, 2), sum.values(2, 2)), "another worker, other values");
        assertFalse(Arrays.equals(sum.values(1, 1), sum.values(1, 2)), "another chunk, other values");
        assertFalse(Arrays.equals(
                sum.values(1, 2), data(ElementType.FLOAT32, ReductionOp.SUM, 10).values(1, 2)));
        assertEquals(50, sum.values(0, 2).length, "the last chunk is 50 long (an even count), and chunk 0 is 100");
        double mean = 0;
        Set<Float> distinct = new HashSet<>();
        for (int w = 0; w < 40; w++) {
            for (float v : sum.values(w, 0)) {
                assertTrue(v >= -1f && v < 1f, "a sum draws from [-1, 1): " + v);
                mean += v;
                distinct.add(v);
            }
        }
        // centred: a mean of 100 bases plus one of 40 terms, each uniform on [-0.5, 0.5): sd about 0.055
        assertTrue(Math.abs(mean / 4000) < 0.2, "centred: " + mean / 4000);
        // a sum's inputs are base + term on a 2^-12 grid (AllReduceData): 8192 values in [-1, 1)
        assertTrue(distinct.size() > 2500, "spread over the grid: " + distinct.size() + " distinct of 4000");
        AllReduceData odd =
                new AllReduceData(new DataSpec(101, ElementType.FLOAT32, ReductionOp.PRODUCT, 101, 1, 3, 1 << 16));
        float[] p = odd.values(0, 0);
        assertEquals(101, p.length);
        for (float v : p) {
            assertTrue(v >= 0.95f && v <= 1.05f, "a product draws from [0.95, 1.05]: " + v);
        }
        assertTrue(p[100] != p[99] && p[100] != p[98], "the odd last element has a draw of its own");
    }

    @Test
    void fillWritesTheSameValuesIntoAReusedArrayAndLeavesTheRestAlone() {
        AllReduceData d = data(ElementType.FLOAT32, ReductionOp.SUM, 9);
        float[] into = new float[120];
        Arrays.fill(into, 7f);
        d.fill(3, 2, into); // the short last chunk: 50 values
        assertArrayEquals(d.values(3, 2), Arrays.copyOf(into, 50));
        assertEquals(7f, into[50], "past the chunk's length nothing is written");
        d.fill(4, 0, into);
        assertArrayEquals(d.values(4, 0), Arrays.copyOf(into, 100));
        assertThrows(IllegalArgumentException.class, () -> d.fill(0, 0, new float[99]));
    }
}
