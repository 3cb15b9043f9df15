package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lives of a node's aggregation entries in modelled time, per job: +1 at an entry's first
 * contribution, -1 at its emission or clearing. Kept beside {@link AggregationTable} for the
 * report's soft-state-over-time series and read once a phase, so an entry's end only appends
 * two numbers (a sorted map per entry cost 3 % of a k=8 run's CPU); sorting waits for the read.
 */
final class EntryLives {
    /** Per job: times of changes, each packed with its sign in the low bit (0 for -1, 1 for +1). */
    private final Map<JobKey, long[]> changes = new HashMap<>();
    private final Map<JobKey, Integer> sizes = new HashMap<>();

    /**
     * An entry of {@code job} lived from {@code from} to {@code at}, and for one nanosecond at least
     * (contributions that arrive together, as on a symmetric tree, open and complete an entry at
     * one instant: it was held all the same).
     */
    void ended(JobKey job, long from, long at) {
        long[] a = changes.get(job);
        int n = sizes.getOrDefault(job, 0);
        if (a == null || n + 2 > a.length) {
            a = Arrays.copyOf(a == null ? new long[0] : a, Math.max(16, n * 2));
            changes.put(job, a);
        }
        a[n] = from << 1 | 1;
        a[n + 1] = Math.max(from + 1, at) << 1;
        sizes.put(job, n + 2);
    }

    /**
     * The jobs' live entries as steps: the time (ns) of each change and the count from then on, in
     * time order; {@code stillLive} holds the first-contribution times of entries not ended yet,
     * which count to the end.
     */
    List<long[]> steps(Collection<JobKey> jobs, Collection<Long> stillLive) {
        int total = stillLive.size();
        for (JobKey job : jobs) {
            total += sizes.getOrDefault(job, 0);
        }
        long[] all = new long[total];
        int n = 0;
        for (JobKey job : jobs) {
            int size = sizes.getOrDefault(job, 0);
            if (size > 0) {
                System.arraycopy(changes.get(job), 0, all, n, size);
                n += size;
            }
        }
        for (long vt : stillLive) {
            all[n++] = vt << 1 | 1;
        }
        Arrays.sort(all);
        List<long[]> steps = new ArrayList<>();
        long live = 0;
        for (int i = 0; i < all.length; ) {
            long vt = all[i] >> 1;
            long delta = 0;
            for (; i < all.length && all[i] >> 1 == vt; i++) {
                delta += (all[i] & 1) == 1 ? 1 : -1;
            }
            if (delta != 0) {
                live += delta;
                steps.add(new long[] {vt, live});
            }
        }
        return steps;
    }
}
