package org.bitina.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Automatic VAT construction for any topology and member set (requirement A6, beyond the
 * seed). The members' shortest paths toward the root, with the deterministic next hops of
 * {@link Routing}, form an in-tree: next hops depend only on (node, root). The VAT nodes
 * are the root and every switch where two or more of those paths merge; a member's or a
 * VAT node's VAT parent is the nearest merge point above it. Switches where paths do not
 * merge only forward. Aggregating exactly at merge points reduces every link of the
 * in-tree to one packet per chunk, the least traffic this routing allows; and the seed's
 * two constraints hold by construction: each switch appears once in the in-tree, and
 * every VAT edge follows a path of switches.
 */
public final class AutoVat {
    private AutoVat() {}

    public static Vat.Result build(
            Topology topology, Routing routing, BitSpace space, List<String> members, String root) {
        Map<String, String> up = new LinkedHashMap<>();
        Map<String, List<String>> below = new LinkedHashMap<>();
        for (String m : members) {
            if (!routing.reachable(m, root)) {
                return new Vat.Result(
                        null, List.of(new Vat.Defect(null, "member '" + m + "' cannot reach the root '" + root + "'")));
            }
            List<String> path = routing.path(m, root);
            for (int i = 1; i < path.size(); i++) {
                String child = path.get(i - 1);
                String parent = path.get(i);
                if (up.putIfAbsent(child, parent) == null) {
                    below.computeIfAbsent(parent, k -> new ArrayList<>()).add(child);
                }
            }
        }
        Map<String, List<String>> children = new LinkedHashMap<>();
        children.put(root, new ArrayList<>());
        for (Map.Entry<String, List<String>> e : below.entrySet()) {
            if (e.getValue().size() > 1) {
                children.putIfAbsent(e.getKey(), new ArrayList<>());
            }
        }
        List<String> attach = new ArrayList<>(members);
        children.keySet().stream().filter(n -> !n.equals(root)).forEach(attach::add);
        for (String node : attach) {
            String at = up.get(node);
            while (!children.containsKey(at)) {
                at = up.get(at);
            }
            children.get(at).add(node);
        }
        return Vat.build(topology, space, members, root, children);
    }
}
