package org.bitina.run;

import java.util.HashMap;
import java.util.Map;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecases.PhasePlanner;
import org.bitina.usecases.UseCases;
import org.slf4j.Logger;

/**
 * The shared scheduling of a phase's jobs (T1, T2): which begin when, admission at a job's start
 * against what is free then, grants given back when a job completes, and what a job refused in
 * its mix runs alone instead. The coordinator asks at each window's end.
 */
final class JobStarts {
    private final Scenario scenario;
    private final Routing routing;
    private final Fleet fleet;
    private final Logger log;
    /** Where a shared world's mix remembers the phase a job ran instead of its INA phase, for its alone run. */
    private final Map<String, Phase> ranInstead = new HashMap<>();

    JobStarts(Scenario scenario, Routing routing, Fleet fleet, Logger log) {
        this.scenario = scenario;
        this.routing = routing;
        this.fleet = fleet;
        this.log = log;
    }

    /** A phase to run, with a job its mix refused at its start running alone as it ran there: its fallback (T2). */
    PhaseRun phase(int index, PhaseGroup group) {
        PhaseRun run = new PhaseRun(index, group, scenario.capacity()::of);
        Phase instead = group.alone() && run.lead != null ? ranInstead.get(key(group, run.lead.name())) : null;
        if (instead != null) {
            run.lead.phase = instead;
        }
        run.bound = bound(run);
        return run;
    }

    private static String key(PhaseGroup g, String job) {
        return g.world().configName() + " " + job;
    }

    /**
     * The jobs due at modelled time {@code now} begin: those whose start has come, and those whose
     * {@code after} jobs have all completed. Returns whether any did.
     */
    boolean beginDue(PhaseRun run, long now) {
        boolean any = false;
        for (PhaseRun.JobRun j : run.jobs) {
            if (j.begunAt >= 0) {
                continue;
            }
            if (run.group.starts().startNanos(j.name()) <= now) {
                if (j.atStart != null) {
                    admitAtStart(run, j, now);
                }
                fleet.begin(j.phase, now);
                j.begunAt = now;
                run.group.starts().begun(j.name(), now);
                any = true;
            }
        }
        return any;
    }

    /**
     * T2, "admission happens at a job's start against what is free then": the job is admitted now,
     * at a window boundary on the coordinator, against the grants of the mix's jobs running now (a
     * completed job's went back at the end of its window); its tables, with its grants, and its
     * drivers go out before it begins. Refused (strict), its fallback baseline's go out instead.
     */
    private void admitAtStart(PhaseRun run, PhaseRun.JobRun j, long now) {
        j.phase = PhasePlanner.admitAtStart(scenario, routing, run.pool, j.atStart);
        if (!j.phase.mode().inNetwork()) {
            ranInstead.put(key(run.group, j.name()), j.phase);
            log.info(
                    "job {} refused at {} ns of modelled time: {}; it runs {} instead",
                    j.name(),
                    now,
                    j.phase.admission().reason(),
                    j.phase.mode());
        }
        fleet.installTables(j.phase);
        fleet.startDrivers(j.phase);
        run.bound = bound(run);
    }

    /**
     * T2: a job that completed in the window just over gives its grants of the switches' pools
     * back, at the window's end (when its last awaited endpoint had its result, at most one
     * lookahead before). Returns whether any did.
     */
    boolean releaseFinished(PhaseRun run) {
        if (!run.group.shared() || run.group.alone()) {
            // one job on the fabric: nobody else could use what it gives back
            return false;
        }
        boolean any = false;
        for (PhaseRun.JobRun j : run.jobs) {
            if (j.released || !j.finished()) {
                continue;
            }
            j.released = true;
            if (run.pool != null) {
                run.pool.release(j.name());
            }
            any |= fleet.releasePools(j.phase);
        }
        return any;
    }

    /**
     * The phase's packet bound: the sum of its jobs' estimates (a shared phase's jobs share its
     * devices and their frames), or none when a job's kind gives no estimate.
     */
    private PacketBound bound(PhaseRun run) {
        long packets = 0;
        for (PhaseRun.JobRun j : run.jobs) {
            PhaseEstimate e = UseCases.estimate(j.phase, scenario, routing);
            if (e == null) {
                return null;
            }
            packets += e.packets();
        }
        for (PhaseRun.TrafficRun t : run.traffic) {
            packets += t.plan.packets();
        }
        PhaseEstimate all = new PhaseEstimate(packets, 0, 0);
        return new PacketBound(packets, all.frameLimit(scenario.topology()));
    }
}
