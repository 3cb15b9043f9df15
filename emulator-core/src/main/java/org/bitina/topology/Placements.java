package org.bitina.topology;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which cluster member runs each device (E2). {@code by-pod}: a pod's devices share a member
 * (pods dealt round-robin), so most links stay inside one JVM; devices in no pod (core
 * switches) are dealt round-robin. {@code round-robin}: devices in topology order.
 * {@code explicit}: as the scenario's {@code cluster.explicit} map says, the rest by pod.
 */
public final class Placements {
    private Placements() {}

    /** Member index (0..members-1) of every node. */
    public static Map<String, Integer> place(Topology t, ClusterSpec spec, int members) {
        if (members < 1) {
            throw new IllegalArgumentException("need at least one member");
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        List<Node> nodes = t.nodes();
        if (spec.placement() == ClusterSpec.Placement.ROUND_ROBIN) {
            for (int i = 0; i < nodes.size(); i++) {
                out.put(nodes.get(i).name(), i % members);
            }
            return out;
        }
        Map<Integer, Integer> podMember = new LinkedHashMap<>();
        int loose = 0;
        for (Node n : nodes) {
            Integer fixed = spec.placement() == ClusterSpec.Placement.EXPLICIT
                    ? spec.explicit().get(n.name())
                    : null;
            if (fixed != null) {
                out.put(n.name(), Math.floorMod(fixed, members));
            } else if (n.pod() >= 0) {
                out.put(n.name(), podMember.computeIfAbsent(n.pod(), p -> podMember.size() % members));
            } else {
                out.put(n.name(), loose++ % members);
            }
        }
        return out;
    }
}
