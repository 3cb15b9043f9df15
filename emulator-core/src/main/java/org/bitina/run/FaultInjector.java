package org.bitina.run;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.cluster.MemberAgent;
import org.bitina.device.DeviceCommand;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.Tamper;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Bift;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Repair;
import org.bitina.usecases.UseCases;
import org.slf4j.Logger;

/**
 * Applies a scenario's network faults to the devices (E4) and heals them between phases:
 * link and switch failures reroute (F7: routing and BIFTs change, bitmaps do not), link
 * conditions go to both ends of a link, a member loss halts that member, a malicious switch
 * corrupts the sums it emits (S6). Straggler and
 * silent faults are the drivers' (planned into their phases), not this class's.
 */
final class FaultInjector {
    private final Scenario scenario;
    private final Map<String, ActorRef<DeviceCommand>> devices;
    private final List<MemberAgent.Handle> members;
    private final Logger log;
    private final Set<Link> downLinks = new HashSet<>();
    private final Set<String> downNodes = new HashSet<>();
    /** Switches a malicious-switch fault turned (S6), made honest again between phases. */
    private final Set<String> tampering = new HashSet<>();

    /** What the repaired tables are keyed with, as at install (S2, S6). */
    private final byte[] runSecret;

    FaultInjector(
            Scenario scenario,
            Map<String, ActorRef<DeviceCommand>> devices,
            List<MemberAgent.Handle> members,
            byte[] runSecret,
            Logger log) {
        this.scenario = scenario;
        this.runSecret = runSecret;
        this.devices = devices;
        this.members = members;
        this.log = log;
    }

    /**
     * Applies {@code f} at modelled time {@code vt} (the virtual clock: routing changes happen at
     * that time on every device) to the one fabric every phase of {@code phases} runs on (one under
     * sequential, every job of a shared world's mix). Returns the phases as they go on, in the same
     * order: repaired, where a crashed switch made a job's use case rebuild its tree.
     */
    List<Phase> apply(FaultSpec f, List<Phase> phases, long vt) {
        log.info("fault at {}: {}", f.at(), f.kind().configName());
        switch (f.kind()) {
            case LINK_DOWN, LINK_UP -> {
                boolean up = f.kind() == FaultSpec.Kind.LINK_UP;
                linkFault(f.link(), up, null, null, null, null, vt);
                if (up) {
                    downLinks.remove(f.link());
                } else {
                    downLinks.add(f.link());
                }
                reroute(phases, vt);
            }
            case SWITCH_CRASH -> {
                devices.get(f.node()).tell(DeviceCommand.Crash.INSTANCE);
                downNodes.add(f.node());
                Routing routing = reroute(phases, vt);
                return phases.stream()
                        .map(p -> retree(p, routing, f.node(), vt))
                        .toList();
            }
            case SWITCH_RECOVER -> {
                // it comes back empty; the reconfiguration gives it its tables over the routing that has it again
                devices.get(f.node()).tell(new DeviceCommand.Rejoin(vt));
                downNodes.remove(f.node());
                Routing routing = reroute(phases, vt);
                phases.forEach(p -> reinstall(p, routing, f.node()));
                return phases.stream()
                        .map(p -> rejoin(p, routing, f.node(), vt))
                        .toList();
            }
            case MALICIOUS_SWITCH -> {
                devices.get(f.node()).tell(new DeviceCommand.Tamper(new Tamper(Set.copyOf(f.chunks()))));
                tampering.add(f.node());
            }
            case LOSS -> forLinks(f.link(), null, f.rate(), null, null, null);
            case DUPLICATE -> forLinks(f.link(), null, null, f.rate(), null, null);
            case REORDER -> forLinks(f.link(), null, null, null, f.rate(), null);
            case DELAY -> forLinks(f.link(), null, null, null, null, f.delay().toNanos());
            case MEMBER_LOSS -> {
                if (f.member() <= 0 || f.member() >= members.size()) {
                    log.warn(
                            "member-loss of member {}: the run has members 1..{} to lose (0 runs the coordinator)",
                            f.member(),
                            members.size() - 1);
                } else {
                    // as kill -9: the member's JVM halts (or, in a test, its ActorSystem stops); the cluster finds out
                    members.get(f.member()).halt();
                }
            }
            default ->
                log.warn(
                        "fault kind {} is not applied by this version", f.kind().configName());
        }
        return phases;
    }

    /**
     * After a switch crash and its reroute: the phase's use case rebuilds its tree when it needs
     * to (issue 15); every live device gets its new tables (keyed as at install), the hosts'
     * drivers their new uplinks and who is cut off, all at the fault's modelled time.
     */
    private Phase retree(Phase p, Routing routing, String crashed, long vt) {
        return retreeWith(p, UseCases.retree(p, scenario, routing), crashed, "crashed", vt);
    }

    private Phase retreeWith(Phase p, Repair r, String node, String event, long vt) {
        if (r == null) {
            return p;
        }
        String what = r.describe(vt, node, event);
        log.info("job {} mode {}: {}", p.job().name(), p.mode(), what);
        Map<String, JobTables> tables = new LinkedHashMap<>(p.tables());
        r.tables().forEach((n, t) -> {
            tables.put(n, t);
            devices.get(n)
                    .tell(new DeviceCommand.Retree(
                            TopologyInstaller.keyed(
                                    p, t, runSecret, scenario.security().mac()),
                            r.uplinks(),
                            r.cutOff(),
                            vt));
        });
        return p.repaired(tables, Set.copyOf(r.cutOff()), r.root(), "; " + what);
    }

    /** The tables of every tree of the phase on a switch that came back empty, their BIFTs over {@code routing}. */
    private void reinstall(Phase p, Routing routing, String node) {
        for (Phase.Tree tree : p.trees()) {
            JobTables t = tree.tables().get(node);
            if (t != null) {
                JobTables now = t.bift() == null ? t : t.withBift(Bift.build(routing, node, tree.bitSpace()));
                devices.get(node)
                        .tell(new DeviceCommand.InstallJob(TopologyInstaller.keyed(
                                p, now, runSecret, scenario.security().mac())));
            }
        }
    }

    /**
     * After a switch came back and the reroute: the phase's use case rebuilds its tree with it
     * (AllReduce INA: the crash's own path, {@link UseCases#rejoin}); every live device gets its new
     * tables, the hosts' drivers their new uplinks, and workers cut off before join again.
     */
    private Phase rejoin(Phase p, Routing routing, String back, long vt) {
        return retreeWith(p, UseCases.rejoin(p, scenario, routing), back, "came back", vt);
    }

    private void forLinks(Link link, Boolean up, Double loss, Double dup, Double reorder, Long delay) {
        if (link != null) {
            linkFault(link, up, loss, dup, reorder, delay);
        } else {
            scenario.topology().links().forEach(l -> linkFault(l, up, loss, dup, reorder, delay));
        }
    }

    private void linkFault(Link l, Boolean up, Double loss, Double dup, Double reorder, Long delay) {
        linkFault(l, up, loss, dup, reorder, delay, 0);
    }

    private void linkFault(Link l, Boolean up, Double loss, Double dup, Double reorder, Long delay, long vt) {
        devices.get(l.a()).tell(new DeviceCommand.LinkFault(l.b(), up, loss, dup, reorder, delay, vt));
        devices.get(l.b()).tell(new DeviceCommand.LinkFault(l.a(), up, loss, dup, reorder, delay, vt));
    }

    /**
     * Recomputes routing and BIFTs around what is down (F7: no bitmap changes), and tells every
     * device once: the new routing with the BIFTs of every tree of every phase on it.
     */
    private Routing reroute(List<Phase> phases, long vt) {
        Routing routing = Routing.compute(scenario.topology(), Set.copyOf(downLinks), Set.copyOf(downNodes));
        Map<String, Map<JobKey, Bift>> bifts = new HashMap<>();
        scenario.topology().nodes().forEach(n -> bifts.put(n.name(), new HashMap<>()));
        for (Phase p : phases) {
            // every tree of the phase (over partitions, H2: each has its own bit space), built on all cores
            for (Phase.Tree tree : p.trees()) {
                Map<String, Bift> rebuilt = Bift.buildAll(
                        routing,
                        scenario.topology().nodes().stream()
                                .map(Node::name)
                                .filter(n -> tree.tables().get(n) != null
                                        && tree.tables().get(n).bift() != null)
                                .toList(),
                        tree.bitSpace());
                rebuilt.forEach((n, b) -> bifts.get(n).put(tree.tables().get(n).key(), b));
            }
        }
        for (Node n : scenario.topology().nodes()) {
            devices.get(n.name()).tell(new DeviceCommand.Reroute(routing, bifts.get(n.name()), vt));
        }
        return routing;
    }

    /** Between phases the network is restored, so every mode meets the same fault plan from a clean start. */
    void heal() {
        tampering.forEach(n -> devices.get(n).tell(new DeviceCommand.Tamper(null)));
        tampering.clear();
        for (Link l : scenario.topology().links()) {
            linkFault(l, Boolean.TRUE, l.spec().loss(), 0.0, 0.0, 0L);
        }
        if (!downLinks.isEmpty() || !downNodes.isEmpty()) {
            downNodes.forEach(n -> devices.get(n).tell(DeviceCommand.Recover.INSTANCE));
            downLinks.clear();
            downNodes.clear();
            Routing routing = Routing.compute(scenario.topology());
            for (Node n : scenario.topology().nodes()) {
                devices.get(n.name()).tell(DeviceCommand.Reroute.healed(routing));
            }
        }
    }
}
