package org.bitina.security;

import java.util.Arrays;

/**
 * An anti-replay window over one sender's sequence numbers (docs/requirements.md S3), as IPsec ESP keeps
 * one (RFC 4303 section 3.4.3): the highest number seen and which of the {@code size}
 * numbers up to it were seen. A number above the highest moves the window; one inside it is
 * accepted once; one below it, or seen before, is a replay, whatever its age (the tombstones
 * that catch duplicates expire, this does not). Here the numbers are a worker's chunk
 * numbers, each sent once (a retransmission says so and is not checked): with the window as
 * wide as the job has chunks, any order is accepted, a straggling chunk too.
 */
public final class ReplayWindow {
    private final int size;
    /** Bit {@code seq mod size}: seen; a ring, so moving the window clears only the positions it enters. */
    private final long[] seen;

    private long highest = -1;

    /** @param size numbers below the highest still accepted once (rounded up to a multiple of 64, at least 64) */
    public ReplayWindow(int size) {
        int words = Math.max(1, (size + 63) / 64);
        this.size = words * 64;
        this.seen = new long[words];
    }

    public int size() {
        return size;
    }

    /** Whether {@code seq} is new (and now seen); false for a replay. */
    public boolean accept(long seq) {
        if (seq < 0) {
            return false;
        }
        if (seq > highest) {
            if (highest < 0 || seq - highest >= size) {
                Arrays.fill(seen, 0);
            } else {
                for (long s = highest + 1; s <= seq; s++) {
                    clear(s);
                }
            }
            highest = seq;
            return mark(seq);
        }
        if (highest - seq >= size) {
            return false;
        }
        return mark(seq);
    }

    /** Marks {@code seq}; false when it was marked already. */
    private boolean mark(long seq) {
        int i = (int) (seq % size);
        long bit = 1L << (i & 63);
        if ((seen[i >>> 6] & bit) != 0) {
            return false;
        }
        seen[i >>> 6] |= bit;
        return true;
    }

    private void clear(long seq) {
        int i = (int) (seq % size);
        seen[i >>> 6] &= ~(1L << (i & 63));
    }
}
