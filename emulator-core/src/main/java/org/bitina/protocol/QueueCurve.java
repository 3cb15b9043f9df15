package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An egress queue's depth over modelled time, bounded (T3: "queue depth over modelled time for the
 * busiest ports"): the most bytes waiting in each interval of {@link #bucketNanos()} ns, at most
 * {@value #BUCKETS} intervals. The interval starts at 1,024 ns and doubles, merging neighbours, when a
 * phase runs past the last one, so a long phase costs no more memory than a short one and the
 * curve's maximum is always the queue's maximum.
 */
public final class QueueCurve {
    static final int BUCKETS = 256;
    private static final int FIRST_SHIFT = 10;

    /** The most bytes seen in each interval; -1: nothing was sent in it. */
    private final long[] peaks = new long[BUCKETS];

    private int shift = FIRST_SHIFT;

    public QueueCurve() {
        Arrays.fill(peaks, -1);
    }

    /** {@code bytes} waited at modelled time {@code vt} (ns, from the phase's start). */
    public void record(long vt, long bytes) {
        long t = Math.max(0, vt);
        while ((t >> shift) >= BUCKETS) {
            coarsen();
        }
        int i = (int) (t >> shift);
        if (bytes > peaks[i]) {
            peaks[i] = bytes;
        }
    }

    /** Every interval twice as long: interval i holds what 2i and 2i + 1 held. */
    private void coarsen() {
        for (int i = 0; i < BUCKETS / 2; i++) {
            peaks[i] = Math.max(peaks[2 * i], peaks[2 * i + 1]);
        }
        Arrays.fill(peaks, BUCKETS / 2, BUCKETS, -1);
        shift++;
    }

    public long bucketNanos() {
        return 1L << shift;
    }

    /** The intervals in which something was sent: {start ns, most bytes waiting}, in time order. */
    public List<long[]> points() {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < BUCKETS; i++) {
            if (peaks[i] >= 0) {
                out.add(new long[] {(long) i << shift, peaks[i]});
            }
        }
        return out;
    }

    public void clear() {
        Arrays.fill(peaks, -1);
        shift = FIRST_SHIFT;
    }
}
