package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

/**
 * A quantity over modelled time, bounded: the least and the most value recorded in each interval of
 * {@link #bucketNanos()} ns, at most {@value #BUCKETS} intervals (T3's "queue depth over modelled time
 * for the busiest ports"; a DCQCN sender's rate, an INA worker's window). The interval starts at 1,024
 * ns and doubles, merging neighbours, when a phase runs past the last one, so a long phase costs no
 * more memory than a short one and the curve's extremes are always the quantity's extremes.
 */
public final class TimeCurve {
    static final int BUCKETS = 256;
    private static final int FIRST_SHIFT = 10;

    /** The most value seen in each interval; -1: nothing was recorded in it (values are never negative). */
    private final long[] most = new long[BUCKETS];

    private final long[] least = new long[BUCKETS];

    private int shift = FIRST_SHIFT;

    public TimeCurve() {
        Arrays.fill(most, -1);
        Arrays.fill(least, Long.MAX_VALUE);
    }

    /** The quantity was {@code value} (never negative) at modelled time {@code vt} (ns, from the phase's start). */
    public void record(long vt, long value) {
        long t = Math.max(0, vt);
        while ((t >> shift) >= BUCKETS) {
            coarsen();
        }
        int i = (int) (t >> shift);
        if (value > most[i]) {
            most[i] = value;
        }
        if (value < least[i]) {
            least[i] = value;
        }
    }

    /** Every interval twice as long: interval i holds what 2i and 2i + 1 held. */
    private void coarsen() {
        for (int i = 0; i < BUCKETS / 2; i++) {
            most[i] = Math.max(most[2 * i], most[2 * i + 1]);
            least[i] = Math.min(least[2 * i], least[2 * i + 1]);
        }
        Arrays.fill(most, BUCKETS / 2, BUCKETS, -1);
        Arrays.fill(least, BUCKETS / 2, BUCKETS, Long.MAX_VALUE);
        shift++;
    }

    public long bucketNanos() {
        return 1L << shift;
    }

    /** The intervals in which something was recorded: {start ns, most}, in time order. */
    public List<long[]> points() {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < BUCKETS; i++) {
            if (most[i] >= 0) {
                out.add(new long[] {(long) i << shift, most[i]});
            }
        }
        return out;
    }

    /** The curve as a value: per interval in which something was recorded {start ns, least, most}. */
    public Range range() {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < BUCKETS; i++) {
            if (most[i] >= 0) {
                out.add(new long[] {(long) i << shift, least[i], most[i]});
            }
        }
        return new Range(bucketNanos(), out);
    }

    public void clear() {
        Arrays.fill(most, -1);
        Arrays.fill(least, Long.MAX_VALUE);
        shift = FIRST_SHIFT;
    }

    /**
     * A curve as a report carries it.
     *
     * @param bucketNanos the length of each interval
     * @param points      per interval in which something was recorded {start ns, least, most}, in time order
     */
    public record Range(long bucketNanos, List<long[]> points) {
        public Range {
            points = List.copyOf(points);
        }

        /**
         * The curves of several endpoints as one: on the coarsest of their intervals (every interval is
         * 1,024 ns doubled, so each finer one lies inside one coarser one), the least and the most of
         * all of them; null when there is none.
         */
        public static Range merge(Collection<Range> curves) {
            long width = 0;
            for (Range r : curves) {
                width = Math.max(width, r.bucketNanos());
            }
            if (width == 0) {
                return null;
            }
            TreeMap<Long, long[]> at = new TreeMap<>();
            for (Range r : curves) {
                for (long[] p : r.points()) {
                    long start = p[0] / width * width;
                    long[] m = at.computeIfAbsent(start, s -> new long[] {s, Long.MAX_VALUE, -1});
                    m[1] = Math.min(m[1], p[1]);
                    m[2] = Math.max(m[2], p[2]);
                }
            }
            return new Range(width, new ArrayList<>(at.values()));
        }
    }
}
