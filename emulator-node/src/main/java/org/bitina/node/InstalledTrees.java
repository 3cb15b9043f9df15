package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.protocol.JobTables;
import org.bitina.usecase.Phase;

/**
 * The trees a phase's control plane installs (A-BMs, A1), as the export and the HTML report
 * draw them: each VAT node with its A-BM, an edge from each VAT node to its VAT parent, and one
 * from each member to the lowest VAT node whose A-BM holds its bit. Trees the packets build at
 * run time (C-BMs, INC trees) are not here: a phase without A-BMs gives an empty one.
 *
 * @param aBms  VAT node to its A-BM as printed ({@code [11000000]}), in the tables' order
 * @param root  the VAT root, or null
 * @param edges child to parent
 */
record InstalledTrees(Map<String, String> aBms, String root, List<TopologyView.TreeEdge> edges) {

    /** Every tree of the phase on one picture (over partitions, H2: the second stage and each partition's). */
    static InstalledTrees of(Phase p) {
        Map<String, String> aBms = new LinkedHashMap<>();
        List<TopologyView.TreeEdge> edges = new ArrayList<>();
        String root = null;
        for (Phase.Tree tree : p.trees()) {
            InstalledTrees t = of(tree);
            // a partition root also holds its A-BM of the second stage: both on its label
            t.aBms().forEach((node, aBm) -> aBms.merge(node, aBm, (a, b) -> a + " " + b));
            edges.addAll(t.edges());
            root = root == null ? t.root() : root;
        }
        return new InstalledTrees(aBms, root, edges);
    }

    /** One tree of a phase. */
    static InstalledTrees of(Phase.Tree tree) {
        Map<String, String> aBms = new LinkedHashMap<>();
        List<TopologyView.TreeEdge> edges = new ArrayList<>();
        String root = null;
        for (var e : tree.tables().entrySet()) {
            JobTables t = e.getValue();
            if (t.registered() == null) {
                continue;
            }
            aBms.put(e.getKey(), t.registered().toString());
            if (t.root()) {
                root = e.getKey();
            }
            if (t.vatParent() != null) {
                edges.add(new TopologyView.TreeEdge(e.getKey(), t.vatParent()));
            }
            for (int bit : t.registered().indices()) {
                String endpoint = tree.bitSpace().endpoint(bit);
                if (endpoint != null && lowest(tree, bit) == t) {
                    edges.add(new TopologyView.TreeEdge(tree.bitSpace().node(bit), e.getKey()));
                }
            }
        }
        return new InstalledTrees(aBms, root, edges);
    }

    boolean isEmpty() {
        return aBms.isEmpty();
    }

    private static JobTables lowest(Phase.Tree tree, int bit) {
        JobTables best = null;
        for (JobTables t : tree.tables().values()) {
            EndpointSet a = t.registered();
            if (a != null
                    && a.contains(bit)
                    && (best == null || a.cardinality() < best.registered().cardinality())) {
                best = t;
            }
        }
        return best;
    }
}
