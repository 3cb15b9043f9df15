package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Status;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Repair;

/**
 * The parameter-server baseline (A7) around a crashed switch: the server is a host and keeps
 * what it holds, the reroute keeps every worker that still has a path to it; a worker with no
 * path left is cut off, as an INA worker is from its VAT (VatRepair): it stops, is no longer
 * awaited, and the server's results leave partial at its timer, naming exactly the cut-off.
 * Pure: the planner uses the same rule to say what a scenario's crashes imply before the run.
 */
public final class PsRepair {
    private PsRepair() {}

    /**
     * What a PS phase expects: complete, unless silent workers or workers a planned switch crash
     * cuts off from the server take their share away (partial, missing at most them); failed when
     * a crash leaves no worker joined.
     */
    static Phase.Expected expected(Scenario s, String psHost, AllReducePlan plan) {
        Set<String> away = new LinkedHashSet<>(plan.silent());
        Set<String> cut = plannedCutOff(s, psHost, plan.members());
        away.addAll(cut);
        if (!cut.isEmpty() && away.containsAll(plan.members())) {
            return new Phase.Expected(Status.FAILED, away);
        }
        return Phase.Expected.unless(away, Status.PARTIAL);
    }

    /** The workers the scenario's switch crashes cut off from {@code psHost}: the fault plan replayed in time order. */
    static Set<String> plannedCutOff(Scenario s, String psHost, List<String> members) {
        Set<Link> downLinks = new HashSet<>();
        Set<String> downNodes = new HashSet<>();
        Set<String> cut = new LinkedHashSet<>();
        List<FaultSpec> faults = new ArrayList<>(s.faults());
        faults.sort(Comparator.comparing(FaultSpec::at));
        for (FaultSpec f : faults) {
            switch (f.kind()) {
                case LINK_DOWN -> downLinks.add(f.link());
                case LINK_UP -> downLinks.remove(f.link());
                // a worker cut off stays away: the baseline does not take it back (no rejoin)
                case SWITCH_RECOVER -> downNodes.remove(f.node());
                case SWITCH_CRASH -> {
                    downNodes.add(f.node());
                    Routing r = Routing.compute(s.topology(), Set.copyOf(downLinks), Set.copyOf(downNodes));
                    cut.addAll(cutOff(r, psHost, members));
                }
                default -> {}
            }
        }
        return cut;
    }

    /**
     * After a switch crash and its reroute: the workers of PS phase {@code p} still awaited that
     * no longer reach the server hear that they are cut off (only their hosts get the message:
     * elsewhere the tables stay, and nothing in flight is taken for stale); null when the phase
     * is not a PS phase or nobody is newly cut off.
     */
    public static Repair retree(Phase p, Routing routing) {
        AllReducePlan plan = p.drivers().stream()
                .filter(d -> d instanceof AllReduceDriver a && a.role() == AllReduceDriver.Role.PARAMETER_SERVER)
                .map(d -> ((AllReduceDriver) d).plan())
                .findFirst()
                .orElse(null);
        if (plan == null) {
            return null;
        }
        List<String> still =
                plan.members().stream().filter(m -> p.awaited().contains(m)).toList();
        List<String> cut = cutOff(routing, plan.psHost(), still);
        if (cut.isEmpty()) {
            return null;
        }
        Map<String, JobTables> tables = new LinkedHashMap<>();
        cut.forEach(m -> tables.put(m, p.tables().get(m)));
        Map<String, String> uplinks = new LinkedHashMap<>();
        still.stream().filter(m -> !cut.contains(m)).forEach(m -> uplinks.put(m, plan.psHost()));
        return new Repair(plan.psHost(), tables, uplinks, cut, null, "parameter server " + plan.psHost() + " kept");
    }

    /** The members with no path to {@code psHost}, in member order. */
    private static List<String> cutOff(Routing routing, String psHost, List<String> members) {
        return members.stream()
                .filter(m -> !m.equals(psHost) && !routing.reachable(m, psHost))
                .toList();
    }
}
