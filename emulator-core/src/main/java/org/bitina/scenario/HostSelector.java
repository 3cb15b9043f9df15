package org.bitina.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;

/**
 * Host selectors: one string that names several hosts of a topology, where a scenario file reads
 * a list of hosts ({@link #SYNTAX}). Pure: a selector and a topology in, the hosts out, or an
 * IllegalArgumentException whose message says what is wrong (the reader puts it at the value's
 * {@code FILE:LINE}). A selector's hosts come in the topology's host order, each once.
 */
public final class HostSelector {
    private HostSelector() {}

    /** The syntax, as docs/configuration.md gives it. */
    public static final String SYNTAX = """
            Wherever a list of hosts is read (a job's `members`, a moe job's `sources` and `experts`, a reliable-multicast
            job's `receivers`, `partitions` lists, `membership` changes, `expect`'s `missing`, an attack's `as`, and the
            `node` of a straggler or silent fault), an element may be a host's name or a selector that names several:

            | selector | hosts |
            | --- | --- |
            | `"all"` | every host of the topology |
            | `"h1..h16"` | the hosts named by the prefix and every number from the first to the last (`w1..w4`) |
            | `"pod:2"`, `"pod:1-2"` | the hosts of those placement pods (a fat-tree's pods 1..k, a leaf-spine's leaves, `topology.pods` in the order written) |
            | `"rack:edge-1-1"` | the hosts linked to that switch |

            A selector's hosts come in the topology's host order (generated topologies: `h1`, `h2`, ...; written ones: the
            `hosts` list), each once; a list's elements follow one another in the order written, so the first element's
            hosts hold the first bits. A host named twice in one list (by two elements) is an error, as is a selector
            that selects nothing, a reversed range (`h9..h2`, `pod:3-1`), an unknown pod or switch, a range whose ends
            have different prefixes, a range or rack that names a switch where hosts are needed, and a selector in a
            file whose topology is broken. Quote selectors (`"pod:1-2"`): HOCON reads `:` as a key separator.
            In a reliable-multicast job's `receivers` every selector leaves the job's source out.
            Inside a host list the words `all` and names with `..`, `pod:` or `rack:` are selectors, never host names.
            """;

    private static final Pattern RANGE = Pattern.compile("(.*?)(\\d+)\\.\\.(.*?)(\\d+)");
    private static final Pattern POD = Pattern.compile("(\\d+)(?:(?:-|\\.\\.)(\\d+))?");

    /** Whether {@code s} is a selector rather than one host's name. */
    public static boolean isSelector(String s) {
        return s.equals("all") || s.startsWith("pod:") || s.startsWith("rack:") || s.contains("..");
    }

    /** The hosts {@code selector} names in {@code topology}, in host order; IllegalArgumentException when it is bad or selects none. */
    public static List<String> expand(String selector, Topology topology) {
        Set<String> hosts = new LinkedHashSet<>();
        if (selector.equals("all")) {
            topology.hosts().forEach(h -> hosts.add(h.name()));
        } else if (selector.startsWith("pod:")) {
            pods(selector, topology, hosts);
        } else if (selector.startsWith("rack:")) {
            rack(selector, topology, hosts);
        } else if (selector.contains("..")) {
            range(selector, topology, hosts);
        } else {
            throw new IllegalArgumentException(
                    "'" + selector + "' is no selector (all, h1..h16, pod:1-2, rack:SWITCH)");
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("selector '" + selector + "' selects no host");
        }
        List<String> out = new ArrayList<>(hosts);
        out.sort(Comparator.comparingInt(topology::indexOf));
        return out;
    }

    private static void pods(String selector, Topology topology, Set<String> hosts) {
        Matcher m = POD.matcher(selector.substring("pod:".length()));
        if (!m.matches()) {
            throw new IllegalArgumentException("selector '" + selector + "': write pod:N or pod:N-M");
        }
        int from = Integer.parseInt(m.group(1));
        int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
        if (to < from) {
            throw new IllegalArgumentException(
                    "selector '" + selector + "' is a reversed range (" + from + " > " + to + ")");
        }
        Set<Integer> known = new TreeSet<>();
        topology.nodes().stream().filter(n -> n.pod() >= 0).forEach(n -> known.add(n.pod()));
        for (int p = from; p <= to; p++) {
            if (!known.contains(p)) {
                throw new IllegalArgumentException(
                        "selector '" + selector + "': pod " + p + " is not a pod of the topology ("
                                + (known.isEmpty() ? "it has no pods" : "pods: " + known) + ")");
            }
        }
        for (Node h : topology.hosts()) {
            if (h.pod() >= from && h.pod() <= to) {
                hosts.add(h.name());
            }
        }
    }

    private static void rack(String selector, Topology topology, Set<String> hosts) {
        String sw = selector.substring("rack:".length());
        if (!topology.has(sw)) {
            throw new IllegalArgumentException(
                    "selector '" + selector + "': '" + sw + "' is not a node of the topology");
        }
        if (!topology.node(sw).isSwitch()) {
            throw new IllegalArgumentException(
                    "selector '" + selector + "': '" + sw + "' is a host; rack: names a switch");
        }
        for (String n : topology.neighbors(sw)) {
            if (topology.node(n).isHost()) {
                hosts.add(n);
            }
        }
    }

    private static void range(String selector, Topology topology, Set<String> hosts) {
        Matcher m = RANGE.matcher(selector);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "selector '" + selector + "': a range is FIRST..LAST, both ending in a number (h1..h16)");
        }
        if (!m.group(1).equals(m.group(3))) {
            throw new IllegalArgumentException("selector '" + selector + "': the ends have different prefixes ('"
                    + m.group(1) + "', '" + m.group(3) + "')");
        }
        long from = Long.parseLong(m.group(2));
        long to = Long.parseLong(m.group(4));
        if (to < from) {
            throw new IllegalArgumentException(
                    "selector '" + selector + "' is a reversed range (" + from + " > " + to + ")");
        }
        if (to - from >= topology.size()) {
            throw new IllegalArgumentException("selector '" + selector + "' names " + (to - from + 1)
                    + " nodes; the topology has " + topology.size());
        }
        for (long i = from; i <= to; i++) {
            String name = m.group(1) + i;
            if (!topology.has(name)) {
                throw new IllegalArgumentException(
                        "selector '" + selector + "': '" + name + "' is not a node of the topology");
            }
            if (!topology.node(name).isHost()) {
                throw new IllegalArgumentException(
                        "selector '" + selector + "': '" + name + "' is a switch; hosts are needed here");
            }
            hosts.add(name);
        }
    }
}
