package org.bitina.bitmap;

/** Factories, parsing and the printed form shared by every encoding. */
public final class EndpointSets {
    private EndpointSets() {}

    public static EndpointSet empty(Encoding encoding, int capacity, int blockSize) {
        return FlatBitmap.of(capacity).to(encoding, blockSize);
    }

    public static EndpointSet of(Encoding encoding, int capacity, int blockSize, int... indices) {
        return FlatBitmap.of(capacity, indices).to(encoding, blockSize);
    }

    /**
     * Parses the seeds' printed form, {@code [01100110]}: the first character is index 0.
     * Underscores and spaces are allowed as visual separators.
     */
    public static FlatBitmap parse(String text) {
        String s = text.strip();
        if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
            throw new IllegalArgumentException("bitmap must look like [0110...], got '" + text + "'");
        }
        String body = s.substring(1, s.length() - 1).replace("_", "").replace(" ", "");
        if (body.isEmpty() || body.length() > EndpointSet.MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "bitmap length must be 1.." + EndpointSet.MAX_CAPACITY + ": '" + text + "'");
        }
        long[] words = new long[FlatBitmap.wordCount(body.length())];
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '1') {
                words[i >>> 6] |= 1L << (i & 63);
            } else if (c != '0') {
                throw new IllegalArgumentException("bitmap may hold only 0 and 1, got '" + c + "' in '" + text + "'");
            }
        }
        return FlatBitmap.ofWords(body.length(), words);
    }

    /** The seeds' printed form, bit 1 (index 0) leftmost. */
    public static String format(EndpointSet set) {
        StringBuilder sb = new StringBuilder(set.capacity() + 2).append('[');
        int next = set.nextSetBit(0);
        for (int i = 0; i < set.capacity(); i++) {
            if (i == next) {
                sb.append('1');
                next = set.nextSetBit(i + 1);
            } else {
                sb.append('0');
            }
        }
        return sb.append(']').toString();
    }

    static void checkCapacity(int capacity) {
        if (capacity < 1 || capacity > EndpointSet.MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be 1.." + EndpointSet.MAX_CAPACITY + ", got " + capacity);
        }
    }

    static void checkSameSpace(EndpointSet a, EndpointSet b) {
        if (a.capacity() != b.capacity()) {
            throw new IllegalArgumentException(
                    "endpoint sets of different bit spaces: " + a.capacity() + " vs " + b.capacity() + " bits");
        }
    }

    static boolean equal(EndpointSet a, Object o) {
        if (a == o) {
            return true;
        }
        if (!(o instanceof EndpointSet b) || a.capacity() != b.capacity() || a.cardinality() != b.cardinality()) {
            return false;
        }
        int i = a.nextSetBit(0);
        int j = b.nextSetBit(0);
        while (i >= 0) {
            if (i != j) {
                return false;
            }
            i = a.nextSetBit(i + 1);
            j = b.nextSetBit(j + 1);
        }
        return j < 0;
    }

    static int hash(EndpointSet s) {
        int h = s.capacity();
        for (int i = s.nextSetBit(0); i >= 0; i = s.nextSetBit(i + 1)) {
            h = 31 * h + i;
        }
        return h;
    }
}
