package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.bitina.protocol.SwitchTiming;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.NodeKind;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.PacketCodec;

/**
 * Reads the {@code topology} section: switches, hosts, pods and links with their
 * properties, or a generator. A bad link property (a bandwidth without a unit) is recorded
 * but the link still joins its nodes, so the graph is built and the jobs are checked against
 * it; only problems with the graph itself (unknown or duplicate nodes, a disconnected graph)
 * leave the scenario without a topology.
 */
public final class TopologySection {
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    /** Beyond a k=64 fat-tree (70,656 nodes): checked before anything is generated, so validate never runs out of memory. */
    static final long MAX_NODES = 200_000;

    static final long MAX_LINKS = 2_000_000;

    private final ConfigReader t;
    private boolean sound = true;

    private TopologySection(ConfigReader t) {
        this.t = t;
    }

    /** The topology read from {@code t}, or null when its nodes and links do not make a graph. */
    public static Topology read(ConfigReader t) {
        return new TopologySection(t).topology();
    }

    /**
     * The switches' soft-state capacity (S5): {@code switch-defaults { state-entries = N }} for
     * every switch, {@code switch-overrides { NAME { state-entries = N } }} for one. Unset: no
     * limit, every job is admitted. The same objects carry the optional {@code processing} delay
     * and {@code aggregation-rate}; unset, a switch is free as before.
     */
    public static Scenario.StateCapacity capacity(ConfigReader t, Topology topology) {
        int all = 0;
        SwitchTiming.Spec speed = SwitchTiming.Spec.FREE;
        ConfigReader d = t.objectOrEmpty("switch-defaults");
        if (d != null) {
            d.checkKeys(ScenarioKeys.SWITCH, "switch-defaults");
            all = d.intIn("state-entries", 1, Integer.MAX_VALUE, 0);
            speed = speed(d, SwitchTiming.Spec.FREE);
        }
        Map<String, Integer> one = new TreeMap<>();
        Map<String, SwitchTiming.Spec> speeds = new TreeMap<>();
        ConfigReader o = t.objectOrEmpty("switch-overrides");
        if (o != null) {
            for (String name : o.keys()) {
                ConfigReader sw = o.object(name);
                if (sw == null) {
                    continue;
                }
                if (topology != null
                        && (topology.node(name) == null || !topology.node(name).isSwitch())) {
                    o.problem(name, "switch-overrides names '" + name + "', which is not a switch");
                    continue;
                }
                sw.checkKeys(ScenarioKeys.SWITCH, "switch-overrides." + name);
                int n = sw.intIn("state-entries", 1, Integer.MAX_VALUE, 0);
                if (n > 0) {
                    one.put(name, n);
                }
                SwitchTiming.Spec s = speed(sw, speed);
                if (!s.equals(speed)) {
                    speeds.put(name, s);
                }
            }
        }
        return new Scenario.StateCapacity(all, one, speed, speeds);
    }

    /** A switch's optional realism, each key unset keeping {@code base}'s. */
    private static SwitchTiming.Spec speed(ConfigReader c, SwitchTiming.Spec base) {
        var processing = c.nonNegativeDuration("processing", null);
        long processingNanos = processing == null ? base.processingNanos() : processing.toNanos();
        long rate = c.bandwidth("aggregation-rate", (long) base.aggregationBitsPerSecond());
        return new SwitchTiming.Spec(processingNanos, rate);
    }

    /** A problem with the graph itself: jobs cannot be checked against what was read. */
    private void broken(ConfigOrigin origin, String message) {
        t.problem(origin, message);
        sound = false;
    }

    private Topology topology() {
        t.checkKeys(ScenarioKeys.TOPOLOGY, "the topology");
        LinkSpec defaults = LinkSpec.DEFAULT;
        if (t.has("link-defaults")) {
            ConfigReader d = t.object("link-defaults");
            if (d != null) {
                d.checkKeys(ScenarioKeys.LINK, "link-defaults");
                defaults = linkSpec(d, LinkSpec.DEFAULT);
            }
        }
        if (t.has("generator")) {
            if (t.has("switches") || t.has("hosts") || t.has("links")) {
                t.problem("generator", "a topology has either a generator or switches/hosts/links, not both");
                return null;
            }
            ConfigReader g = t.object("generator");
            return g == null ? null : generated(g, defaults);
        }
        List<Node> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Map<String, Integer> pods = pods();
        for (String kindKey : List.of("switches", "hosts")) {
            NodeKind kind = kindKey.equals("switches") ? NodeKind.SWITCH : NodeKind.HOST;
            if (!t.has(kindKey)) {
                broken(t.origin(), "missing " + t.label(kindKey));
                continue;
            }
            ConfigList list = t.list(kindKey);
            if (list == null) {
                sound = false;
                continue;
            }
            for (ConfigValue v : list) {
                String name = t.nameOf(v, t.label(kindKey) + " element");
                if (name == null) {
                    sound = false;
                } else if (!NODE_NAME.matcher(name).matches()) {
                    // a device is an actor named after its node: refuse here what an actor path would refuse mid-run
                    broken(v.origin(), "node name '" + name + "' may hold only letters, digits, '-', '_' and '.'");
                } else if (!names.add(name)) {
                    broken(v.origin(), "duplicate node name '" + name + "'");
                } else {
                    nodes.add(new Node(name, kind, pods.getOrDefault(name, -1)));
                }
            }
        }
        pods.keySet().stream()
                .filter(n -> !names.contains(n))
                .forEach(n -> broken(t.origin("pods"), "pods name '" + n + "', which is not a node"));
        List<Link> links = new ArrayList<>();
        if (!t.has("links")) {
            broken(t.origin(), "missing " + t.label("links"));
        } else {
            ConfigList list = t.list("links");
            if (list == null) {
                sound = false;
            } else {
                for (int i = 0; i < list.size(); i++) {
                    Link l = link(list.get(i), t.label("links[" + i + "]"), names, defaults, links);
                    if (l != null) {
                        links.add(l);
                    }
                }
            }
        }
        return sound ? connected(nodes, links) : null;
    }

    private Topology connected(List<Node> nodes, List<Link> links) {
        Topology topology = new Topology(nodes, links);
        List<String> unreachable = topology.unreachableFromFirst();
        if (!unreachable.isEmpty()) {
            t.problem(
                    "links",
                    "the topology is disconnected: " + String.join(", ", unreachable) + " cannot be reached from "
                            + nodes.get(0).name());
            return null;
        }
        for (Node n : topology.hosts()) {
            if (topology.linksOf(n.name()).isEmpty()) {
                broken(t.origin("hosts"), "host '" + n.name() + "' has no link");
            }
        }
        return sound ? topology : null;
    }

    private Map<String, Integer> pods() {
        Map<String, Integer> pods = new LinkedHashMap<>();
        ConfigReader p = t.object("pods");
        if (p == null) {
            sound &= !t.has("pods");
            return pods;
        }
        int index = 1;
        for (Map.Entry<String, ConfigValue> e :
                ConfigReader.inFileOrder(p.config().root())) {
            if (e.getValue().valueType() != ConfigValueType.LIST) {
                broken(
                        e.getValue().origin(),
                        "pod '" + e.getKey() + "' must be a list of node names (got "
                                + ConfigReader.describe(e.getValue()) + ")");
                continue;
            }
            for (ConfigValue v : (ConfigList) e.getValue()) {
                String n = t.nameOf(v, "pod '" + e.getKey() + "' element");
                if (n == null) {
                    sound = false;
                } else if (pods.put(n, index) != null) {
                    broken(v.origin(), "node '" + n + "' is in two pods");
                }
            }
            index++;
        }
        return pods;
    }

    /** One link; with a bad property it still joins its ends (with {@code defaults}) so the graph can be checked. */
    private Link link(ConfigValue v, String label, Set<String> names, LinkSpec defaults, List<Link> existing) {
        ConfigList pair;
        LinkSpec spec = defaults;
        if (v.valueType() == ConfigValueType.LIST) {
            pair = (ConfigList) v;
            if (pair.size() != 2) {
                broken(v.origin(), "a link is a pair [a, b], got " + pair.size() + " elements");
                return null;
            }
        } else if (v.valueType() == ConfigValueType.OBJECT) {
            ConfigReader c = t.objectOf(v, label, "");
            c.checkKeys(ScenarioKeys.LINK_OBJECT, "a link");
            spec = linkSpec(c, defaults);
            if (!c.has("between")) {
                broken(v.origin(), "a link object needs between = [a, b]");
                return null;
            }
            pair = c.list("between");
            if (pair == null || pair.size() != 2) {
                broken(v.origin(), "between must name exactly two nodes");
                return null;
            }
        } else {
            broken(
                    v.origin(),
                    "a link is [a, b] or { between = [a, b], latency = ..., bandwidth = ... } (got "
                            + ConfigReader.describe(v) + ")");
            return null;
        }
        String a = t.nameOf(pair.get(0), "a link end");
        String b = t.nameOf(pair.get(1), "a link end");
        if (a == null || b == null) {
            sound = false;
            return null;
        }
        boolean ok = true;
        for (String end : List.of(a, b)) {
            if (!names.contains(end)) {
                broken(v.origin(), "link [" + a + ", " + b + "] names unknown node '" + end + "'");
                ok = false;
            }
        }
        if (ok && a.equals(b)) {
            broken(v.origin(), "link [" + a + ", " + b + "] connects a node to itself");
            ok = false;
        }
        if (ok && existing.stream().anyMatch(l -> l.joins(a, b))) {
            broken(v.origin(), "duplicate link [" + a + ", " + b + "]");
            ok = false;
        }
        return ok ? new Link(a, b, spec) : null;
    }

    /** The properties in {@code c} over {@code base}; a bad one is recorded and {@code base}'s value kept. */
    private static LinkSpec linkSpec(ConfigReader c, LinkSpec base) {
        var latency = c.nonNegativeDuration("latency", null);
        long latencyNanos = latency == null ? base.latencyNanos() : latency.toNanos();
        long bandwidth = c.bandwidth("bandwidth", base.bandwidthBps());
        int mtu = c.intIn("mtu", PacketCodec.HEADER_BYTES + 24, 1 << 20, base.mtu());
        double loss = c.fraction("loss", base.loss());
        long buffer = c.bytes("buffer", 1, Long.MAX_VALUE - 1, "at least 1 byte", base.bufferBytes());
        long ecn = c.bytes("ecn-threshold", 1, Long.MAX_VALUE - 1, "at least 1 byte", base.ecnThresholdBytes());
        return new LinkSpec(latencyNanos, bandwidth, mtu, loss, buffer, ecn);
    }

    private Topology generated(ConfigReader g, LinkSpec spec) {
        String kind = g.requiredName("kind", g.label("kind"));
        if (kind == null) {
            return null;
        }
        try {
            switch (kind) {
                case "fat-tree": {
                    g.checkKeys(ScenarioKeys.GENERATOR, kind, "a fat-tree generator");
                    Integer k = g.requiredInt("k", Integer.MIN_VALUE, Integer.MAX_VALUE);
                    if (k == null) {
                        return null;
                    }
                    if (k < 2 || k % 2 != 0 || k > 64) {
                        g.problem("k", "fat-tree k must be an even number from 2 to 64, got " + k);
                        return null;
                    }
                    return Topologies.fatTree(k, spec);
                }
                case "leaf-spine": {
                    g.checkKeys(ScenarioKeys.GENERATOR, kind, "a leaf-spine generator");
                    Integer spines = g.requiredInt("spines", Integer.MIN_VALUE, Integer.MAX_VALUE);
                    Integer leaves = g.requiredInt("leaves", Integer.MIN_VALUE, Integer.MAX_VALUE);
                    Integer hosts = g.requiredInt("hosts-per-leaf", Integer.MIN_VALUE, Integer.MAX_VALUE);
                    if (spines == null || leaves == null || hosts == null) {
                        return null;
                    }
                    long nodes = (long) spines + leaves + (long) leaves * hosts;
                    long links = (long) spines * leaves + (long) leaves * hosts;
                    if (spines > 0 && leaves > 0 && hosts > 0 && (nodes > MAX_NODES || links > MAX_LINKS)) {
                        g.problem(
                                g.origin(),
                                "a leaf-spine of " + spines + " spines, " + leaves + " leaves and " + hosts
                                        + " hosts per leaf has " + nodes + " nodes and " + links
                                        + " links; this version runs at most "
                                        + MAX_NODES + " nodes and " + MAX_LINKS + " links");
                        return null;
                    }
                    return Topologies.leafSpine(spines, leaves, hosts, spec);
                }
                case "paper-fig1":
                    g.checkKeys(ScenarioKeys.GENERATOR, kind, "the paper-fig1 generator");
                    return Topologies.paperFig1(spec);
                default:
                    g.problem("kind", "unknown generator '" + kind + "' (expected fat-tree, leaf-spine or paper-fig1)");
                    return null;
            }
        } catch (IllegalArgumentException e) {
            g.problem(g.origin(), e.getMessage());
            return null;
        }
    }
}
