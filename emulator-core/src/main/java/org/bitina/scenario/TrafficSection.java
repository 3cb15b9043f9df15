package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.protocol.TrafficFlows;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;

/**
 * Reads the top-level {@code traffic} list (T3) into {@link TrafficFlows.Spec}s: each entry's
 * pattern, hosts, load, flow size, start, stop and seed, every problem at its key. Background
 * traffic runs under {@code schedule = shared} only (its flows share the fabric with jobs that run
 * at the same time); its packets carry the tenant {@link TrafficFlows#TENANT}, which no job may use.
 */
final class TrafficSection {
    private TrafficSection() {}

    /**
     * How many flows one file may ask for: each is a flow record at every host and a packet train; a typo
     * in {@code stop} (500ms for 500us) should be an error, not a heap filled with flows.
     */
    static final long MAX_FLOWS = 200_000;

    static List<TrafficFlows.Spec> read(
            ConfigReader root,
            Topology topology,
            List<JobSpec> jobs,
            boolean shared,
            CongestionSection.Congestion congestion) {
        List<TrafficFlows.Spec> out = new ArrayList<>();
        ConfigList list = root.list("traffic");
        if (list == null) {
            return out;
        }
        if (!shared && !list.isEmpty()) {
            root.problem(
                    "traffic",
                    "traffic is for schedule = shared (its flows run beside jobs that share the fabric at once);"
                            + " this file runs its jobs one after the other");
        }
        for (JobSpec j : jobs) {
            if (!list.isEmpty() && j.common().tenant() == TrafficFlows.TENANT) {
                root.problem(
                        "traffic",
                        "job '" + j.name() + "' has tenant " + TrafficFlows.TENANT
                                + ", which background traffic's packets carry");
            }
        }
        List<String> kinds = Arrays.stream(TrafficFlows.Kind.values())
                .map(TrafficFlows.Kind::configName)
                .toList();
        for (int i = 0; i < list.size(); i++) {
            ConfigReader t = root.objectOf(
                    list.get(i),
                    root.label("traffic[" + i + "]"),
                    "{ kind = permutation, load = 30%, flow-size = 64KiB, stop = 500us }");
            if (t == null) {
                continue;
            }
            t.checkKeys(ScenarioKeys.TRAFFIC, "a traffic entry");
            int before = t.problems().count();
            String kindName = t.oneOf("kind", kinds, null);
            if (kindName == null && !t.has("kind")) {
                t.problem(t.origin(), "a traffic entry needs kind = " + String.join(" | ", kinds));
            }
            List<String> hosts = t.has("hosts")
                    ? HostLists.names(t, "hosts", topology, "a traffic host")
                    : topology == null
                            ? null
                            : topology.hosts().stream().map(Node::name).toList();
            String to = t.has("to") ? t.name("to", null) : null;
            if (!t.has("load")) {
                t.problem(t.origin(), "a traffic entry needs load (a fraction of each sender's link rate, e.g. 30%)");
            }
            double load = t.fraction("load", 0);
            if (t.has("load") && load <= 0) {
                t.problem("load", t.label("load") + " must be above 0");
            }
            long flowBytes = t.bytes("flow-size", 1, 1L << 30, "1 byte..1GiB", 64 * 1024);
            Duration start = t.nonNegativeDuration("start", Duration.ZERO);
            if (!t.has("stop")) {
                t.problem(t.origin(), "a traffic entry needs stop (no flow starts at or after it), e.g. stop = 500us");
            }
            Duration stop = t.positiveDuration("stop", Duration.ZERO);
            long seed = t.seed("seed", 1);
            boolean dcqcn = "dcqcn"
                    .equals(t.oneOf("congestion", CongestionSection.CONTROLS, congestion.dcqcn() ? "dcqcn" : "none"));
            if (t.problems().since(before) || topology == null || hosts == null || kindName == null) {
                continue;
            }
            TrafficFlows.Kind kind = TrafficFlows.Kind.fromConfig(kindName);
            if (!hostsOk(t, topology, hosts)) {
                continue;
            }
            if (kind == TrafficFlows.Kind.INCAST && to == null) {
                t.problem(t.origin(), "incast traffic needs to = HOST, one of its hosts");
                continue;
            }
            if (kind != TrafficFlows.Kind.INCAST && to != null) {
                t.problem("to", "only incast traffic has a destination 'to' (this entry is " + kindName + ")");
                continue;
            }
            if (to != null && !hosts.contains(to)) {
                t.problem("to", "incast's destination '" + to + "' is not one of the entry's hosts");
                continue;
            }
            if (stop.compareTo(start) <= 0) {
                t.problem("stop", "stop (" + stop + ") must come after start (" + start + ")");
                continue;
            }
            double flows = expectedFlows(topology, hosts, load, flowBytes, stop.minus(start));
            if (flows > MAX_FLOWS) {
                t.problem(
                        "stop",
                        String.format(
                                Locale.ROOT,
                                "this entry would start about %.0f flows, more than %d: a shorter stop, a lower load or"
                                        + " larger flows",
                                flows,
                                MAX_FLOWS));
                continue;
            }
            out.add(new TrafficFlows.Spec(
                    kind, hosts, to, load, flowBytes, start.toNanos(), stop.toNanos(), seed, congestion.of(dcqcn)));
        }
        return out;
    }

    /** Every name a host of the topology, named once, and at least two of them. */
    private static boolean hostsOk(ConfigReader t, Topology topology, List<String> hosts) {
        Set<String> seen = new LinkedHashSet<>();
        for (String h : hosts) {
            if (!topology.has(h) || topology.node(h).isSwitch()) {
                t.problem("hosts", "traffic host '" + h + "' is no host of the topology");
                return false;
            }
            if (!seen.add(h)) {
                t.problem("hosts", "traffic host '" + h + "' is named twice");
                return false;
            }
        }
        if (hosts.size() < 2) {
            t.problem("hosts", "traffic needs at least two hosts, got " + hosts);
            return false;
        }
        return true;
    }

    /** The flows the entry starts on average: each sender's load x link rate over the flow size, for its duration. */
    private static double expectedFlows(
            Topology topology, List<String> hosts, double load, long flowBytes, Duration span) {
        double flows = 0;
        for (String h : hosts) {
            flows += load * topology.hostBps(h) * (span.toNanos() / 1e9) / (flowBytes * 8.0);
        }
        return flows;
    }
}
