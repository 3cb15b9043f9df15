package org.bitina.bitmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.BitSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every operation agrees across the three encodings and with BitSet. */
class EndpointSetProperties {

    record Pair(int capacity, int block, int[] a, int[] b, int[] c) {}

    @Provide
    Arbitrary<Pair> sets() {
        return Arbitraries.integers().between(1, 300).flatMap(cap -> {
            Arbitrary<int[]> members = Arbitraries.integers()
                    .between(0, cap - 1)
                    .array(int[].class)
                    .ofMaxSize(Math.min(cap, 40))
                    .map(a -> Arrays.stream(a).distinct().sorted().toArray());
            // word-aligned blocks too: a hierarchical set meets a flat one as slices of its words
            Arbitrary<Integer> blocks =
                    Arbitraries.oneOf(Arbitraries.integers().between(1, 70), Arbitraries.of(64, 128, 192));
            return Combinators.combine(blocks, members, members, members)
                    .as((block, a, b, c) -> new Pair(cap, block, a, b, c));
        });
    }

    private static EndpointSet[] encodings(int capacity, int block, int[] members) {
        FlatBitmap f = FlatBitmap.of(capacity, members);
        return new EndpointSet[] {f, f.toNodeList(), f.toHierarchical(block)};
    }

    private static BitSet bits(int[] members) {
        BitSet s = new BitSet();
        Arrays.stream(members).forEach(s::set);
        return s;
    }

    @Property(tries = 300)
    void everyOperationAgreesAcrossEncodings(@ForAll("sets") Pair p) {
        BitSet a = bits(p.a());
        BitSet b = bits(p.b());
        BitSet and = (BitSet) a.clone();
        and.and(b);
        BitSet or = (BitSet) a.clone();
        or.or(b);
        BitSet andNot = (BitSet) a.clone();
        andNot.andNot(b);
        for (EndpointSet x : encodings(p.capacity(), p.block(), p.a())) {
            for (EndpointSet y : encodings(p.capacity(), p.block(), p.b())) {
                assertArrayEquals(
                        and.stream().toArray(), x.and(y).indices(), () -> x.encoding() + " AND " + y.encoding());
                assertArrayEquals(or.stream().toArray(), x.or(y).indices(), () -> x.encoding() + " OR " + y.encoding());
                assertArrayEquals(
                        andNot.stream().toArray(),
                        x.andNot(y).indices(),
                        () -> x.encoding() + " AND-NOT " + y.encoding());
                assertEquals(x.encoding(), x.or(y).encoding(), "result keeps the receiver's encoding");
                assertEquals(a.intersects(b), x.intersects(y));
                assertEquals(andNot.isEmpty(), x.isSubsetOf(y));
                assertEquals(a.equals(b), x.equals(y));
            }
            assertEquals(a.cardinality(), x.cardinality());
            assertEquals(x.toString(), EndpointSets.format(FlatBitmap.of(p.capacity(), p.a())));
            for (int i = -1; i <= p.capacity(); i++) {
                assertEquals(i >= 0 && a.get(i), x.contains(i), "contains " + i);
                int expected = a.nextSetBit(Math.max(i, 0));
                assertEquals(expected >= p.capacity() ? -1 : expected, x.nextSetBit(i), "nextSetBit " + i);
            }
        }
    }

    @Property(tries = 300)
    void orIsIdempotentCommutativeAndAssociative(@ForAll("sets") Pair p) {
        for (EndpointSet x : encodings(p.capacity(), p.block(), p.a())) {
            EndpointSet y = encodings(p.capacity(), p.block(), p.b())[p.b().length % 3];
            EndpointSet z = encodings(p.capacity(), p.block(), p.c())[p.c().length % 3];
            assertEquals(x, x.or(x), "idempotent");
            assertEquals(x.or(y), y.or(x), "commutative");
            assertEquals(x.or(y).or(z), x.or(y.or(z)), "associative");
            assertEquals(x.or(y), x.or(y).or(y), "OR-ing a duplicate changes nothing (F4)");
        }
    }

    @Property(tries = 300)
    void conversionsRoundTripAndSizesAreExact(@ForAll("sets") Pair p) {
        FlatBitmap f = FlatBitmap.of(p.capacity(), p.a());
        for (EndpointSet x : encodings(p.capacity(), p.block(), p.a())) {
            assertEquals(f, x.toFlat());
            assertEquals(f, x.toNodeList());
            assertEquals(f, x.toHierarchical(p.block()));
            for (Encoding e : Encoding.values()) {
                assertEquals(e, x.to(e, p.block()).encoding());
            }
        }
        long blocks = (p.capacity() + p.block() - 1) / p.block();
        long selected = Arrays.stream(p.a()).map(i -> i / p.block()).distinct().count();
        assertEquals(p.capacity(), f.encodedBits());
        assertEquals(blocks + selected * p.block(), f.toHierarchical(p.block()).encodedBits());
        assertEquals(
                (long) p.a().length * NodeList.indexBits(p.capacity()),
                f.toNodeList().encodedBits());
    }
}
