package org.bitina.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToIntFunction;
import org.bitina.device.DeviceCommand;
import org.bitina.scenario.FaultSpec;
import org.bitina.security.PoolLedger;
import org.bitina.time.WindowBarrier;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficDriverSpec;
import org.bitina.usecase.traffic.TrafficPlan;
import org.bitina.usecases.PhasePlanner;

/** What one phase has gathered while the {@link PhaseRunner} takes it through its states. */
final class PhaseRun {
    final int index;
    final PhaseGroup group;
    /** The phase's jobs: one, or under schedule = shared every job of the world. */
    final List<JobRun> jobs = new ArrayList<>();
    /** The first job: the one a sequential phase runs, whose plan faults rebuild; null for traffic alone. */
    final JobRun lead;

    /** The background traffic beside the jobs (T3), each entry with its hosts' completions. */
    final List<TrafficRun> traffic = new ArrayList<>();

    /** Network faults scheduled for this phase and not applied yet. */
    final List<FaultSpec> pendingFaults = new ArrayList<>();

    /** Network faults applied in this phase, in the order they were. */
    final List<FaultSpec> appliedFaults = new ArrayList<>();

    long start = System.nanoTime();
    long wall;
    long results;
    long lastResults = -1;
    long lastActivity;
    /** Why the phase ended before its endpoints did, or null. */
    Ending ended;
    /** Virtual clock: the phase's barrier, how long partial results may settle, what went wrong in its windows. */
    WindowBarrier barrier;

    long settleUntil = Long.MAX_VALUE;
    /** What the phase's plan sends when nothing is lost, and the frames past which it is a storm (null: no bound). */
    PacketBound bound;
    /** Virtual clock: the frames and timers its devices handled so far. */
    long frames;
    /**
     * Virtual clock: the coordinator told the devices something (a fault, a job's begin, a pool's
     * release) since the last window, so every member and device runs the next one.
     */
    boolean touched = true;

    final List<String> problems = new ArrayList<>();
    /** A shared world's mix: the grants of the switches' pools held by the jobs running now (T2), else null. */
    final PoolLedger pool;

    PhaseRun(int index, PhaseGroup group, ToIntFunction<String> capacity) {
        this.index = index;
        this.group = group;
        group.jobs().forEach(e -> jobs.add(new JobRun(e)));
        this.lead = jobs.isEmpty() ? null : jobs.get(0);
        this.pool = jobs.stream().anyMatch(j -> j.atStart != null) ? new PoolLedger(capacity) : null;
        group.traffic().forEach(t -> traffic.add(new TrafficRun(t)));
    }

    /**
     * The phase's modelled deadline: its job's; for jobs sharing the fabric, the latest start plus
     * every job's deadline (a generous bound: a job after others may wait for all of them).
     */
    long deadlineNanos() {
        // background traffic's hosts give up on what has not arrived at its give-up time: past it nothing waits
        long late = traffic.stream()
                .mapToLong(t -> t.plan.giveUpNanos() + TRAFFIC_GRACE_NANOS)
                .max()
                .orElse(0);
        if (jobs.size() == 1) {
            return Math.max(late, lead.phase.timing().deadline().toNanos());
        }
        long max = Phase.Timing.MAX_DEADLINE.toNanos();
        long sum = jobs.stream().mapToLong(j -> j.startNanos).max().orElse(0);
        for (JobRun j : jobs) {
            sum = Math.min(max, sum + j.phase.timing().deadline().toNanos());
        }
        return Math.max(late, sum);
    }

    /** How far past its give-up time background traffic's phase may run before it is called late: a window or so. */
    private static final long TRAFFIC_GRACE_NANOS = 1_000_000L;

    /** The awaited endpoints not done yet, in name order (each named with its job when jobs share the phase). */
    List<String> unfinished() {
        List<String> out = new ArrayList<>();
        for (JobRun j : jobs) {
            for (String e : new TreeSet<>(j.phase.awaited())) {
                if (!j.done.containsKey(e)) {
                    out.add(jobs.size() == 1 ? e : j.phase.job().name() + ":" + e);
                }
            }
        }
        for (TrafficRun t : traffic) {
            t.waiting().forEach(h -> out.add("traffic[" + t.plan.index() + "]:" + h));
        }
        return out;
    }

    /** The earliest start the phase's rule knows of a job not begun yet, or Long.MAX_VALUE. */
    long nextBeginNanos() {
        return jobs.stream()
                .filter(j -> j.begunAt < 0)
                .mapToLong(j -> group.starts().startNanos(j.name()))
                .min()
                .orElse(Long.MAX_VALUE);
    }

    /** The start rule hears of every job that finished in the window just ended, at its modelled end. */
    void tellFinished() {
        for (JobRun j : jobs) {
            if (!j.told && j.finished()) {
                j.told = true;
                group.starts().finished(j.name(), j.endNanos());
            }
        }
    }

    /** Which completions count: an awaited endpoint's, of this phase, in a role that ends it. */
    void completed(DeviceCommand.DriverDone d) {
        DriverReport r = d.report();
        if (r.role() == DriverReport.Role.TRAFFIC) {
            traffic.stream()
                    .filter(t -> t.plan.tenant() == d.tenant() && t.plan.wireJob() == d.job())
                    .forEach(t -> t.done.add(r.endpoint()));
            return;
        }
        for (JobRun j : jobs) {
            // jobs sharing the fabric may have the same wire job under other tenants (S1): the tenant tells them apart
            boolean ours = jobs.size() == 1 ? j.phase.wireJobs().contains(d.job()) : j.owns(d.tenant(), d.job());
            if (ours && j.phase.awaited().contains(r.endpoint()) && r.role().endsPhase()) {
                j.done.put(r.endpoint(), r);
            }
        }
    }

    /** Whether every job of the phase and its traffic finished. */
    boolean allFinished() {
        return jobs.stream().allMatch(JobRun::finished) && trafficDone();
    }

    /** Whether every traffic host of the phase is done: its flows sent, those to it finished or given up. */
    boolean trafficDone() {
        return traffic.stream().allMatch(TrafficRun::done);
    }

    /** One background-traffic entry of the phase. */
    static final class TrafficRun {
        final TrafficPlan plan;
        /** The hosts done, by name. */
        final Set<String> done = new HashSet<>();

        TrafficRun(TrafficPlan plan) {
            this.plan = plan;
        }

        boolean done() {
            return done.size() == plan.drivers().size();
        }

        /** The hosts not done yet, in the entry's host order. */
        List<String> waiting() {
            return plan.drivers().stream()
                    .map(TrafficDriverSpec::host)
                    .filter(h -> !done.contains(h))
                    .toList();
        }
    }

    /** One job of the phase. */
    static final class JobRun {
        /** The job as it runs: a crash that rebuilds its tree replaces it (new tables, fewer awaited, the note). */
        Phase phase;

        final Map<String, DriverReport> done = new HashMap<>();
        final long startNanos;
        final List<String> after;
        /** Modelled time its drivers began, or -1: not yet. */
        long begunAt = -1;
        /** Whether the phase's start rule has been told it finished. */
        boolean told;
        /** Whether its grants of the switches' pools went back (T2). */
        boolean released;
        /** Admitted when it starts (T2): its tables and drivers go out then; null: admitted before the run. */
        final PhasePlanner.AtStart atStart;

        JobRun(PhaseGroup.Entry e) {
            this.phase = e.phase();
            this.startNanos = e.startNanos();
            this.after = e.after();
            this.atStart = e.atStart();
        }

        boolean finished() {
            return begunAt >= 0 && done.keySet().containsAll(phase.awaited());
        }

        String name() {
            return phase.job().name();
        }

        /** Its latest awaited endpoint's completion, modelled nanoseconds (once finished). */
        long endNanos() {
            return done.values().stream().mapToLong(DriverReport::lastVt).max().orElse(begunAt);
        }

        /** Whether a completion of (tenant, wire job) is this job's. */
        boolean owns(int tenant, int wireJob) {
            return phase.job().common().tenant() == tenant && phase.wireJobs().contains(wireJob);
        }
    }
}
