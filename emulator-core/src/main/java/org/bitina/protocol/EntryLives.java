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
    /** One job's changes: times, each packed with its sign in the low bit (0 for -1, 1 for +1). */
    private static final class Changes {
        long[] at = new long[16];
        int size;
    }

    private final Map<JobKey, Changes> changes = new HashMap<>();

    /**
     * An entry of {@code job} lived from {@code from} to {@code at}, and for one nanosecond at least
     * (contributions that arrive together, as on a symmetric tree, open and complete an entry at
     * one instant: it was held all the same).
     */
    void ended(JobKey job, long from, long at) {
        Changes c = changes.computeIfAbsent(job, k -> new Changes());
        if (c.size + 2 > c.at.length) {
            c.at = Arrays.copyOf(c.at, c.at.length * 2);
        }
        c.at[c.size++] = from << 1 | 1;
        c.at[c.size++] = Math.max(from + 1, at) << 1;
    }

    /**
     * The jobs' live entries as steps: the time (ns) of each change and the count from then on, in
     * time order; {@code stillLive} holds the first-contribution times of entries not ended yet,
     * which count to the end.
     */
    List<long[]> steps(Collection<JobKey> jobs, Collection<Long> stillLive) {
        int total = stillLive.size();
        for (JobKey job : jobs) {
            Changes c = changes.get(job);
            total += c == null ? 0 : c.size;
        }
        long[] all = new long[total];
        int n = 0;
        for (JobKey job : jobs) {
            Changes c = changes.get(job);
            if (c != null) {
                System.arraycopy(c.at, 0, all, n, c.size);
                n += c.size;
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
