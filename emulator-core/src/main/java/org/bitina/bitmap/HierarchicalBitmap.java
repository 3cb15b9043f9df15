package org.bitina.bitmap;

/**
 * The two-level hierarchical bitmap of seed 000 section 7: the bit space is cut into
 * blocks of {@code blockSize} endpoints that follow the physical hierarchy (a pod or a
 * rack); an upper-level bitmap selects the blocks holding members, and each selected
 * block carries a lower-level bitmap. The last block may be short. Worst-case size is
 * B + B*b bits instead of N; a set confined to a few blocks costs B + k*b.
 *
 * <p>Stored sparsely: {@code blocks[k] == null} exactly when block k is not selected, so
 * the upper-level bitmap is derived and can never disagree with the lower level.
 */
public final class HierarchicalBitmap implements EndpointSet {
    /** Largest block, so that the block size fits the wire's 16-bit parameter field. */
    public static final int MAX_BLOCK_SIZE = 0xFFFF;

    private final int capacity;
    private final int blockSize;
    private final long[][] blocks;
    private final int cardinality;

    private HierarchicalBitmap(int capacity, int blockSize, long[][] blocks) {
        this.capacity = capacity;
        this.blockSize = blockSize;
        this.blocks = blocks;
        int c = 0;
        for (long[] block : blocks) {
            if (block != null) {
                for (long w : block) {
                    c += Long.bitCount(w);
                }
            }
        }
        this.cardinality = c;
    }

    public static int blockCount(int capacity, int blockSize) {
        return (capacity + blockSize - 1) / blockSize;
    }

    static void checkBlockSize(int blockSize) {
        if (blockSize < 1 || blockSize > MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("block size must be 1.." + MAX_BLOCK_SIZE + ", got " + blockSize);
        }
    }

    static HierarchicalBitmap fromFlat(FlatBitmap flat, int blockSize) {
        checkBlockSize(blockSize);
        int capacity = flat.capacity();
        long[][] blocks = new long[blockCount(capacity, blockSize)][];
        for (int i = flat.nextSetBit(0); i >= 0; i = flat.nextSetBit(i + 1)) {
            int k = i / blockSize;
            int j = i - k * blockSize;
            if (blocks[k] == null) {
                blocks[k] = new long[FlatBitmap.wordCount(blockSize)];
            }
            blocks[k][j >>> 6] |= 1L << (j & 63);
        }
        return new HierarchicalBitmap(capacity, blockSize, blocks);
    }

    /**
     * Builds a set from its lower-level blocks ({@code null} = block not selected), for
     * codecs. Rejects a selected block with no member and bits beyond the bit space.
     */
    public static HierarchicalBitmap ofBlocks(int capacity, int blockSize, long[][] blocks) {
        EndpointSets.checkCapacity(capacity);
        checkBlockSize(blockSize);
        int count = blockCount(capacity, blockSize);
        if (blocks.length != count) {
            throw new IllegalArgumentException("expected " + count + " blocks, got " + blocks.length);
        }
        int words = FlatBitmap.wordCount(blockSize);
        long[][] copy = new long[count][];
        for (int k = 0; k < count; k++) {
            if (blocks[k] == null) {
                continue;
            }
            if (blocks[k].length != words) {
                throw new IllegalArgumentException("block " + k + " must have " + words + " words");
            }
            int valid = Math.min(blockSize, capacity - k * blockSize);
            boolean any = false;
            for (int w = 0; w < words; w++) {
                long word = blocks[k][w];
                int lo = w << 6;
                if (lo >= valid) {
                    if (word != 0) {
                        throw new IllegalArgumentException(
                                "block " + k + " has bits beyond the bit space of " + capacity);
                    }
                } else if (valid - lo < 64 && (word >>> (valid - lo)) != 0) {
                    throw new IllegalArgumentException("block " + k + " has bits beyond the bit space of " + capacity);
                }
                any |= word != 0;
            }
            if (!any) {
                throw new IllegalArgumentException("block " + k + " is selected but empty");
            }
            copy[k] = blocks[k].clone();
        }
        return new HierarchicalBitmap(capacity, blockSize, copy);
    }

    /** A copy of block k's lower-level words, or null when the block is not selected. */
    public long[] block(int k) {
        return blocks[k] == null ? null : blocks[k].clone();
    }

    public int blockSize() {
        return blockSize;
    }

    /** Number of blocks B (the upper-level bitmap's length). */
    public int blockCount() {
        return blocks.length;
    }

    /** Number of selected blocks k (set bits of the upper-level bitmap). */
    public int selectedBlocks() {
        int k = 0;
        for (long[] block : blocks) {
            if (block != null) {
                k++;
            }
        }
        return k;
    }

    public boolean blockSelected(int k) {
        return blocks[k] != null;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public Encoding encoding() {
        return Encoding.HIERARCHICAL;
    }

    @Override
    public boolean contains(int index) {
        if (index < 0 || index >= capacity) {
            return false;
        }
        long[] block = blocks[index / blockSize];
        int j = index % blockSize;
        return block != null && (block[j >>> 6] & (1L << (j & 63))) != 0;
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
        for (int k = from / blockSize; k < blocks.length; k++) {
            long[] block = blocks[k];
            if (block == null) {
                continue;
            }
            int base = k * blockSize;
            int j = Math.max(0, from - base);
            int w = j >>> 6;
            long word = block[w] & (-1L << (j & 63));
            while (true) {
                if (word != 0) {
                    return base + (w << 6) + Long.numberOfTrailingZeros(word);
                }
                if (++w == block.length) {
                    break;
                }
                word = block[w];
            }
        }
        return -1;
    }

    private interface WordOp {
        long apply(long a, long b);
    }

    private HierarchicalBitmap combine(EndpointSet other, WordOp op) {
        EndpointSets.checkSameSpace(this, other);
        long[][] ob;
        if (other instanceof HierarchicalBitmap h && h.blockSize == blockSize) {
            ob = h.blocks;
        } else if (other instanceof FlatBitmap f && blockSize % 64 == 0) {
            // word-aligned blocks are slices of the flat words: O(N/64) word copies, not a walk over every member
            // (a switch checking a packet against a job's 65,536-member set did that walk per packet)
            ob = slices(f);
        } else {
            ob = fromFlat(other.toFlat(), blockSize).blocks;
        }
        long[][] r = new long[blocks.length][];
        int words = FlatBitmap.wordCount(blockSize);
        for (int k = 0; k < blocks.length; k++) {
            long[] a = blocks[k];
            long[] b = ob[k];
            if (a == null && b == null) {
                continue;
            }
            long[] out = new long[words];
            boolean any = false;
            for (int w = 0; w < words; w++) {
                out[w] = op.apply(a == null ? 0 : a[w], b == null ? 0 : b[w]);
                any |= out[w] != 0;
            }
            r[k] = any ? out : null;
        }
        return new HierarchicalBitmap(capacity, blockSize, r);
    }

    /** A flat set's words cut into this one's blocks (block size a multiple of 64); null where a block holds nothing. */
    private long[][] slices(FlatBitmap f) {
        int per = blockSize >>> 6;
        long[][] out = new long[blocks.length][];
        for (int k = 0; k < blocks.length; k++) {
            int from = k * per;
            int to = Math.min(from + per, FlatBitmap.wordCount(capacity));
            long[] b = null;
            for (int w = from; w < to; w++) {
                long x = f.word(w);
                if (x != 0) {
                    if (b == null) {
                        b = new long[per];
                    }
                    b[w - from] = x;
                }
            }
            out[k] = b;
        }
        return out;
    }

    @Override
    public HierarchicalBitmap and(EndpointSet other) {
        return combine(other, (a, b) -> a & b);
    }

    @Override
    public HierarchicalBitmap or(EndpointSet other) {
        return combine(other, (a, b) -> a | b);
    }

    @Override
    public HierarchicalBitmap andNot(EndpointSet other) {
        return combine(other, (a, b) -> a & ~b);
    }

    @Override
    public long encodedBits() {
        return blocks.length + (long) selectedBlocks() * blockSize;
    }

    @Override
    public FlatBitmap toFlat() {
        return FlatBitmap.of(capacity, indices());
    }

    @Override
    public NodeList toNodeList() {
        return NodeList.ofSorted(capacity, indices());
    }

    @Override
    public HierarchicalBitmap toHierarchical(int newBlockSize) {
        return newBlockSize == blockSize ? this : fromFlat(toFlat(), newBlockSize);
    }

    @Override
    public boolean equals(Object o) {
        return EndpointSets.equal(this, o);
    }

    @Override
    public int hashCode() {
        return EndpointSets.hash(this);
    }

    @Override
    public String toString() {
        return EndpointSets.format(this);
    }
}
