package org.bitina.usecase.allreduce;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bitina.job.JobSpec;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.HostLists;
import org.bitina.scenario.HostSelector;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Topology;

/**
 * How an AllReduce job's members split into partitions, each aggregated by a tree of its own
 * over a short bit space of its own, combined by a second stage (seed 000 section 7, H2):
 * {@code partitions = by-pod} (the topology's pods) or {@code partitions = [[h1, h2], [h3, h4]]}
 * (named p1, p2, ...). {@link #NONE}: one tree, as the seed's section 3.
 */
public record Partitions(Kind kind, List<Partition> explicit) {
    public enum Kind {
        NONE,
        BY_POD,
        EXPLICIT
    }

    /** One partition: its name and its members, in the job's bit order. */
    public record Partition(String name, List<String> members) {
        public Partition {
            members = List.copyOf(members);
        }
    }

    public static final Partitions NONE = new Partitions(Kind.NONE, List.of());

    public Partitions {
        explicit = List.copyOf(explicit);
    }

    public boolean any() {
        return kind != Kind.NONE;
    }

    /**
     * The partitions of {@code members}: by pod, in pod order (named pod-N), or as listed; each
     * partition's members in the job's bit order (its own bit space lists them so).
     */
    public List<Partition> of(Topology topology, List<String> members, BitSpace space) {
        List<Partition> out = new ArrayList<>();
        if (kind == Kind.BY_POD) {
            Map<Integer, List<String>> byPod = new TreeMap<>();
            for (String m : members) {
                byPod.computeIfAbsent(topology.node(m).pod(), p -> new ArrayList<>())
                        .add(m);
            }
            byPod.forEach((pod, ms) -> out.add(new Partition("pod-" + pod, ms)));
        } else {
            out.addAll(explicit);
        }
        List<Partition> ordered = new ArrayList<>();
        for (Partition p : out) {
            List<String> ms = new ArrayList<>(p.members());
            ms.sort(Comparator.comparingInt(space::index));
            ordered.add(new Partition(p.name(), ms));
        }
        return ordered;
    }

    /**
     * The job's {@code partitions} key, validated against its members and the topology; null with
     * problems when it is wrong, {@link #NONE} when absent.
     */
    static Partitions read(ConfigReader c, Topology topology, List<String> members) {
        if (!c.has("partitions")) {
            return NONE;
        }
        ConfigValue v = c.value("partitions");
        if (v.valueType() == ConfigValueType.STRING) {
            if (!"by-pod".equals(v.unwrapped())) {
                c.problem(
                        v.origin(),
                        c.label("partitions") + " must be by-pod or a list of member lists, got '" + v.unwrapped()
                                + "'");
                return null;
            }
            if (topology == null || members == null) {
                return null;
            }
            Set<Integer> pods = new LinkedHashSet<>();
            for (String m : members) {
                int pod = topology.node(m).pod();
                if (pod < 0) {
                    c.problem(
                            v.origin(),
                            "partitions = by-pod needs pods: member '" + m
                                    + "' is in none (a generator sets pods, or topology.pods)");
                    return null;
                }
                pods.add(pod);
            }
            if (pods.size() < 2) {
                c.problem(v.origin(), "partitions = by-pod puts every member in one pod: nothing to partition");
                return null;
            }
            return roots(c, v, topology, pods.size()) ? new Partitions(Kind.BY_POD, List.of()) : null;
        }
        if (v.valueType() != ConfigValueType.LIST) {
            c.problem(
                    v.origin(),
                    c.label("partitions") + " must be by-pod or a list of member lists (got " + ConfigReader.describe(v)
                            + ")");
            return null;
        }
        ConfigList lists = (ConfigList) v;
        if (lists.size() < 2) {
            c.problem(v.origin(), c.label("partitions") + " needs at least two partitions, got " + lists.size());
            return null;
        }
        Map<String, String> where = new HashMap<>();
        List<Partition> parts = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < lists.size(); i++) {
            ConfigValue p = lists.get(i);
            String name = "p" + (i + 1);
            // a partition is a list of members and selectors, or one selector ("pod:1-2")
            boolean selector =
                    p.valueType() == ConfigValueType.STRING && HostSelector.isSelector((String) p.unwrapped());
            if (!selector && (p.valueType() != ConfigValueType.LIST || ((ConfigList) p).isEmpty())) {
                c.problem(
                        p.origin(),
                        "partition " + name + " must be a non-empty list of members or a host selector (got "
                                + ConfigReader.describe(p) + ")");
                ok = false;
                continue;
            }
            List<String> ms = new ArrayList<>();
            List<HostLists.Named> named = HostLists.expand(
                    c, selector ? List.of(p) : (ConfigList) p, topology, "a member of partition " + name, Set.of());
            ok &= named != null;
            for (HostLists.Named n : named == null ? List.<HostLists.Named>of() : named) {
                String m = n.name();
                ConfigValue e = n.from();
                if (members != null && !members.contains(m)) {
                    c.problem(e.origin(), "'" + m + "' in partition " + name + " is not a member of the job");
                    ok = false;
                    continue;
                }
                String before = where.putIfAbsent(m, name);
                if (before != null) {
                    c.problem(
                            e.origin(),
                            before.equals(name)
                                    ? "'" + m + "' is listed twice in partition " + name
                                    : "'" + m + "' is in two partitions, " + before + " and " + name);
                    ok = false;
                    continue;
                }
                ms.add(m);
            }
            parts.add(new Partition(name, ms));
        }
        if (ok && members != null) {
            List<String> none =
                    members.stream().filter(m -> !where.containsKey(m)).toList();
            if (!none.isEmpty()) {
                c.problem(
                        v.origin(),
                        "members in no partition: " + (none.size() > 8 ? none.subList(0, 8) + "..." : none));
                ok = false;
            }
        }
        if (!ok || topology == null || !roots(c, v, topology, parts.size())) {
            return null;
        }
        return new Partitions(Kind.EXPLICIT, parts);
    }

    /** Each partition needs a switch of its own to root it, besides the second stage's root. */
    private static boolean roots(ConfigReader c, ConfigValue v, Topology topology, int partitions) {
        int switches = topology.switches().size();
        if (partitions > switches - 1) {
            c.problem(
                    v.origin(),
                    partitions + " partitions need " + partitions
                            + " switches to root them besides the second stage's root; the " + "topology has "
                            + switches);
            return false;
        }
        return true;
    }

    /**
     * What a scenario's faults ask of its partitioned jobs that is not built: a switch crash
     * during one (there is no VAT repair over partition trees). One message per such fault.
     */
    public static List<String> unbuiltFaults(List<JobSpec> jobs, List<FaultSpec> faults) {
        List<String> out = new ArrayList<>();
        for (JobSpec j : jobs) {
            if (j instanceof AllReduceSpec a && a.partitions().any()) {
                for (FaultSpec f : faults) {
                    if (f.kind() == FaultSpec.Kind.SWITCH_CRASH || f.kind() == FaultSpec.Kind.SWITCH_RECOVER) {
                        out.add(f.kind().configName() + " of " + f.node() + " with job '" + j.name()
                                + "' over partitions: VAT repair over partition "
                                + "trees is not built (run the crash on a job of one tree)");
                    }
                }
            }
        }
        return out;
    }
}
