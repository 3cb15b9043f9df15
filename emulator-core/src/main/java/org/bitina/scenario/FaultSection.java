package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.bitina.topology.Link;
import org.bitina.topology.Topology;

/**
 * Reads the {@code faults} list, the fault plan (E4). Without a valid topology each fault
 * is still checked for its keys and values; only the nodes and links it names go unchecked.
 */
public final class FaultSection {
    private FaultSection() {}

    /** The faults of {@code root}'s {@code faults} list; {@code topology} is null when it is broken. */
    public static List<FaultSpec> read(ConfigReader root, Topology topology) {
        List<FaultSpec> faults = new ArrayList<>();
        ConfigList list = root.list("faults");
        if (list == null) {
            return faults;
        }
        List<ConfigReader> readers = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            ConfigReader f =
                    root.objectOf(list.get(i), root.label("faults[" + i + "]"), "{ at = 10ms, kind = ..., ... }");
            if (f == null) {
                continue;
            }
            String kind = kindOf(
                    f,
                    Arrays.stream(FaultSpec.Kind.values())
                            .map(FaultSpec.Kind::configName)
                            .toList());
            f.checkKeys(ScenarioKeys.FAULT, kind, kind == null ? "a fault" : "a " + kind + " fault");
            for (FaultSpec spec : fault(f, topology)) {
                faults.add(spec);
                readers.add(f);
            }
        }
        recoveriesFollowCrashes(faults, readers);
        return faults;
    }

    /** A switch-recover brings back a switch that is down at that time: crashed earlier, and not recovered since. */
    private static void recoveriesFollowCrashes(List<FaultSpec> faults, List<ConfigReader> readers) {
        for (int i = 0; i < faults.size(); i++) {
            FaultSpec r = faults.get(i);
            if (r.kind() != FaultSpec.Kind.SWITCH_RECOVER) {
                continue;
            }
            boolean down = false;
            for (FaultSpec f :
                    faults.stream().sorted(Comparator.comparing(FaultSpec::at)).toList()) {
                if (f == r) {
                    break;
                }
                if (f.node() != null && f.node().equals(r.node()) && f.at().compareTo(r.at()) <= 0) {
                    down = f.kind() == FaultSpec.Kind.SWITCH_CRASH
                            || (down && f.kind() != FaultSpec.Kind.SWITCH_RECOVER);
                }
            }
            if (!down) {
                readers.get(i)
                        .problem(
                                "kind",
                                "switch-recover of '" + r.node() + "' at " + r.at().toNanos() / 1000
                                        + "us: it is not down"
                                        + " then (a switch-crash of it must come before, with no switch-recover between)");
            }
        }
    }

    /** The section's kind when it names a known one (its keys are checked for it), else null (every key of the section). */
    static String kindOf(ConfigReader r, List<String> kinds) {
        if (!r.has("kind") || r.value("kind").valueType() != ConfigValueType.STRING) {
            return null;
        }
        String k = (String) r.value("kind").unwrapped();
        return kinds.contains(k) ? k : null;
    }

    /** The fault {@code f} describes, or one per host when a straggler's or silent fault's node is a host selector; none when bad. */
    private static List<FaultSpec> fault(ConfigReader f, Topology topology) {
        int before = f.problems().count();
        String kindName = f.requiredName("kind", "a fault's kind");
        FaultSpec.Kind kind = null;
        if (kindName != null) {
            try {
                kind = FaultSpec.Kind.fromConfig(kindName);
            } catch (IllegalArgumentException e) {
                f.problem("kind", e.getMessage());
            }
        }
        Duration at = f.nonNegativeDuration("at", Duration.ZERO);
        String node = f.name("node", null);
        List<String> hosts = null;
        if (node != null && kind != null && HostSelector.isSelector(node)) {
            if (kind.target() != FaultSpec.Target.HOST) {
                f.problem(
                        "node",
                        "a " + kindName + " fault names one node; host selectors ('" + node
                                + "') are for straggler and silent faults");
            } else if (topology != null) {
                try {
                    hosts = HostSelector.expand(node, topology);
                } catch (IllegalArgumentException e) {
                    f.problem("node", "a fault's node: " + e.getMessage());
                }
            }
            node = hosts == null ? null : hosts.get(0);
        }
        Link link = link(f, topology);
        Duration delay = f.nonNegativeDuration("delay", Duration.ZERO);
        Duration jitter = f.nonNegativeDuration("jitter", Duration.ZERO);
        double rate = f.fraction("rate", 0);
        List<Long> chunks = f.has("chunks") ? f.wholeLongs("chunks", 0) : List.of();
        int member = f.intIn("member", 0, 1024, -1);
        if (kind == null) {
            return List.of();
        }
        switch (kind.target()) {
            case LINK -> {
                if (!f.has("link")) {
                    f.problem(f.origin(), kindName + " needs link = [a, b]");
                }
            }
            case SWITCH, HOST -> {
                if (node == null) {
                    if (!f.has("node")) {
                        f.problem(f.origin(), kindName + " needs node = ...");
                    }
                } else if (topology == null) {
                    // the node cannot be checked against a broken topology; its problems are reported already
                } else if (!topology.has(node)) {
                    f.problem("node", "fault names unknown node '" + node + "'");
                } else if (kind.target() == FaultSpec.Target.SWITCH
                        && !topology.node(node).isSwitch()) {
                    f.problem("node", kindName + " names '" + node + "', which is a host");
                } else if (kind.target() == FaultSpec.Target.HOST
                        && !topology.node(node).isHost()) {
                    f.problem("node", kindName + " names '" + node + "', which is a switch; stragglers are hosts");
                }
                if (kind == FaultSpec.Kind.STRAGGLER && !f.has("delay")) {
                    f.problem(f.origin(), "straggler needs delay = ...");
                }
            }
            case LINKS -> {
                if (!f.has("rate")) {
                    f.problem(f.origin(), kindName + " needs rate = (a fraction like 0.05 or 5%)");
                }
            }
            case MEMBER -> {
                if (!f.has("member")) {
                    f.problem(f.origin(), "member-loss needs member = (a cluster member index)");
                }
            }
            default -> throw new AssertionError(kind);
        }
        if (f.problems().since(before) || topology == null) {
            return List.of();
        }
        List<FaultSpec> out = new ArrayList<>();
        for (String n : hosts == null ? Collections.singletonList(node) : hosts) {
            out.add(new FaultSpec(at, kind, n, link, delay, jitter, rate, chunks, member));
        }
        return out;
    }

    private static Link link(ConfigReader f, Topology topology) {
        List<String> ends = f.names("link");
        if (ends == null) {
            return null;
        }
        if (ends.size() != 2) {
            f.problem("link", "a fault's link is a pair [a, b]");
            return null;
        }
        if (topology == null) {
            return null;
        }
        Link link = topology.linkBetween(ends.get(0), ends.get(1)).orElse(null);
        if (link == null) {
            f.problem("link", "there is no link [" + ends.get(0) + ", " + ends.get(1) + "] in the topology");
        }
        return link;
    }
}
