package org.bitina.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;

/**
 * A Virtual Aggregation Tree (seed 000 section 3, requirement A1): leaves are the job's
 * member servers, the root is a switch or a parameter server, every other VAT node is a
 * switch. Each non-leaf node holds an A-BM, the set of leaves below it. Built only through
 * {@link #build}, which enforces the seed's two constraints.
 */
public final class Vat {
    private final String root;
    private final Map<String, List<String>> children;
    private final Map<String, String> parent;
    private final Map<String, FlatBitmap> aBms;

    private Vat(
            String root, Map<String, List<String>> children, Map<String, String> parent, Map<String, FlatBitmap> aBms) {
        this.root = root;
        this.children = children;
        this.parent = parent;
        this.aBms = aBms;
    }

    /** A VAT defect, naming the VAT node it concerns (null when it concerns the whole tree). */
    public record Defect(String node, String message) {}

    /** The VAT, or the defects that prevent it. */
    public record Result(Vat vat, List<Defect> defects) {}

    /**
     * Checks and builds a VAT from each non-leaf node's children (leaves are members,
     * other children are VAT nodes that have children of their own).
     */
    public static Result build(
            Topology topology,
            BitSpace space,
            List<String> members,
            String root,
            Map<String, List<String>> childrenOf) {
        List<Defect> defects = new ArrayList<>();
        Set<String> memberSet = new HashSet<>(members);
        if (!topology.has(root)) {
            defects.add(new Defect(null, "VAT root '" + root + "' is not a node of the topology"));
            return new Result(null, defects);
        }
        if (memberSet.contains(root)) {
            defects.add(new Defect(
                    null,
                    "VAT root '" + root + "' is a job member; the root is a switch or a separate parameter server"));
        }
        if (!childrenOf.containsKey(root)) {
            defects.add(new Defect(null, "VAT root '" + root + "' has no children in the vat section"));
        }
        Map<String, String> parent = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : childrenOf.entrySet()) {
            String node = e.getKey();
            if (!topology.has(node)) {
                defects.add(new Defect(node, "VAT node '" + node + "' is not a node of the topology"));
                continue;
            }
            if (!node.equals(root) && !topology.node(node).isSwitch()) {
                defects.add(new Defect(node, "VAT node '" + node + "' is a host; inner VAT nodes must be switches"));
            }
            if (memberSet.contains(node)) {
                defects.add(new Defect(node, "job member '" + node + "' cannot be an inner VAT node"));
            }
            if (e.getValue().isEmpty()) {
                defects.add(new Defect(node, "VAT node '" + node + "' has no children"));
            }
            for (String child : e.getValue()) {
                if (!memberSet.contains(child) && !childrenOf.containsKey(child)) {
                    defects.add(new Defect(
                            node,
                            "child '" + child + "' of VAT node '" + node + "' is neither a job member nor a VAT node"));
                    continue;
                }
                if (child.equals(root)) {
                    defects.add(new Defect(node, "the VAT root '" + root + "' cannot be a child of '" + node + "'"));
                    continue;
                }
                String previous = parent.putIfAbsent(child, node);
                if (previous != null) {
                    String what = memberSet.contains(child)
                            ? "member '" + child + "' is a leaf"
                            : "switch '" + child
                                    + "' is mapped to two VAT nodes (a switch maps at most one VAT node per job):";
                    defects.add(new Defect(node, what + " under both '" + previous + "' and '" + node + "'"));
                    continue;
                }
                if (!topology.switchConnected(node, child)) {
                    defects.add(new Defect(
                            node,
                            "adjacent VAT nodes '" + node + "' and '" + child
                                    + "' are not connected through the network's switches"));
                }
            }
        }
        for (String m : members) {
            if (!parent.containsKey(m)) {
                defects.add(new Defect(null, "job member '" + m + "' is not a leaf of the VAT"));
            }
        }
        for (String node : childrenOf.keySet()) {
            if (!node.equals(root) && topology.has(node) && !parent.containsKey(node)) {
                defects.add(new Defect(
                        node,
                        "VAT node '" + node + "' hangs under no parent: it is not reachable from the root '" + root
                                + "'"));
            }
        }
        if (!defects.isEmpty()) {
            return new Result(null, defects);
        }
        // with one parent each and everything reachable from the root, a cycle is impossible
        // unless a node reaches itself: walk up from every node to be sure
        for (String node : parent.keySet()) {
            Set<String> seen = new HashSet<>();
            for (String at = node; at != null; at = parent.get(at)) {
                if (!seen.add(at)) {
                    defects.add(new Defect(node, "the VAT has a cycle through '" + node + "'"));
                    return new Result(null, defects);
                }
            }
        }
        Map<String, FlatBitmap> aBms = new LinkedHashMap<>();
        for (String node : childrenOf.keySet()) {
            List<Integer> leaves = new ArrayList<>();
            collectLeaves(node, childrenOf, memberSet, space, leaves);
            aBms.put(
                    node,
                    FlatBitmap.of(
                            space.capacity(),
                            leaves.stream().mapToInt(Integer::intValue).toArray()));
        }
        Map<String, List<String>> frozen = new LinkedHashMap<>();
        childrenOf.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return new Result(
                new Vat(
                        root,
                        Collections.unmodifiableMap(frozen),
                        Collections.unmodifiableMap(parent),
                        Collections.unmodifiableMap(aBms)),
                List.of());
    }

    private static void collectLeaves(
            String node, Map<String, List<String>> childrenOf, Set<String> members, BitSpace space, List<Integer> out) {
        for (String child : childrenOf.get(node)) {
            if (members.contains(child)) {
                out.add(space.index(child));
            } else {
                collectLeaves(child, childrenOf, members, space, out);
            }
        }
    }

    public String root() {
        return root;
    }

    /** Non-leaf VAT nodes (switches, and the root), with their A-BMs. */
    public Map<String, FlatBitmap> aBms() {
        return aBms;
    }

    /** A-BM of a VAT node, or null when the node is not a non-leaf VAT node. */
    public EndpointSet aBm(String node) {
        return aBms.get(node);
    }

    /** The VAT parent of a node (member or switch); null for the root. */
    public String parent(String node) {
        return parent.get(node);
    }

    public List<String> children(String node) {
        return children.getOrDefault(node, List.of());
    }
}
