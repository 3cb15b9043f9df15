package org.bitina.run;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.bitina.device.DeviceCommand;
import org.bitina.protocol.Counter;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.PoolShare;
import org.bitina.scenario.AdmissionMode;
import org.bitina.usecase.Phase;

/**
 * A row's use of the switches' pools of aggregation entries (T2, S5), the row's {@code pool}: on
 * every switch with a pool where the job had tables, what admission control granted it, the most
 * entries it held at once, the contributions it passed on unaggregated for want of a free entry,
 * and the chunks its root folded outside the pool. Present under {@code schedule = shared} and for
 * a best-effort job; a strict job of a sequential file keeps its row as it was.
 *
 * @param admission   strict or best-effort
 * @param passThroughs every switch's pass-throughs, summed
 * @param rootFolds   chunks folded at the root outside the pool
 * @param switches    per switch, in topology order
 */
public record PoolReport(String admission, long passThroughs, long rootFolds, List<Switch> switches) {
    public PoolReport {
        switches = List.copyOf(switches);
    }

    /**
     * @param capacity     the switch's pool, in entries
     * @param granted      what admission control granted the job at its start
     * @param peak         the most entries of the job live here at once
     * @param passThroughs its contributions this switch passed on unaggregated (no free entry, or past a strict grant)
     * @param rootFolds    its chunks folded here, its root, outside the pool
     * @param entries      its live entries here over modelled time: steps {ns, entries}
     */
    public record Switch(
            String node, int capacity, int granted, int peak, long passThroughs, long rootFolds, List<long[]> entries) {
        public Switch {
            entries = List.copyOf(entries);
        }
    }

    /**
     * The row's pool, or null when no switch of its phase has a pool for it. A phase's pooled tables
     * are all strict or all best-effort: the job's one {@code admission}.
     *
     * @param stats the phase's devices' stats for this job, in topology order
     */
    static PoolReport of(Phase p, Collection<DeviceCommand.DeviceStats> stats) {
        boolean bestEffort = false;
        List<Switch> out = new ArrayList<>();
        long passed = 0;
        long folds = 0;
        for (DeviceCommand.DeviceStats s : stats) {
            JobTables t = pooled(p, s.node());
            if (t == null) {
                continue;
            }
            PoolShare share = t.pool();
            bestEffort |= share.bestEffort();
            long pt = s.counters().getOrDefault(Counter.REFUSED, 0L);
            long rf = s.counters().getOrDefault(Counter.ROOT_FOLDS, 0L);
            List<long[]> steps = s.entriesOverTime() == null ? List.of() : s.entriesOverTime();
            int peak = 0;
            for (long[] step : steps) {
                peak = (int) Math.max(peak, step[1]);
            }
            out.add(new Switch(s.node(), share.capacity(), t.stateEntries(), peak, pt, rf, steps));
            passed += pt;
            folds += rf;
        }
        return out.isEmpty()
                ? null
                : new PoolReport(
                        (bestEffort ? AdmissionMode.BEST_EFFORT : AdmissionMode.STRICT).configName(),
                        passed,
                        folds,
                        out);
    }

    /** The job's tables on {@code node} that share its pool, or null. */
    private static JobTables pooled(Phase p, String node) {
        for (Phase.Tree tree : p.trees()) {
            JobTables t = tree.tables().get(node);
            if (t != null && t.pool() != null) {
                return t;
            }
        }
        return null;
    }
}
