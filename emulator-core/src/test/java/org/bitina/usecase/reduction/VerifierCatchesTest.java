package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 44 item 1: whatever makes the inputs and references cheap, the check still catches a
 * missing contribution, a doubled one (where the operation is not idempotent: max and min of a
 * value twice are the value), one from the wrong chunk or shifted by an element, and the wrong
 * operation, for every type and operation, at full membership and for partial results. Results
 * are reduced here by the switch's own arithmetic ({@link ReductionOp#apply}), last holder first.
 */
class VerifierCatchesTest {
    private static final int MEMBERS = 8;
    private static final EndpointSet ALL = FlatBitmap.of(MEMBERS, 0, 1, 2, 3, 4, 5, 6, 7);
    private static final EndpointSet SOME = FlatBitmap.of(MEMBERS, 1, 2, 5, 6);
    private static final int CHUNK = 1;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (ElementType type : List.of(ElementType.FLOAT32, ElementType.INT32)) {
            for (ReductionOp op : List.of(ReductionOp.SUM, ReductionOp.PRODUCT, ReductionOp.MAX, ReductionOp.MIN)) {
                for (EndpointSet holds : List.of(ALL, SOME)) {
                    out.add(Arguments.of(type, op, holds));
                }
            }
        }
        return out.stream();
    }

    private static AllReduceData data(ElementType type, ReductionOp op) {
        return new AllReduceData(new DataSpec(300, type, op, 100, 4, 11, 1 << 16));
    }

    /** The contributions reduced as a switch would, last first; {@code swap} replaces one of them. */
    private static Payload reduce(AllReduceData d, ReductionOp op, List<Payload> contributions) {
        Payload acc = contributions.get(contributions.size() - 1).copy();
        for (int i = contributions.size() - 2; i >= 0; i--) {
            op.apply(acc, contributions.get(i));
        }
        return acc;
    }

    private static List<Payload> of(AllReduceData d, EndpointSet holds, int chunk) {
        List<Payload> out = new ArrayList<>();
        for (int b : holds.indices()) {
            out.add(d.payload(b, chunk));
        }
        return out;
    }

    /** {@code p} with its elements moved one place (the last first). */
    private static Payload shifted(Payload p) {
        if (p instanceof Payload.Int32 i) {
            int[] v = i.values();
            int[] s = new int[v.length];
            for (int k = 0; k < v.length; k++) {
                s[(k + 1) % v.length] = v[k];
            }
            return Payload.of(s);
        }
        float[] v = ((Payload.Float32) p).values();
        float[] s = new float[v.length];
        for (int k = 0; k < v.length; k++) {
            s[(k + 1) % v.length] = v[k];
        }
        return Payload.of(s);
    }

    @ParameterizedTest(name = "{0} {1} holds {2}")
    @MethodSource("cases")
    void everyWrongContributionIsCaught(ElementType type, ReductionOp op, EndpointSet holds) {
        AllReduceData d = data(type, op);
        Verifier v = new Verifier();
        List<Payload> right = of(d, holds, CHUNK);
        assertNull(v.check(d, CHUNK, holds, reduce(d, op, right)), "the right result passes");
        for (int k = 0; k < right.size(); k++) {
            String who = "contribution " + k + " of " + holds;
            List<Payload> missing = new ArrayList<>(right);
            missing.remove(k);
            if (!missing.isEmpty()) {
                assertNotNull(v.check(d, CHUNK, holds, reduce(d, op, missing)), who + " missing");
            }
            if (op == ReductionOp.SUM || op == ReductionOp.PRODUCT) {
                List<Payload> doubled = new ArrayList<>(right);
                doubled.add(right.get(k));
                assertNotNull(v.check(d, CHUNK, holds, reduce(d, op, doubled)), who + " twice");
            }
            List<Payload> otherChunk = new ArrayList<>(right);
            otherChunk.set(k, d.payload(holds.indices()[k], CHUNK + 1));
            assertNotNull(v.check(d, CHUNK, holds, reduce(d, op, otherChunk)), who + " from chunk " + (CHUNK + 1));
            List<Payload> moved = new ArrayList<>(right);
            moved.set(k, shifted(right.get(k)));
            assertNotNull(v.check(d, CHUNK, holds, reduce(d, op, moved)), who + " an element off");
        }
        for (ReductionOp other : List.of(ReductionOp.SUM, ReductionOp.PRODUCT, ReductionOp.MAX, ReductionOp.MIN)) {
            if (other != op) {
                assertNotNull(v.check(d, CHUNK, holds, reduce(d, other, right)), other + " instead of " + op);
            }
        }
        EndpointSet otherHolders = holds == ALL ? SOME : ALL;
        assertNotNull(
                v.check(d, CHUNK, otherHolders, reduce(d, op, right)), "the result of " + holds + " named otherwise");
    }

    /**
     * A sum's closed-form reference is the one adding every holder's values gives, to the bit:
     * expected value and tolerance at each element (read from the mismatch of a result wrong
     * there), at 128 members and for a partial result of 77 of them.
     */
    @Test
    void aSumsClosedFormIsTheReferenceOfAddingEveryHoldersValues() {
        AllReduceData d = new AllReduceData(new DataSpec(2000, ElementType.FLOAT32, ReductionOp.SUM, 1000, 4, 5, 1024));
        assertTrue(d.closedForm());
        int n = 128;
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        int[] part = new int[77];
        for (int i = 0; i < part.length; i++) {
            part[i] = (i * 5) % n;
        }
        Verifier v = new Verifier();
        for (int[] bits : List.of(all, part)) {
            EndpointSet holds = FlatBitmap.of(n, bits);
            double[] exact = new double[1000];
            double[] abs = new double[1000];
            for (int b : bits) {
                float[] x = d.values(b, 1);
                for (int i = 0; i < x.length; i++) {
                    exact[i] += x[i];
                    abs[i] += Math.abs((double) x[i]);
                }
            }
            for (int i = 0; i < 1000; i += 37) {
                float[] wrong = new float[1000];
                for (int k = 0; k < 1000; k++) {
                    wrong[k] = (float) exact[k];
                }
                wrong[i] = (float) (exact[i] + 10);
                Verifier.Mismatch m = v.check(d, 1, holds, Payload.of(wrong));
                assertEquals(i, m.index());
                assertEquals(exact[i], m.expected(), 0.0, "element " + i);
                assertEquals(bits.length * Math.scalb(1.0, -24) * abs[i], m.tolerance(), 0.0, "element " + i);
            }
        }
    }

    @Test
    void aSumsInputsAreBasePlusTermAndTheOtherOpsDrawEveryElement() {
        AllReduceData sum = data(ElementType.FLOAT32, ReductionOp.SUM);
        float[] a = sum.values(0, 1);
        float[] b = sum.values(3, 1);
        float gap = b[0] - a[0];
        for (int i = 0; i < a.length; i++) {
            assertEquals(gap, b[i] - a[i], 0f, "two workers differ by their terms at every element");
            assertEquals(a[i], Math.scalb(Math.rint(Math.scalb(a[i], 12)), -12), 0f, "on the 2^-12 grid");
        }
        AllReduceData max = data(ElementType.FLOAT32, ReductionOp.MAX);
        float[] x = max.values(0, 1);
        float[] y = max.values(3, 1);
        int sameGap = 0;
        for (int i = 1; i < x.length; i++) {
            sameGap += (y[i] - x[i]) == (y[0] - x[0]) ? 1 : 0;
        }
        assertTrue(sameGap < 3, "max draws each element on its own: " + sameGap);
    }
}
