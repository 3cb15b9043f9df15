package org.bitina.protocol;

/**
 * A job's share of one switch's pool of aggregation entries (T2, S5; seed 000 section 8 "per-job
 * quotas on aggregation buffers and soft-state entries with admission control at job setup"):
 * the switch's {@code state-entries} are one pool over the jobs installed on it, and admission
 * control granted this job part of it ({@link JobTables#stateEntries()}).
 *
 * <p>A strict job opens no more entries than its grant. A best-effort job (ATP's aggregator
 * sharing) opens past its grant while the pool has entries nobody was granted and nobody holds;
 * a chunk that finds none is passed on unaggregated toward the root. At the job's root
 * ({@code foldsAtRoot}) nothing is passed on: a chunk that finds no free entry is folded there
 * outside the pool, the way ATP's parameter server takes what no switch aggregated.
 *
 * @param capacity    the switch's pool, in entries (at least 1)
 * @param bestEffort  whether the job may use free entries past its grant and pass chunks on
 * @param foldsAtRoot whether this switch is the job's root, where a best-effort chunk is folded outside the pool
 */
public record PoolShare(int capacity, boolean bestEffort, boolean foldsAtRoot) {
    public PoolShare {
        if (capacity < 1) {
            throw new IllegalArgumentException("a pool holds at least one entry, not " + capacity);
        }
    }

    /** A job's share at a switch that is its root or not: only a best-effort job folds there outside the pool. */
    public static PoolShare of(int capacity, boolean bestEffort, boolean root) {
        return new PoolShare(capacity, bestEffort, bestEffort && root);
    }

    /** The same share at a switch a repair made the job's root, or no longer its root. */
    public PoolShare atRoot(boolean root) {
        return of(capacity, bestEffort, root);
    }
}
