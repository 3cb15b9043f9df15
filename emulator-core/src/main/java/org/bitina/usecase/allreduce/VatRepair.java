package org.bitina.usecase.allreduce;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.topology.Vat;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Plans;
import org.bitina.usecase.Repair;
import org.bitina.usecase.reduction.AllReduceDriver;
import org.bitina.usecase.reduction.AllReducePlan;

/**
 * VAT repair after a switch crash (issue 15): the controller builds the VAT again with
 * {@link AutoVat} over the routing that avoids what is down, for the members that still reach
 * the root (a configured VAT is rebuilt the same way: automatically, on the remaining graph).
 * A crashed root gives way to the live switch that reaches the most members, then the one
 * nearest to them (least total hops), then the first by name. Members with no path left are
 * cut off: their bits stay in the root's A-BM only, so that the root, as with a silent
 * member, lets each result leave partial at its timer, naming exactly them. Pure: the planner
 * uses the same code to say what a scenario's crashes imply before the run.
 */
public final class VatRepair {
    private VatRepair() {}

    /** The repair of AllReduce INA phase {@code p} over {@code routing}, or null when its VAT needs none. */
    static Repair retree(Scenario s, Phase p, Routing routing, long jobTimeoutNanos) {
        return retree(s, p, routing, jobTimeoutNanos, false);
    }

    /**
     * As {@link #retree(Scenario, Phase, Routing, long)}; with {@code rejoin} (a crashed switch came
     * back, switch-recover) the VAT is built again whether or not the crash needed a repair: the
     * switch is in the routing again, and members cut off by its crash reach the root again.
     */
    static Repair retree(Scenario s, Phase p, Routing routing, long jobTimeoutNanos, boolean rejoin) {
        AllReducePlan plan = workerPlan(p);
        if (plan == null || !p.mode().inNetwork() || !p.more().isEmpty()) {
            // a phase over partitions (H2) is not repaired: the loader refuses a switch crash with one
            return null;
        }
        String root = null;
        for (Map.Entry<String, JobTables> e : p.tables().entrySet()) {
            if (e.getValue().root()) {
                root = e.getKey();
            }
        }
        if (root == null || (!rejoin && !needed(p.tables(), routing, root, plan.space(), plan.members()))) {
            return null;
        }
        root = rootAfter(s.topology(), routing, root, plan.members());
        List<String> cut = cutOff(routing, root, plan.members());
        List<String> reach = new ArrayList<>(plan.members());
        reach.removeAll(cut);
        Vat vat = null;
        if (!reach.isEmpty()) {
            vat = AutoVat.build(s.topology(), routing, plan.space(), reach, root)
                    .vat();
            if (vat == null) {
                return null;
            }
        }
        Map<String, Integer> height = new HashMap<>();
        if (vat != null) {
            Plans.heights(vat, root, height);
        }
        EndpointSet cutBits = plan.space().setOf(cut);
        Map<String, JobTables> tables = new LinkedHashMap<>();
        Map<String, String> aBms = new LinkedHashMap<>();
        Map<String, Bift> bifts = Bift.buildAll(
                routing,
                p.tables().entrySet().stream()
                        .filter(e -> !routing.downNodes().contains(e.getKey())
                                && e.getValue().bift() != null)
                        .map(Map.Entry::getKey)
                        .toList(),
                p.bitSpace());
        for (Map.Entry<String, JobTables> e : p.tables().entrySet()) {
            String n = e.getKey();
            if (routing.downNodes().contains(n)) {
                continue;
            }
            JobTables t = e.getValue();
            boolean isRoot = n.equals(root);
            EndpointSet aBm = vat == null ? (isRoot ? cutBits : null) : vat.aBm(n);
            if (isRoot && aBm != null) {
                aBm = aBm.or(cutBits);
            }
            if (aBm != null) {
                aBms.put(n, aBm.toString());
            }
            long timeout = aBm != null
                    ? AllReduceUseCase.vatNodeTimeout(jobTimeoutNanos, height.getOrDefault(n, 1))
                    : jobTimeoutNanos;
            // ingress policy, MAC key, reservation, audit key and encoding stay: only the tree changes, and with the
            // root where a best-effort job folds what found no entry of the pool (T2)
            tables.put(
                    n,
                    t.toBuilder()
                            .bift(t.bift() == null ? null : bifts.get(n))
                            .vatNode(aBm, aBm == null || vat == null ? null : vat.parent(n))
                            .root(isRoot)
                            .pool(t.pool() == null ? null : t.pool().atRoot(isRoot))
                            .timeoutNanos(timeout)
                            .build());
        }
        Map<String, String> uplinks = new LinkedHashMap<>();
        for (String m : reach) {
            uplinks.put(m, vat.parent(m));
        }
        return new Repair(root, tables, uplinks, cut, aBms.toString());
    }

    /** The workers' plan of an AllReduce phase, or null when it has none (not this kind's INA). */
    private static AllReducePlan workerPlan(Phase p) {
        return p.drivers().stream()
                .filter(d -> d instanceof AllReduceDriver a && a.role() == AllReduceDriver.Role.WORKER)
                .map(d -> ((AllReduceDriver) d).plan())
                .filter(pl -> pl.psHost() == null)
                .findFirst()
                .orElse(null);
    }

    /**
     * A repair is needed when a crashed switch held A-BMs (the root too), or when a member still
     * joined below the root (its bit in some other A-BM) lost its path to it. Otherwise the
     * reroute alone keeps the tree working (F7).
     */
    private static boolean needed(
            Map<String, JobTables> tables, Routing routing, String root, BitSpace space, List<String> members) {
        for (String d : routing.downNodes()) {
            JobTables t = tables.get(d);
            if (t != null && t.registered() != null) {
                return true;
            }
        }
        for (String m : cutOff(routing, root, members)) {
            int bit = space.index(m);
            for (Map.Entry<String, JobTables> e : tables.entrySet()) {
                EndpointSet a = e.getValue().registered();
                if (!e.getKey().equals(root) && a != null && a.contains(bit)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The root that survives, or its replacement: the most members reached, then the least hops to them, then the name. */
    static String rootAfter(Topology topology, Routing routing, String root, List<String> members) {
        if (!routing.downNodes().contains(root)) {
            return root;
        }
        String best = nearest(topology, routing, members, routing.downNodes());
        return best == null ? root : best;
    }

    /**
     * The switch, not one of {@code excluded}, that reaches the most of {@code members}, then the
     * one with the least hops to them, then the first by name; null when none is left. The rule
     * that picks a crashed root's successor, and a partition's root (H2).
     */
    static String nearest(Topology topology, Routing routing, List<String> members, Set<String> excluded) {
        Comparator<String> best = Comparator.<String>comparingLong(n ->
                        -members.stream().filter(m -> routing.reachable(m, n)).count())
                .thenComparingLong(n -> members.stream()
                        .filter(m -> routing.reachable(m, n))
                        .mapToLong(m -> routing.hops(m, n))
                        .sum())
                .thenComparing(Comparator.naturalOrder());
        return topology.switches().stream()
                .map(Node::name)
                .filter(n -> !excluded.contains(n))
                .min(best)
                .orElse(null);
    }

    /** The members with no path to {@code root}, in member order. */
    static List<String> cutOff(Routing routing, String root, List<String> members) {
        return members.stream()
                .filter(m -> routing.downNodes().contains(root) || !routing.reachable(m, root))
                .toList();
    }

    /**
     * The members a scenario's switch crashes will cut off during an INA phase over {@code vat}:
     * the fault plan replayed in time order with the repair's own rules (root kept or replaced,
     * reachability over the routing of that moment), so the expectation follows from the
     * topology and the plan, never from the run.
     */
    static Set<String> plannedCutOff(Scenario s, String root, List<String> members) {
        Set<Link> downLinks = new HashSet<>();
        Set<String> downNodes = new HashSet<>();
        Set<String> cut = new LinkedHashSet<>();
        List<FaultSpec> faults = new ArrayList<>(s.faults());
        faults.sort(Comparator.comparing(FaultSpec::at));
        for (FaultSpec f : faults) {
            switch (f.kind()) {
                case LINK_DOWN -> downLinks.add(f.link());
                case LINK_UP -> downLinks.remove(f.link());
                case SWITCH_RECOVER ->
                    downNodes.remove(f.node()); // a worker cut off meanwhile may miss what finished without it
                case SWITCH_CRASH -> {
                    downNodes.add(f.node());
                    Routing r = Routing.compute(s.topology(), Set.copyOf(downLinks), Set.copyOf(downNodes));
                    root = rootAfter(s.topology(), r, root, members);
                    cut.addAll(cutOff(r, root, members));
                }
                default -> {}
            }
        }
        return cut;
    }
}
