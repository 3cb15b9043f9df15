package org.bitina.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.bitina.job.Mode;

/**
 * Admission control over one pool of aggregation entries per switch (T2, S5; seed 000 section 8
 * "per-job quotas ... with admission control at job setup"): the jobs of a shared run take
 * grants from the switches' {@code state-entries} in the order they start, each against what
 * the jobs running at its start hold.
 *
 * <p>The runner admits each job of a shared world's mix when it starts in modelled time, against
 * the grants of the jobs admitted before it that have not completed ({@link #release}): what is
 * free then. Before a run (no ends known), {@code waitsFor} names the jobs known to have completed
 * by a job's start (those it starts {@code after}); every other job granted before it counts as
 * running. A completed job's grants also go back to the switches at once (so best-effort jobs
 * use them); see docs/shared-fabric.md "Pool of switch memory".
 *
 * <ul>
 *   <li><b>strict</b>: admitted when its declaration fits what is free on every switch with a
 *       pool; granted its declaration there. Else refused, and nothing is granted.
 *   <li><b>best-effort</b> (ATP's aggregator sharing): always admitted; granted on each switch
 *       what is free there, up to its declaration (possibly nothing). Past its grant it uses free
 *       entries while there are any, and passes chunks on unaggregated when there are none.
 * </ul>
 */
public final class PoolLedger {
    /** One admitted job's grants, by switch. */
    private record Hold(String job, Map<String, Integer> grants) {}

    private final ToIntFunction<String> capacity;
    private final List<Hold> holds = new ArrayList<>();

    /** @param capacity a switch's pool in entries; 0 or less: no pool (unlimited) */
    public PoolLedger(ToIntFunction<String> capacity) {
        this.capacity = capacity;
    }

    /**
     * What admission control decided for a job and what it granted.
     *
     * @param admission the decision, as a sequential run's (S5)
     * @param grants    per switch with a pool, the entries granted (empty when refused)
     * @param free      per switch with a pool, the entries free at the job's start
     */
    public record Grant(Admission admission, Map<String, Integer> grants, Map<String, Integer> free) {
        public Grant {
            grants = Map.copyOf(grants);
            free = Map.copyOf(free);
        }
    }

    /**
     * Admits {@code job} at its start.
     *
     * @param waitsFor   the jobs it starts after, directly or not: completed, so their grants are back
     * @param entries    what it holds at once on a switch (its declaration, {@code UseCase.stateEntries})
     * @param switches   the switches that may hold its state, in a stable order
     * @param bestEffort best-effort (else strict)
     * @param fallback   the host baseline a refused strict job runs instead
     */
    public Grant admit(
            String job,
            Set<String> waitsFor,
            int entries,
            Collection<String> switches,
            boolean bestEffort,
            Mode fallback) {
        Map<String, Integer> free = new LinkedHashMap<>();
        for (String s : switches) {
            int c = capacity.applyAsInt(s);
            if (c <= 0) {
                continue;
            }
            int held = 0;
            for (Hold h : holds) {
                if (!waitsFor.contains(h.job())) {
                    held += h.grants().getOrDefault(s, 0);
                }
            }
            free.put(s, Math.max(0, c - held));
        }
        Map<String, Integer> grants = new LinkedHashMap<>();
        if (!bestEffort) {
            for (Map.Entry<String, Integer> f : free.entrySet()) {
                if (entries > f.getValue()) {
                    return new Grant(new Admission(false, entries, f.getKey(), f.getValue(), fallback), Map.of(), free);
                }
            }
            free.keySet().forEach(s -> grants.put(s, entries));
        } else {
            free.forEach((s, f) -> grants.put(s, Math.min(entries, f)));
        }
        holds.add(new Hold(job, grants));
        return new Grant(new Admission(true, entries, null, 0, null), grants, free);
    }

    /**
     * {@code job} has completed: its grants go back, and a job admitted from now on may have them
     * (admission at run time: the runner tells the ledger when a job of the mix completes).
     */
    public void release(String job) {
        holds.removeIf(h -> h.job().equals(job));
    }
}
