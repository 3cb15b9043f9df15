package org.bitina.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.device.DeviceCommand;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Node;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;

/**
 * The coordinator's hands on a run's devices: what it tells them phase by phase (tables, drivers,
 * begins, grants back, counters asked for), in the topology's order, and which of them went with a
 * lost member (E4) and are no longer asked anything.
 */
final class Fleet {
    private final Map<String, ActorRef<DeviceCommand>> devices = new LinkedHashMap<>();
    private final Set<String> lost = new HashSet<>();
    private final byte[] runSecret = TopologyInstaller.drawRunSecret();
    private final boolean mac;
    private final ActorRef<DeviceCommand.HostEvent> hostEvents;

    /** @param spawned every device's actor, wherever the placement put it */
    Fleet(Scenario s, Map<String, ActorRef<DeviceCommand>> spawned, ActorRef<DeviceCommand.HostEvent> hostEvents) {
        for (Node n : s.topology().nodes()) {
            devices.put(n.name(), spawned.get(n.name()));
        }
        this.mac = s.security().mac();
        this.hostEvents = hostEvents;
    }

    /** Every device, in the topology's order. */
    Map<String, ActorRef<DeviceCommand>> devices() {
        return Collections.unmodifiableMap(devices);
    }

    byte[] runSecret() {
        return runSecret;
    }

    /** A phase's tables: its jobs admitted before the run (one admitted at its start gets its own then, T2), its traffic's. */
    void install(PhaseRun run) {
        TopologyInstaller.install(
                run.jobs.stream()
                        .filter(j -> j.atStart == null)
                        .map(j -> j.phase)
                        .toList(),
                devices,
                runSecret,
                mac);
        TopologyInstaller.installTraffic(run.group.traffic(), devices, runSecret, mac);
    }

    /** One job's tables while its phase runs (T2). */
    void installTables(Phase p) {
        TopologyInstaller.installTables(p, devices, runSecret, mac);
    }

    /** Asks every live device to answer once it has handled all that was sent to it before; returns who will. */
    Set<String> sync(ActorRef<String> replyTo) {
        Set<String> waiting = new HashSet<>(devices.keySet());
        waiting.removeAll(lost);
        waiting.forEach(d -> devices.get(d).tell(new DeviceCommand.Sync(replyTo)));
        return waiting;
    }

    /** Every host of a job sets up its drivers. */
    void startDrivers(Phase p) {
        for (DriverSpec d : p.drivers()) {
            devices.get(d.host())
                    .tell(new DeviceCommand.StartDriver(d, hostEvents, TopologyInstaller.endpointSecret(runSecret, d)));
        }
    }

    /** Every host of the phase's background traffic sets up its drivers. */
    void startTraffic(PhaseRun run) {
        for (PhaseRun.TrafficRun t : run.traffic) {
            for (DriverSpec d : t.plan.drivers()) {
                devices.get(d.host()).tell(new DeviceCommand.StartDriver(d, hostEvents, null));
            }
        }
    }

    /** Every host with a driver in the phase starts it, at modelled time {@code vt}. */
    void begin(Phase p, long vt) {
        // each host begins the wire jobs its drivers run (a phase over partitions has one per partition, H2)
        Set<Map.Entry<String, Integer>> begin = new LinkedHashSet<>();
        p.drivers().forEach(d -> begin.add(Map.entry(d.host(), d.job())));
        begin.stream()
                .filter(e -> p.wireJobs().contains(e.getValue()))
                .forEach(e -> devices.get(e.getKey())
                        .tell(new DeviceCommand.BeginJob(p.job().common().tenant(), e.getValue(), vt)));
    }

    /** Background traffic begins with the phase: its flows leave at their own start times (T3). */
    void beginTraffic(PhaseRun run) {
        for (PhaseRun.TrafficRun t : run.traffic) {
            t.plan.drivers()
                    .forEach(d -> devices.get(d.host())
                            .tell(new DeviceCommand.BeginJob(t.plan.tenant(), t.plan.wireJob(), 0)));
        }
    }

    /** A finished job's grants go back to every live switch that holds a pool for it (T2); returns whether any did. */
    boolean releasePools(Phase p) {
        boolean any = false;
        for (Phase.Tree tree : p.trees()) {
            for (Map.Entry<String, JobTables> t : tree.tables().entrySet()) {
                if (t.getValue().pool() != null && !lost.contains(t.getKey())) {
                    devices.get(t.getKey())
                            .tell(new DeviceCommand.ReleasePool(p.job().common().tenant(), List.of(tree.wireJob())));
                    any = true;
                }
            }
        }
        return any;
    }

    /** Every live device is asked for its counters: per job of the phase, then per traffic entry, in that order. */
    void collect(PhaseRun run, ActorRef<DeviceCommand.DeviceStats> replyTo) {
        devices.forEach((n, d) -> {
            if (!lost.contains(n)) {
                for (PhaseRun.JobRun j : run.jobs) {
                    d.tell(new DeviceCommand.CollectStats(
                            j.phase.job().common().tenant(),
                            j.phase.wireJob(),
                            j.phase.more().stream().map(Phase.Tree::wireJob).toList(),
                            replyTo));
                }
                // after the jobs': the answers of one device come in the order asked
                for (PhaseRun.TrafficRun t : run.traffic) {
                    d.tell(new DeviceCommand.CollectStats(t.plan.tenant(), t.plan.wireJob(), List.of(), replyTo));
                }
            }
        });
    }

    /** Whether every live device has given {@code each} answers. */
    boolean allIn(Map<String, List<DeviceCommand.DeviceStats>> stats, int each) {
        return devices.keySet().stream()
                .allMatch(n ->
                        lost.contains(n) || stats.getOrDefault(n, List.of()).size() >= each);
    }

    /** The {@code k}-th answer of every device that gave one, in the topology's order (not the order they came in). */
    List<DeviceCommand.DeviceStats> answers(Map<String, List<DeviceCommand.DeviceStats>> stats, int k) {
        return devices.keySet().stream()
                .map(stats::get)
                .filter(Objects::nonNull)
                .map(l -> l.get(k))
                .toList();
    }

    /**
     * E4: a member's devices are gone. Returns why the run cannot go on, or null when this loss is no
     * news (no device, or all of them known lost).
     */
    String lose(String member, Set<String> gone) {
        if (gone.isEmpty() || lost.containsAll(gone)) {
            return null;
        }
        lost.addAll(gone);
        List<String> names = new ArrayList<>(new TreeSet<>(gone));
        return member == null
                ? "device " + names.get(0) + " stopped"
                : "member " + member + " lost with " + names.size() + " devices "
                        + (names.size() > 12 ? names.subList(0, 12) + "..." : names);
    }
}
