package org.bitina.bitmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EndpointSetTest {

    @Test
    void printsAndParsesTheSeedsFormWithBitOneLeftmost() {
        FlatBitmap dbm = EndpointSets.parse("[01100110]");
        assertEquals(8, dbm.capacity());
        assertArrayEquals(new int[] {1, 2, 5, 6}, dbm.indices());
        assertEquals("[01100110]", dbm.toString());
        assertEquals("[01100110]", dbm.toNodeList().toString());
        assertEquals("[01100110]", dbm.toHierarchical(4).toString());
    }

    @Test
    void parseRejectsAnythingButZerosAndOnesInBrackets() {
        assertThrows(IllegalArgumentException.class, () -> EndpointSets.parse("01100110"));
        assertThrows(IllegalArgumentException.class, () -> EndpointSets.parse("[0120]"));
        assertThrows(IllegalArgumentException.class, () -> EndpointSets.parse("[]"));
    }

    @Test
    void fig1SiblingAbmsAreDisjointAndTheirUnionIsTheRootAbm() {
        FlatBitmap s1 = EndpointSets.parse("[11000000]");
        FlatBitmap s7 = EndpointSets.parse("[00110000]");
        FlatBitmap s6 = EndpointSets.parse("[11110000]");
        assertTrue(s7.and(s1).isEmpty(), "s7 forwards s1's result: AND is zero");
        assertEquals(s6, s1.or(s7));
        assertEquals(s7, s6.andNot(s1));
    }

    @Test
    void equalityIsSetEqualityAcrossEncodings() {
        FlatBitmap f = FlatBitmap.of(100, 3, 64, 99);
        EndpointSet l = f.toNodeList();
        EndpointSet h = f.toHierarchical(10);
        assertEquals(f, l);
        assertEquals(l, h);
        assertEquals(h, f);
        assertEquals(f.hashCode(), l.hashCode());
        assertEquals(f.hashCode(), h.hashCode());
        assertNotEquals(f, FlatBitmap.of(101, 3, 64, 99), "different bit spaces are different sets");
    }

    @Test
    void encodedSizesFollowSection7() {
        FlatBitmap f = FlatBitmap.of(1024, 5, 700);
        assertEquals(1024, f.encodedBits());
        // B = 1024/64 = 16 blocks, two selected: 16 + 2*64
        assertEquals(16 + 2 * 64, f.toHierarchical(64).encodedBits());
        // K * ceil(log2 1024) = 2 * 10
        assertEquals(20, f.toNodeList().encodedBits());
        assertEquals(1, NodeList.indexBits(2));
        assertEquals(1, NodeList.indexBits(1));
        assertEquals(3, NodeList.indexBits(5));
    }

    @Test
    void hierarchicalLastBlockMayBeShort() {
        HierarchicalBitmap h = FlatBitmap.of(10, 9).toHierarchical(4);
        assertEquals(3, h.blockCount());
        assertEquals(1, h.selectedBlocks());
        assertTrue(h.blockSelected(2));
        assertEquals(3 + 4, h.encodedBits());
        assertEquals(9, h.nextSetBit(0));
        assertEquals(-1, h.nextSetBit(10));
    }

    @Test
    void hierarchicalDropsBlocksThatBecomeEmpty() {
        HierarchicalBitmap a = FlatBitmap.of(16, 1, 9).toHierarchical(4);
        HierarchicalBitmap b = a.andNot(FlatBitmap.of(16, 9));
        assertEquals(1, b.selectedBlocks());
        assertEquals(4 + 4, b.encodedBits());
    }

    @Test
    void operationsRejectDifferentBitSpaces() {
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.of(8).or(FlatBitmap.of(9)));
        assertThrows(
                IllegalArgumentException.class,
                () -> FlatBitmap.of(8).toNodeList().and(FlatBitmap.of(9)));
        assertThrows(
                IllegalArgumentException.class,
                () -> FlatBitmap.of(8).toHierarchical(2).andNot(FlatBitmap.of(9)));
    }

    @Test
    void constructionRejectsOutOfRangeBits() {
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.of(8, 8));
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.of(8, -1));
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.ofWords(8, new long[] {1L << 8}));
        assertThrows(IllegalArgumentException.class, () -> NodeList.ofSorted(8, new int[] {3, 3}));
        assertThrows(IllegalArgumentException.class, () -> NodeList.ofSorted(8, new int[] {9}));
        assertThrows(
                IllegalArgumentException.class,
                () -> HierarchicalBitmap.ofBlocks(10, 4, new long[][] {null, null, {1L << 2}}));
        assertThrows(
                IllegalArgumentException.class,
                () -> HierarchicalBitmap.ofBlocks(10, 4, new long[][] {null, {0}, null}));
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.of(0));
        assertThrows(IllegalArgumentException.class, () -> FlatBitmap.of(EndpointSet.MAX_CAPACITY + 1));
    }

    @Test
    void fullAndEmptyBitmaps() {
        FlatBitmap full = FlatBitmap.full(70);
        assertEquals(70, full.cardinality());
        assertTrue(FlatBitmap.of(70).isEmpty());
        assertFalse(full.contains(70));
        assertTrue(full.contains(69));
        assertTrue(FlatBitmap.of(70, 3).isSubsetOf(full));
    }
}
