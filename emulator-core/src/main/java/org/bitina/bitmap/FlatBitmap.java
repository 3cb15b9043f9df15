package org.bitina.bitmap;

import java.util.Arrays;

/**
 * The flat bitmap of BIER and of seed 000 sections 2-5: one bit per endpoint, fixed
 * length. Stored in 64-bit words, index i at bit (i mod 64) of word i/64; bits at and
 * beyond {@link #capacity()} are always zero.
 */
public final class FlatBitmap implements EndpointSet {
    private final int capacity;
    private final long[] words;
    private final int cardinality;
    /** The set's hash, computed the first time it is asked for (a set is often a map key many times over). */
    private int hash;

    private boolean hashed;

    private FlatBitmap(int capacity, long[] words) {
        this.capacity = capacity;
        this.words = words;
        int c = 0;
        for (long w : words) {
            c += Long.bitCount(w);
        }
        this.cardinality = c;
    }

    static int wordCount(int capacity) {
        return (capacity + 63) >>> 6;
    }

    public static FlatBitmap of(int capacity, int... indices) {
        EndpointSets.checkCapacity(capacity);
        long[] words = new long[wordCount(capacity)];
        for (int i : indices) {
            if (i < 0 || i >= capacity) {
                throw new IllegalArgumentException("index " + i + " outside bit space of " + capacity);
            }
            words[i >>> 6] |= 1L << (i & 63);
        }
        return new FlatBitmap(capacity, words);
    }

    /** Wraps {@code words} (taken, not copied); rejects bits beyond the capacity. */
    public static FlatBitmap ofWords(int capacity, long[] words) {
        EndpointSets.checkCapacity(capacity);
        if (words.length != wordCount(capacity)) {
            throw new IllegalArgumentException(
                    "expected " + wordCount(capacity) + " words for " + capacity + " bits, got " + words.length);
        }
        int tail = capacity & 63;
        if (tail != 0 && (words[words.length - 1] >>> tail) != 0) {
            throw new IllegalArgumentException("bits set beyond the bit space of " + capacity);
        }
        return new FlatBitmap(capacity, words);
    }

    /** Every index of the bit space. */
    public static FlatBitmap full(int capacity) {
        EndpointSets.checkCapacity(capacity);
        long[] words = new long[wordCount(capacity)];
        Arrays.fill(words, -1L);
        int tail = capacity & 63;
        if (tail != 0) {
            words[words.length - 1] = (1L << tail) - 1;
        }
        return new FlatBitmap(capacity, words);
    }

    /** Word {@code i} (indices 64i..64i+63, index 64i at bit 0), without copying the rest. */
    public long word(int i) {
        return words[i];
    }

    /** A copy of the words, for codecs. */
    public long[] words() {
        return words.clone();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public Encoding encoding() {
        return Encoding.FLAT;
    }

    @Override
    public boolean contains(int index) {
        return index >= 0 && index < capacity && (words[index >>> 6] & (1L << (index & 63))) != 0;
    }

    @Override
    public int cardinality() {
        return cardinality;
    }

    @Override
    public int nextSetBit(int from) {
        if (from < 0) {
            from = 0;
        }
        if (from >= capacity) {
            return -1;
        }
        int w = from >>> 6;
        long word = words[w] & (-1L << (from & 63));
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == words.length) {
                return -1;
            }
            word = words[w];
        }
    }

    @Override
    public FlatBitmap and(EndpointSet other) {
        long[] o = wordsOf(other);
        long[] r = new long[words.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = words[i] & o[i];
        }
        return new FlatBitmap(capacity, r);
    }

    @Override
    public FlatBitmap or(EndpointSet other) {
        long[] o = wordsOf(other);
        long[] r = new long[words.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = words[i] | o[i];
        }
        return new FlatBitmap(capacity, r);
    }

    @Override
    public FlatBitmap andNot(EndpointSet other) {
        long[] o = wordsOf(other);
        long[] r = new long[words.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = words[i] & ~o[i];
        }
        return new FlatBitmap(capacity, r);
    }

    @Override
    public boolean intersects(EndpointSet other) {
        long[] o = wordsOf(other);
        for (int i = 0; i < words.length; i++) {
            if ((words[i] & o[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isSubsetOf(EndpointSet other) {
        if (other == this) {
            return true;
        }
        long[] o = wordsOf(other);
        for (int i = 0; i < words.length; i++) {
            if ((words[i] & ~o[i]) != 0) {
                return false;
            }
        }
        return true;
    }

    private long[] wordsOf(EndpointSet other) {
        EndpointSets.checkSameSpace(this, other);
        return other.toFlat().words;
    }

    @Override
    public long encodedBits() {
        return capacity;
    }

    @Override
    public FlatBitmap toFlat() {
        return this;
    }

    @Override
    public NodeList toNodeList() {
        return NodeList.ofSorted(capacity, indices());
    }

    @Override
    public HierarchicalBitmap toHierarchical(int blockSize) {
        return HierarchicalBitmap.fromFlat(this, blockSize);
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof FlatBitmap f) {
            return capacity == f.capacity && cardinality == f.cardinality && Arrays.equals(words, f.words);
        }
        return EndpointSets.equal(this, o);
    }

    @Override
    public int hashCode() {
        if (!hashed) {
            hash = EndpointSets.hash(this);
            hashed = true;
        }
        return hash;
    }

    @Override
    public String toString() {
        return EndpointSets.format(this);
    }
}
