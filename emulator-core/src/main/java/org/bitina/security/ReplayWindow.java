package org.bitina.security;

/**
 * An anti-replay window over one sender's sequence numbers (DESIGN S3), as IPsec ESP keeps
 * one (RFC 4303 section 3.4.3): the highest number seen and a bitmap of the {@link #SIZE}
 * numbers below it. A number above the highest moves the window; one inside it is accepted
 * once; one below it, or seen before, is a replay, whatever its age (the tombstones that
 * catch duplicates expire, this does not). Sequence numbers here are chunk numbers, which a
 * worker sends in increasing order, a window of them at a time: reordering on the links
 * within {@link #SIZE} is accepted.
 */
public final class ReplayWindow {
    /** Numbers below the highest that are still accepted once (a multiple of 64). */
    public static final int SIZE = 4096;

    private final long[] seen = new long[SIZE / 64];
    private long highest = -1;

    /** Whether {@code seq} is new (and now seen); false for a replay. */
    public boolean accept(long seq) {
        if (seq < 0) {
            return false;
        }
        if (seq > highest) {
            long shift = highest < 0 ? SIZE : seq - highest;
            slide(shift);
            highest = seq;
            mark(0);
            return true;
        }
        long back = highest - seq;
        if (back >= SIZE) {
            return false;
        }
        if (isMarked((int) back)) {
            return false;
        }
        mark((int) back);
        return true;
    }

    /** Bit i of the window is "highest - i". Sliding by {@code n} moves every mark n places back, a word at a time. */
    private void slide(long n) {
        if (n >= SIZE) {
            java.util.Arrays.fill(seen, 0);
            return;
        }
        int words = (int) (n >>> 6);
        int bits = (int) (n & 63);
        for (int i = seen.length - 1; i >= 0; i--) {
            int from = i - words;
            long w = from >= 0 ? seen[from] << bits : 0;
            if (bits != 0 && from - 1 >= 0) {
                w |= seen[from - 1] >>> (64 - bits);
            }
            seen[i] = w;
        }
    }

    private boolean isMarked(int i) {
        return (seen[i >>> 6] & (1L << (i & 63))) != 0;
    }

    private void mark(int i) {
        seen[i >>> 6] |= 1L << (i & 63);
    }
}
