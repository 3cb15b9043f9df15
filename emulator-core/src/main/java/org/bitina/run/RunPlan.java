package org.bitina.run;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.StartRule;
import org.bitina.time.WindowBarrier;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficPlan;
import org.bitina.usecases.PhasePlanner;

/**
 * What a run will do, worked out before its coordinator starts (docs/architecture.md "The run
 * plan"): the routes, every phase's plan, how the phases group on the fabric, the virtual clock's
 * lookahead, and what setting it up cost. A value: the coordinator only takes it through its states.
 *
 * @param groups            the phases as they run: sequential, each planned phase alone; shared, per
 *                          world the mix and each job alone
 * @param refused           why the run cannot go on past its set-up (the phases say so, not run), or null
 * @param skippedTraceNodes a Chakra workload's trace nodes that run nothing on the fabric, by kind
 */
record RunPlan(
        Routing routing,
        List<Phase> phases,
        List<PhaseGroup> groups,
        long lookahead,
        Report.Setup setup,
        Map<String, Integer> skippedTraceNodes,
        String refused) {

    RunPlan {
        phases = List.copyOf(phases);
        groups = List.copyOf(groups);
        skippedTraceNodes = Map.copyOf(skippedTraceNodes);
    }

    /**
     * The scenario's plan: the routing searched toward every host's switch on all cores and each
     * phase planned, both timed for the report's {@code setup} (with the heap in use after, no
     * collection forced).
     */
    static RunPlan of(Scenario s) {
        long t0 = System.nanoTime();
        Routing routing = Routing.compute(s.topology())
                .prepare(s.topology().hosts().stream().map(Node::name).toList());
        long t1 = System.nanoTime();
        List<Phase> phases = PhasePlanner.plan(s, routing);
        Report.Setup setup = new Report.Setup(
                (t1 - t0) / 1_000_000,
                (System.nanoTime() - t1) / 1_000_000,
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        long lookahead = WindowBarrier.lookahead(s.topology().links().stream()
                .mapToLong(l -> l.spec().latencyNanos())
                .min()
                .orElse(0));
        Map<String, Integer> skipped =
                s.schedule().rule().map(StartRule.Factory::skipped).orElse(Map.of());
        String refused = null;
        List<PhaseGroup> groups;
        if (!s.schedule().shared()) {
            groups = PhaseGroup.sequential(phases);
        } else if (s.clock() != Clock.VIRTUAL) {
            // --clock real over a shared file: the jobs' starts are modelled times, which only the virtual clock keeps
            refused = "schedule = shared needs the virtual clock";
            groups = PhaseGroup.sequential(phases);
        } else {
            try {
                groups = PhaseGroup.shared(s, routing);
            } catch (IllegalArgumentException e) {
                refused = e.getMessage();
                groups = PhaseGroup.sequential(phases);
            }
        }
        if (refused == null) {
            refused = clash(groups);
        }
        return new RunPlan(routing, phases, groups, lookahead, setup, skipped, refused);
    }

    /**
     * Two of what runs at once on the fabric under one (tenant, wire job) would share switch state:
     * the registry's blocks (job.WireJobs) and the loader's unique (tenant, id) keep it from
     * happening, and this says so if it ever did, before any packet. Null: none.
     */
    static String clash(List<PhaseGroup> groups) {
        for (PhaseGroup g : groups) {
            Map<Long, String> owner = new HashMap<>();
            List<Map.Entry<Long, String>> uses = new ArrayList<>();
            for (PhaseGroup.Entry e : g.jobs()) {
                int tenant = e.phase().job().common().tenant();
                String name = "job " + e.phase().job().name() + " (" + e.phase().mode() + ")";
                e.phase().wireJobs().forEach(w -> uses.add(Map.entry(key(tenant, w), name)));
            }
            for (TrafficPlan t : g.traffic()) {
                uses.add(Map.entry(key(t.tenant(), t.wireJob()), "traffic[" + t.index() + "]"));
            }
            for (Map.Entry<Long, String> u : uses) {
                String before = owner.putIfAbsent(u.getKey(), u.getValue());
                if (before != null && !before.equals(u.getValue())) {
                    return "wire job " + (int) (long) u.getKey() + " of tenant " + (u.getKey() >>> 32) + " is both "
                            + before + "'s and " + u.getValue() + "'s";
                }
            }
        }
        return null;
    }

    private static long key(int tenant, int wireJob) {
        return ((long) tenant << 32) | (wireJob & 0xFFFFFFFFL);
    }
}
