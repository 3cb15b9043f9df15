package org.bitina.usecases;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Expect;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.protocol.PoolShare;
import org.bitina.scenario.AdmissionMode;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.Schedule;
import org.bitina.security.Admission;
import org.bitina.security.AttackSpec;
import org.bitina.security.IngressPolicy;
import org.bitina.security.PoolLedger;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.attack.AttackDriverSpec;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;

/**
 * The phases of a run from its scenario and routing, pure: each job's phases by its use case, admission
 * control (S5, T2) before the run or at a job's start, the worlds of a shared run (T1), and what every
 * planned phase gets as it runs (expectations, attackers, ingress policies, encoding).
 */
public final class PhasePlanner {
    private PhasePlanner() {}

    /**
     * The phases of a run, job by job in the scenario's order (the installer of docs/architecture.md's
     * data flow). The job's endpoint-set encoding applies on every link, in every mode (H2, H3).
     */
    public static List<Phase> plan(Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        for (JobSpec job : s.jobs()) {
            for (Phase p : admitted(Bound.of(job), s, routing, null, Set.of())) {
                phases.add(finished(s, job, p));
            }
        }
        return phases;
    }

    /**
     * T1: each job's phase in one world of a shared run, in the scenario's order. In {@code ina}
     * the job's INA phase (or, refused by admission control, the baseline that runs instead); in
     * {@code baseline} its first listed baseline, or its kind's fallback when it lists none. A
     * job of several INA phases (an elastic job's iterations) cannot share one phase with others.
     * Admission here is decided before the run, from the schedule; {@link #worldAtStart} leaves it
     * to the runner, at each job's start.
     */
    public static List<Phase> world(Scenario s, Routing routing, Schedule.World world) {
        return world(s, routing, world, false).phases();
    }

    /**
     * The world's phases, and the jobs of the mix the runner admits at their start (T2: "admission
     * happens at a job's start against what is free then").
     *
     * @param phases  per job, in the scenario's order; a job admitted at its start has its phase as
     *                admitted alone on the fabric (its alone run's, and the mix's until it starts)
     * @param atStart by name, the jobs of the {@code ina} world whose INA phase holds state in a pool
     */
    public record World(List<Phase> phases, Map<String, AtStart> atStart) {
        public World {
            phases = List.copyOf(phases);
            atStart = Map.copyOf(atStart);
        }
    }

    /** {@link #world} with the mix's admissions left to the runner, each at its job's start. */
    public static World worldAtStart(Scenario s, Routing routing, Schedule.World world) {
        return world(s, routing, world, true);
    }

    private static World world(Scenario s, Routing routing, Schedule.World world, boolean atStart) {
        Map<String, Phase> byName = new HashMap<>();
        Map<String, AtStart> deferred = new HashMap<>();
        // T2: one pool per switch over the world's jobs, granted in the order they start
        PoolLedger ledger = new PoolLedger(s.capacity()::of);
        for (JobSpec job : inStartOrder(s)) {
            Bound<?> u = Bound.of(job);
            List<Phase> raw = u.plan(s, routing);
            Phase pooled = atStart && world == Schedule.World.INA ? pooledIna(raw, s, routing) : null;
            List<Phase> planned = pooled != null
                    ? admitted(u, s, routing, raw, null, Set.of())
                    : admitted(u, s, routing, raw, ledger, waitsFor(s.schedule(), job.name()));
            if (planned.stream().filter(p -> p.iteration() != null).count() > 1) {
                throw new IllegalArgumentException("job '" + job.name()
                        + "' runs several iterations (membership): schedule = shared runs one phase per job");
            }
            Phase p;
            if (world == Schedule.World.INA) {
                p = planned.get(0);
                if (pooled != null) {
                    deferred.put(job.name(), new AtStart(job, pooled));
                }
            } else {
                Mode mode = job.common().baselines().isEmpty()
                        ? u.fallback()
                        : job.common().baselines().get(0);
                // a listed baseline is planned already; the fallback of a job that lists none is planned here
                p = planned.stream()
                        .filter(x -> x.mode().equals(mode))
                        .findFirst()
                        .orElseGet(() -> u.baseline(mode, s, routing));
            }
            byName.put(job.name(), finished(s, job, p));
        }
        return new World(s.jobs().stream().map(j -> byName.get(j.name())).toList(), deferred);
    }

    /** The job's one INA phase when it may hold state on a switch with a pool (T2), else null. */
    private static Phase pooledIna(List<Phase> planned, Scenario s, Routing routing) {
        List<Phase> inas = planned.stream().filter(p -> p.mode().inNetwork()).toList();
        if (inas.size() != 1) {
            return null;
        }
        boolean pool = stateSwitches(inas.get(0), s, routing).stream()
                .anyMatch(n -> s.capacity().of(n) > 0);
        return pool ? inas.get(0) : null;
    }

    /**
     * The jobs in the order they start (T2's admissions happen in that order): by start time,
     * then file order; a job after others comes after them, at the latest of their starts.
     */
    static List<JobSpec> inStartOrder(Scenario s) {
        Schedule schedule = s.schedule();
        Map<String, Long> at = new HashMap<>();
        List<JobSpec> left = new ArrayList<>(s.jobs());
        List<JobSpec> out = new ArrayList<>();
        while (!left.isEmpty()) {
            JobSpec next = null;
            long nextAt = Long.MAX_VALUE;
            for (JobSpec j : left) {
                Schedule.Start start = schedule.start(j.name());
                if (!at.keySet().containsAll(start.after())) {
                    continue;
                }
                long t = start.after().isEmpty()
                        ? start.at().toNanos()
                        : start.after().stream().mapToLong(at::get).max().orElse(0);
                if (t < nextAt) {
                    next = j;
                    nextAt = t;
                }
            }
            if (next == null) {
                // the loader refuses circles in the after lists; should one get here, the rest go in file order
                out.addAll(left);
                break;
            }
            at.put(next.name(), nextAt);
            out.add(next);
            left.remove(next);
        }
        return out;
    }

    /** The jobs {@code name} starts after, directly or through others: they have completed when it starts. */
    static Set<String> waitsFor(Schedule schedule, String name) {
        Set<String> out = new HashSet<>();
        List<String> todo = new ArrayList<>(schedule.start(name).after());
        while (!todo.isEmpty()) {
            String a = todo.remove(todo.size() - 1);
            if (out.add(a)) {
                todo.addAll(schedule.start(a).after());
            }
        }
        return out;
    }

    /** A planned phase as it runs: what the scenario expects of it, its attackers, ingress policies and encoding. */
    private static Phase finished(Scenario s, JobSpec job, Phase p) {
        EncodingSpec encoding = job.common().encoding();
        Expect expect = job.common().expect();
        if (expect != null && expect.modes().containsKey(p.mode())) {
            // the scenario says how this mode ends: that, exactly, instead of what the fault plan implies
            Expect.Outcome o = expect.modes().get(p.mode());
            p = p.withExpected(Phase.Expected.exactly(o.status(), o.missing()));
        }
        p = withAttackers(s, job, p);
        // each tree of the phase its own ingress policy, over its own bit space (H2: a partition's)
        Map<Integer, IngressPolicy> ingress = new HashMap<>();
        Phase q = p;
        q.trees()
                .forEach(tree -> ingress.put(
                        tree.wireJob(),
                        ingress(q.job(), tree.bitSpace(), q, s.security().rate())));
        return p.mapTables(
                (n, t) -> t.withEncoding(encoding).withIngress(ingress.get(t.job())),
                "; endpoint sets " + encoding.describe());
    }

    /**
     * The job's phases after admission control (S5): an admitted INA phase reserves its
     * declared entries on every switch it installs tables on; a refused one does not run, and
     * the job's fallback baseline runs in its place (once, where the job lists it anyway),
     * carrying the decision to the report.
     */
    private static List<Phase> admitted(
            Bound<?> u, Scenario s, Routing routing, PoolLedger shared, Set<String> waitsFor) {
        return admitted(u, s, routing, u.plan(s, routing), shared, waitsFor);
    }

    private static List<Phase> admitted(
            Bound<?> u, Scenario s, Routing routing, List<Phase> planned, PoolLedger shared, Set<String> waitsFor) {
        List<Phase> inas = planned.stream().filter(p -> p.mode().inNetwork()).toList();
        // a job that runs INA once and lists its fallback anyway runs that baseline once, carrying the refusal
        Phase listed = inas.size() == 1
                ? planned.stream()
                        .filter(p -> p.mode().equals(u.fallback()))
                        .findFirst()
                        .orElse(null)
                : null;
        Admission listedRefusal = null;
        List<Phase> out = new ArrayList<>();
        for (Phase p : planned) {
            if (!p.mode().inNetwork()) {
                out.add(p);
                continue;
            }
            // sequential: each INA phase alone on the fabric, its own pool; shared: the world's one pool (T2)
            PoolLedger ledger = shared != null ? shared : new PoolLedger(s.capacity()::of);
            Decided d = decide(u, s, routing, p, ledger, waitsFor);
            if (d.admitted() != null) {
                out.add(d.admitted());
            } else if (listed != null) {
                listedRefusal = d.refusal();
            } else {
                out.add(refusedInto(u, s, routing, p, d.refusal()));
            }
        }
        if (listedRefusal != null) {
            out.set(out.indexOf(listed), listed.withAdmission(listedRefusal));
        }
        return out;
    }

    /** What admission control made of one INA phase: admitted, with its grants in its tables, or refused. */
    private record Decided(Phase admitted, Admission refusal) {}

    private static Decided decide(
            Bound<?> u, Scenario s, Routing routing, Phase p, PoolLedger ledger, Set<String> waitsFor) {
        String job = u.job().name();
        boolean bestEffort = s.schedule().admission(job) == AdmissionMode.BEST_EFFORT;
        int entries = u.stateEntries();
        List<String> switches = stateSwitches(p, s, routing);
        PoolLedger.Grant g = ledger.admit(job, waitsFor, entries, switches, bestEffort, u.fallback());
        Admission a = g.admission();
        if (!a.admitted()) {
            return new Decided(null, a);
        }
        // the grant is the job's share of a switch's pool where it has one; elsewhere the device's default quota
        Map<String, Integer> grants = g.grants();
        return new Decided(
                p.mapTables(
                                (n, t) -> grants.containsKey(n)
                                        ? t.withPool(
                                                grants.get(n),
                                                PoolShare.of(s.capacity().of(n), bestEffort, t.root()))
                                        : t,
                                grants.isEmpty() ? "" : granted(entries, grants, bestEffort))
                        .withAdmission(a),
                null);
    }

    /** The fallback baseline a refused INA phase's job runs in its place, carrying the decision. */
    private static Phase refusedInto(Bound<?> u, Scenario s, Routing routing, Phase p, Admission a) {
        return u.baseline(u.fallback(), s, routing).withAdmission(a).withIteration(p.iteration());
    }

    /**
     * T2 at run time: a job of a shared world's mix whose INA phase holds state in some switch's
     * pool. The runner admits it when it starts in modelled time ({@link #admitAtStart}), against
     * the grants of the jobs running then.
     *
     * @param job the job
     * @param ina its INA phase as planned, before admission control
     */
    public record AtStart(JobSpec job, Phase ina) {}

    /**
     * The job's phase as admission control at its start decides it, against {@code ledger} (the
     * grants of the jobs running then): its INA phase with its grants, or, refused, its fallback
     * baseline carrying the decision. The same rule as before a run ({@link #admitted}).
     */
    public static Phase admitAtStart(Scenario s, Routing routing, PoolLedger ledger, AtStart start) {
        Bound<?> u = Bound.of(start.job());
        Decided d = decide(u, s, routing, start.ina(), ledger, Set.of());
        Phase p = d.admitted() != null ? d.admitted() : refusedInto(u, s, routing, start.ina(), d.refusal());
        return finished(s, start.job(), p);
    }

    /** The plan's note of what the pool granted: as before for a strict job, each switch's share for a best-effort one. */
    private static String granted(int entries, Map<String, Integer> grants, boolean bestEffort) {
        if (!bestEffort) {
            return "; " + entries + " aggregation entries reserved on " + grants.size() + " switches";
        }
        return "; best-effort: of " + entries + " aggregation entries, granted " + new TreeMap<>(grants);
    }

    /**
     * The switches that may hold a phase's soft state (S5): the VAT's switches where the control
     * plane installed A-BMs; otherwise (data-driven trees: C-BMs, INC trees) every switch on a
     * route between the phase's roots and its endpoints. In topology order.
     */
    static List<String> stateSwitches(Phase p, Scenario s, Routing routing) {
        Set<String> on = new HashSet<>();
        p.trees()
                .forEach(tree -> tree.tables().forEach((n, t) -> {
                    if (t.registered() != null) {
                        on.add(n);
                    }
                }));
        if (on.isEmpty()) {
            List<String> from =
                    p.roots() == null || p.roots().isEmpty() ? p.job().common().members() : p.roots();
            for (String r : from) {
                for (String m : p.job().common().members()) {
                    if (s.topology().has(r) && s.topology().has(m)) {
                        on.addAll(routing.path(r, m));
                    }
                }
            }
        }
        return s.topology().switches().stream()
                .map(Node::name)
                .filter(on::contains)
                .toList();
    }

    /** The INA phase of an AllReduce or reliable multicast job gets the drivers of the attacks that target it. */
    private static Phase withAttackers(Scenario s, JobSpec job, Phase p) {
        if (!p.mode().inNetwork() || s.attacks() == null) {
            return p;
        }
        DataSpec data = job instanceof ArrayPhases.JobSpecWithData ar ? ar.data() : null;
        List<DriverSpec> attackers = new ArrayList<>();
        for (AttackSpec a : s.attacks()) {
            if (a.job().equals(job.name())) {
                // an AllReduce attacker addresses its root (the VAT root), a multicast one the source
                attackers.add(new AttackDriverSpec(
                        a,
                        a.node(),
                        job.common().tenant(),
                        p.wireJob(),
                        p.bitSpace(),
                        p.job().common().members(),
                        p.roots().get(0),
                        data));
            }
        }
        return attackers.isEmpty() ? p : p.withMoreDrivers(attackers);
    }

    /**
     * The phase's ingress policy (S1, S4): its members' bits (an endpoint that is a member, or
     * lives on a member host: MoE experts), and the hosts that send its results, dispatches or
     * data (the phase's roots). Null when the phase's BIFTs are over another space than the job's
     * (a BIER-INC job whose edge is the leaves).
     */
    static IngressPolicy ingress(JobSpec job, Phase p, IngressPolicy.RateLimit rate) {
        return ingress(job, p.bitSpace(), p, rate);
    }

    /**
     * The policy of one tree of the phase, over its bit space: the job's own, or one whose every
     * position is a member (H2: a partition's). Null for a space of other endpoints (a BIER-INC
     * job's leaves, a second stage's partition roots: their packets come from switches).
     */
    static IngressPolicy ingress(JobSpec job, BitSpace space, Phase p, IngressPolicy.RateLimit rate) {
        if (space == null) {
            return null;
        }
        List<Integer> bits = new ArrayList<>();
        Set<String> members = new HashSet<>(job.common().members()); // a list's contains was O(N) per bit
        for (int i = 0; i < space.capacity(); i++) {
            String e = space.endpoint(i);
            if (e != null && (members.contains(e) || members.contains(space.node(i)))) {
                bits.add(i);
            }
        }
        if (space != job.common().bitSpace() && bits.size() != space.capacity()) {
            return null;
        }
        return new IngressPolicy(
                FlatBitmap.of(
                        space.capacity(),
                        bits.stream().mapToInt(Integer::intValue).toArray()),
                p.roots() == null ? List.of() : p.roots(),
                p.units(),
                rate);
    }
}
