package org.bitina.run;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.device.DeviceCommand;
import org.bitina.device.Recorder;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.SwitchTiming;
import org.bitina.scenario.Scenario;
import org.bitina.security.PacketMac;
import org.bitina.security.ValueKeys;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficPlan;

/**
 * Installs the validated model on the spawned devices, as an ns-3 helper installs devices
 * (docs/architecture.md "Layout"): wires each device to its neighbours with their links and the routing,
 * and installs each phase's control-plane state. The members spawn the devices placed on
 * them; nothing here reads HOCON.
 */
final class TopologyInstaller {
    private TopologyInstaller() {}

    /** Every device learns its neighbours, its links, the routing and the seed its link generators start from. */
    static void wire(
            Scenario scenario,
            Map<String, ActorRef<DeviceCommand>> devices,
            Map<String, Integer> where,
            Routing routing,
            Recorder trace) {
        long seed = scenario.repeat().linkSeed();
        int members = 1;
        for (int m : where.values()) {
            members = Math.max(members, m + 1);
        }
        for (Node n : scenario.topology().nodes()) {
            Map<String, ActorRef<DeviceCommand>> nbrs = new LinkedHashMap<>();
            Map<String, LinkSpec> specs = new LinkedHashMap<>();
            Map<String, Integer> nbrMembers = new LinkedHashMap<>();
            for (Link l : scenario.topology().linksOf(n.name())) {
                String o = l.other(n.name());
                nbrs.put(o, devices.get(o));
                specs.put(o, l.spec());
                nbrMembers.put(o, where.getOrDefault(o, 0));
            }
            devices.get(n.name())
                    .tell(new DeviceCommand.Wire(
                            nbrs, specs, routing, seed, trace, where.getOrDefault(n.name(), 0), members, nbrMembers));
            SwitchTiming.Spec speed = scenario.capacity().speedOf(n.name());
            if (n.isSwitch() && !speed.free()) {
                // only when set: a scenario without the realism sends what it always did
                devices.get(n.name()).tell(new DeviceCommand.SwitchSpeed(speed));
            }
        }
    }

    /** A run's secret, drawn once per run by its coordinator; each job's keys are derived from it (S2, S6). */
    static byte[] drawRunSecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    /**
     * A phase's tables on every node, after the links are zeroed; with {@code mac}, each with the
     * job's key for packet tags (S2); for a job with an S6 checksum, each with the checksum key
     * for the controller's audit tap at its ports. Both derived from the run's secret.
     */
    static void install(Phase p, Map<String, ActorRef<DeviceCommand>> devices, byte[] runSecret, boolean mac) {
        install(List.of(p), devices, runSecret, mac);
    }

    /** The tables of every job of a phase (T1: jobs sharing the fabric, each its own tenant and tables), links zeroed once. */
    static void install(
            List<Phase> phases, Map<String, ActorRef<DeviceCommand>> devices, byte[] runSecret, boolean mac) {
        devices.values().forEach(d -> d.tell(DeviceCommand.ResetLinks.INSTANCE));
        // every tree of the phase (H2: the partitions' beside the second stage): one node may hold several jobs' tables
        for (Phase p : phases) {
            installTables(p, devices, runSecret, mac);
        }
    }

    /**
     * One job's tables while its phase runs (T2: a job admitted at its start in modelled time): the
     * links keep their counters and queues, the other jobs' tables stay as they are.
     */
    static void installTables(Phase p, Map<String, ActorRef<DeviceCommand>> devices, byte[] runSecret, boolean mac) {
        p.trees()
                .forEach(tree -> tree.tables()
                        .forEach((node, t) ->
                                devices.get(node).tell(new DeviceCommand.InstallJob(keyed(p, t, runSecret, mac)))));
    }

    /**
     * Background traffic's tables on every node (T3), after the jobs' (the links are zeroed already);
     * with {@code mac}, each with its key for packet tags (S2), as a job's.
     */
    static void installTraffic(
            List<TrafficPlan> traffic, Map<String, ActorRef<DeviceCommand>> devices, byte[] runSecret, boolean mac) {
        for (TrafficPlan p : traffic) {
            p.tables()
                    .forEach((node, t) -> devices.get(node)
                            .tell(new DeviceCommand.InstallJob(
                                    mac ? t.withMacKey(PacketMac.jobKey(runSecret, t.tenant(), t.job())) : t)));
        }
    }

    /** A phase's tables as a device gets them: with the job's MAC key (S2) and audit key (S6) when those are on. */
    static JobTables keyed(Phase p, JobTables t, byte[] runSecret, boolean mac) {
        JobTables keyed = mac ? t.withMacKey(PacketMac.jobKey(runSecret, t.tenant(), t.job())) : t;
        if (p.job().valueChecksum()) {
            keyed = keyed.withAuditKey(ValueKeys.checksumKey(ValueKeys.endpointSecret(runSecret, t.tenant(), t.job())));
        }
        return keyed;
    }

    /** What the endpoints of a phase's job share for S6 (masks, checksum): hosts get it with their drivers, switches never. */
    static byte[] endpointSecret(byte[] runSecret, DriverSpec d) {
        return ValueKeys.endpointSecret(runSecret, d.tenant(), d.job());
    }
}
