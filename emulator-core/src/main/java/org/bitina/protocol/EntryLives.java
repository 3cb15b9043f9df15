package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lives of a node's aggregation entries in modelled time, per job: +1 at an entry's first
 * contribution, -1 at its emission or clearing. Kept beside {@link AggregationTable} for the
 * report's soft-state-over-time series; never read on the data path.
 */
final class EntryLives {
    private final Map<JobKey, TreeMap<Long, Integer>> lives = new HashMap<>();

    /**
     * An entry of {@code job} lived from {@code from} to {@code at}, and for one nanosecond at least
     * (contributions that arrive together, as on a symmetric tree, open and complete an entry at
     * one instant: it was held all the same).
     */
    void ended(JobKey job, long from, long at) {
        TreeMap<Long, Integer> d = lives.computeIfAbsent(job, k -> new TreeMap<>());
        d.merge(from, 1, Integer::sum);
        d.merge(Math.max(from + 1, at), -1, Integer::sum);
    }

    /**
     * The jobs' live entries as steps: the time (ns) of each change and the count from then on, in
     * time order; {@code stillLive} holds the first-contribution times of entries not ended yet,
     * which count to the end.
     */
    List<long[]> steps(Collection<JobKey> jobs, Collection<Long> stillLive) {
        TreeMap<Long, Integer> d = new TreeMap<>();
        for (JobKey job : jobs) {
            TreeMap<Long, Integer> l = lives.get(job);
            if (l != null) {
                l.forEach((vt, n) -> d.merge(vt, n, Integer::sum));
            }
        }
        stillLive.forEach(vt -> d.merge(vt, 1, Integer::sum));
        List<long[]> steps = new ArrayList<>(d.size());
        long live = 0;
        for (Map.Entry<Long, Integer> x : d.entrySet()) {
            if (x.getValue() != 0) {
                live += x.getValue();
                steps.add(new long[] {x.getKey(), live});
            }
        }
        return steps;
    }
}
