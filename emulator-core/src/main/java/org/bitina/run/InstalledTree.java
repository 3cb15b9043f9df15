package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Mode;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.ObservedTrees;
import org.bitina.usecase.Phase;

/**
 * The trees an in-network phase's control plane installs before the run (A-BMs, A1), as the run
 * planned them, so that a writer draws them from the report instead of planning the scenario again:
 * each VAT node with its A-BM, an edge from each VAT node to its VAT parent, and one from each
 * member's node to the lowest VAT node whose A-BM holds its bit. Every tree of the phase is on one
 * entry (over partitions, H2: the second stage and each partition's). Trees the packets build at run
 * time (C-BMs, INC trees) are in {@link Report.ObservedTree}; a phase that installs none has no A-BMs.
 *
 * @param iteration the elastic iteration (1, 2, ...), absent for a job that runs once
 * @param root      the VAT root, absent without one
 * @param aBms      VAT node to its A-BM as the seeds print bitmaps ({@code [11000000]}), in the tables' order
 * @param edges     child to parent
 */
public record InstalledTree(
        String job,
        Mode mode,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer iteration,
        @JsonInclude(JsonInclude.Include.NON_NULL) String root,
        Map<String, String> aBms,
        List<Edge> edges) {

    public record Edge(String from, String to) {}

    /**
     * One entry per in-network phase of {@code phases}, in their order, as the report carries them: an A-BM
     * over more than {@link ObservedTrees#MAX_PRINTED_BITS} bits is printed as its count, as observed trees
     * leave such bits out (a k=64 job's A-BM is 65,536 characters, on each of thousands of VAT nodes).
     */
    static List<InstalledTree> of(List<Phase> phases) {
        return phases.stream()
                .filter(p -> p.mode().inNetwork())
                .map(p -> of(p, ObservedTrees.MAX_PRINTED_BITS))
                .toList();
    }

    /** Every tree of {@code p} on one entry. */
    private static InstalledTree of(Phase p, int maxPrintedBits) {
        Map<String, String> aBms = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        String root = null;
        for (Phase.Tree tree : p.trees()) {
            InstalledTree t = of(p, tree, maxPrintedBits);
            // a partition root also holds its A-BM of the second stage: both on its label
            t.aBms().forEach((node, aBm) -> aBms.merge(node, aBm, (a, b) -> a + " " + b));
            edges.addAll(t.edges());
            root = root == null ? t.root() : root;
        }
        return entry(p, root, aBms, edges);
    }

    /** One tree of phase {@code p}, every A-BM printed whole (the trees export). */
    public static InstalledTree of(Phase p, Phase.Tree tree) {
        return of(p, tree, Integer.MAX_VALUE);
    }

    private static InstalledTree of(Phase p, Phase.Tree tree, int maxPrintedBits) {
        JobTables[] lowest = lowest(tree);
        Map<String, String> aBms = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        String root = null;
        for (var e : tree.tables().entrySet()) {
            JobTables t = e.getValue();
            EndpointSet a = t.registered();
            if (a == null) {
                continue;
            }
            aBms.put(
                    e.getKey(),
                    a.capacity() <= maxPrintedBits
                            ? a.toString()
                            : "(" + a.cardinality() + " of " + a.capacity() + " bits)");
            if (t.root()) {
                root = e.getKey();
            }
            if (t.vatParent() != null) {
                edges.add(new Edge(e.getKey(), t.vatParent()));
            }
            for (int bit : a.indices()) {
                String endpoint = tree.bitSpace().endpoint(bit);
                if (endpoint != null && lowest[bit] == t) {
                    edges.add(new Edge(tree.bitSpace().node(bit), e.getKey()));
                }
            }
        }
        return entry(p, root, aBms, edges);
    }

    private static InstalledTree entry(Phase p, String root, Map<String, String> aBms, List<Edge> edges) {
        return new InstalledTree(
                p.job().name(),
                p.mode(),
                p.iteration() == null ? null : p.iteration().index(),
                root,
                aBms,
                edges);
    }

    /** Whether the phase installed no A-BM: its trees, if any, are the packets' own. */
    @JsonIgnore
    public boolean isEmpty() {
        return aBms.isEmpty();
    }

    /**
     * Per bit, the table whose A-BM is the smallest that holds it (the first of equal ones, in the tables'
     * order), found in one pass over the A-BMs instead of one pass per bit (O(N^2) at N bits).
     */
    private static JobTables[] lowest(Phase.Tree tree) {
        int capacity = 0;
        for (JobTables t : tree.tables().values()) {
            capacity = t.registered() == null
                    ? capacity
                    : Math.max(capacity, t.registered().capacity());
        }
        JobTables[] best = new JobTables[capacity];
        int[] size = new int[capacity];
        for (JobTables t : tree.tables().values()) {
            EndpointSet a = t.registered();
            if (a == null) {
                continue;
            }
            int n = a.cardinality();
            for (int bit : a.indices()) {
                if (best[bit] == null || n < size[bit]) {
                    best[bit] = t;
                    size[bit] = n;
                }
            }
        }
        return best;
    }
}
