package org.bitina.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.Schedule;
import org.bitina.scenario.StartRule;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficPlan;
import org.bitina.usecases.PhasePlanner;

/**
 * What the runner takes through one phase of the fabric: one job in one mode (sequential, as
 * always), or under {@code schedule = shared} every job of one world at once, each from its own
 * start (T1), or one job of a world alone (its slowdown's reference).
 *
 * @param jobs  the jobs, each with its start
 * @param world the world of a shared run, or null (sequential)
 * @param alone whether this is a shared run's job alone
 * @param starts when each job begins: the entries' own starts, or a workload's step scheduler
 * @param traffic the background traffic beside the jobs (T3): in a world's mix, or alone with no job
 */
record PhaseGroup(List<Entry> jobs, Schedule.World world, boolean alone, StartRule starts, List<TrafficPlan> traffic) {
    PhaseGroup {
        jobs = List.copyOf(jobs);
        traffic = List.copyOf(traffic);
        if (jobs.isEmpty() && traffic.isEmpty()) {
            throw new IllegalArgumentException("a phase runs a job or traffic");
        }
    }

    PhaseGroup(List<Entry> jobs, Schedule.World world, boolean alone, StartRule starts) {
        this(jobs, world, alone, starts, List.of());
    }

    /** A group whose jobs begin at their entries' starts. */
    PhaseGroup(List<Entry> jobs, Schedule.World world, boolean alone) {
        this(jobs, world, alone, new EntryStarts(jobs));
    }

    /** The background traffic alone on the fabric, no job beside it: the reference of its slowdown. */
    static PhaseGroup trafficAlone(Schedule.World world, List<TrafficPlan> traffic) {
        return new PhaseGroup(List.of(), world, true, new EntryStarts(List.of()), traffic);
    }

    /** What the log and the progress line call the phase: "job J mode M", or a shared world's mix or one of its jobs alone. */
    String label() {
        if (jobs.isEmpty()) {
            return "background traffic alone";
        }
        if (!shared()) {
            return "job " + lead().job().name() + " mode " + lead().mode();
        }
        if (alone) {
            return "job " + lead().job().name() + " mode " + lead().mode() + " alone (world " + world.configName()
                    + ")";
        }
        return "world " + world.configName() + ": jobs "
                + String.join(
                        ", ", jobs.stream().map(e -> e.phase().job().name()).toList()) + " shared"
                + (traffic.isEmpty() ? "" : " with background traffic");
    }

    /**
     * @param startNanos modelled start (0 when it waits for {@code after})
     * @param after      the names of the jobs that must complete first
     * @param atStart    a job of a mix admitted when it starts (T2), its {@code phase} until then as
     *                   admitted alone; null: admitted before the run, or no pool to admit it to
     */
    record Entry(Phase phase, long startNanos, List<String> after, PhasePlanner.AtStart atStart) {
        Entry(Phase phase, long startNanos, List<String> after) {
            this(phase, startNanos, after, null);
        }
    }

    /** Each entry at its own time, or when the jobs of its {@code after} have finished (at the latest of their ends). */
    private static final class EntryStarts implements StartRule {
        private final Map<String, Entry> entries = new HashMap<>();
        private final Map<String, Long> ended = new HashMap<>();

        EntryStarts(List<Entry> jobs) {
            jobs.forEach(e -> entries.put(e.phase().job().name(), e));
        }

        @Override
        public long startNanos(String job) {
            Entry e = entries.get(job);
            if (e.after().isEmpty()) {
                return e.startNanos();
            }
            long t = 0;
            for (String a : e.after()) {
                Long end = ended.get(a);
                if (end == null) {
                    return NOT_YET;
                }
                t = Math.max(t, end);
            }
            return t;
        }

        @Override
        public void begun(String job, long nanos) {}

        @Override
        public void finished(String job, long endNanos) {
            ended.put(job, endNanos);
        }
    }

    boolean shared() {
        return world != null;
    }

    /** The first job, or null for traffic alone. */
    Phase lead() {
        return jobs.isEmpty() ? null : jobs.get(0).phase();
    }

    /** Sequential: each phase alone, in the plan's order. */
    static List<PhaseGroup> sequential(List<Phase> phases) {
        return phases.stream()
                .map(p -> new PhaseGroup(List.of(new Entry(p, 0, List.of())), null, false))
                .toList();
    }

    /**
     * Shared: per world the mix, then (with {@code alone}) each job of that world alone from time 0.
     * The network faults are the mix's: a job alone runs on the healthy fabric, the reference its
     * slowdown in the faulty, shared one is taken against, and is planned expecting none of them.
     * With network faults, admission (T2) is decided before the run, in start order, for the mix
     * and alone alike (see below).
     */
    static List<PhaseGroup> shared(Scenario s, Routing routing) {
        Schedule schedule = s.schedule();
        List<TrafficPlan> traffic = TrafficPlan.of(s, routing);
        List<PhaseGroup> out = new ArrayList<>();
        Scenario healthy =
                s.withFaults(s.faults().stream().filter(f -> !f.inNetwork()).toList());
        boolean faulty = healthy.faults().size() != s.faults().size();
        for (Schedule.World w : schedule.worlds()) {
            // with network faults, admission is decided before the run, in start order: a fault's reroute and
            // repair reach every job's tables, which a job admitted at its start would install after them
            PhasePlanner.World world = faulty
                    ? new PhasePlanner.World(PhasePlanner.world(s, routing, w), Map.of())
                    : PhasePlanner.worldAtStart(s, routing, w);
            List<Phase> phases = world.phases();
            List<Entry> mix = new ArrayList<>();
            for (Phase p : phases) {
                Schedule.Start start = schedule.start(p.job().name());
                mix.add(new Entry(
                        p,
                        start.at().toNanos(),
                        start.after(),
                        world.atStart().get(p.job().name())));
            }
            StartRule rule = schedule.rule().isPresent() ? schedule.rule().get().forWorld(w) : new EntryStarts(mix);
            out.add(new PhaseGroup(mix, w, false, rule, traffic));
            if (schedule.alone()) {
                // with faults, each job alone as admitted in the mix (the same mode and grants), expecting no fault
                List<Phase> alone = faulty ? PhasePlanner.world(healthy, routing, w) : phases;
                alone.forEach(p -> out.add(new PhaseGroup(List.of(new Entry(p, 0, List.of())), w, true)));
            }
        }
        if (schedule.alone() && !traffic.isEmpty()) {
            // no job beside it, so no world to tell apart: the traffic runs alone once, for every world's slowdown
            out.add(trafficAlone(schedule.worlds().get(0), traffic));
        }
        return out;
    }
}
