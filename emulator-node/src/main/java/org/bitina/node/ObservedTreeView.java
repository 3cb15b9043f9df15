package org.bitina.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.job.Mode;
import org.bitina.run.Report;
import org.bitina.topology.BitSpace;

/**
 * The trees a phase's packets built (C-BMs, INC trees), as the report observed them and the page
 * and the DOT export draw them: each switch that installed a branch, labelled with the union of
 * its branches' bits and installs; an edge from it to each node upstream it sent aggregates to;
 * and one from each endpoint to the lowest such switch whose union holds its bit (as for the
 * A-BMs in {@link InstalledTrees}). Unions over the phase, so a tree that changed (a reroute,
 * several token groups) is drawn as everything it ever was, and named so.
 *
 * @param labels    switch to what it held, {@code C-BM [01100110] x12}
 * @param edges     child to upstream
 * @param mechanism {@code C-BM}, {@code INC}, or both
 * @param switches  how many switches installed a branch
 */
record ObservedTreeView(Map<String, String> labels, List<TopologyView.TreeEdge> edges, String mechanism, int switches) {

    /** The observed branches of one job, mode and iteration (null: a job that runs once). */
    static List<Report.ObservedTree> of(Report r, String job, Mode mode, Integer iteration) {
        return of(r.observedTrees(), job, mode, iteration);
    }

    /** Those of {@code all} that belong to one job, mode and iteration (null: a job that runs once). */
    static List<Report.ObservedTree> of(List<Report.ObservedTree> all, String job, Mode mode, Integer iteration) {
        return all.stream()
                .filter(t -> t.job().equals(job) && t.mode().equals(mode) && Objects.equals(t.iteration(), iteration))
                .toList();
    }

    /** The view of {@code branches}, the endpoints placed by {@code space} (the job's bit space). */
    static ObservedTreeView of(List<Report.ObservedTree> branches, BitSpace space) {
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, EndpointSet> unions = new LinkedHashMap<>();
        Set<TopologyView.TreeEdge> edges = new LinkedHashSet<>();
        Set<String> mechanisms = new LinkedHashSet<>();
        for (Report.ObservedTree b : branches) {
            mechanisms.add(b.mechanism());
            labels.merge(
                    b.node(),
                    b.mechanism() + " " + (b.bits() != null ? b.bits() : "(bits not printed)") + " x" + b.installs(),
                    (x, y) -> x + " " + y);
            if (b.bits() != null) { // past ObservedTrees.MAX_PRINTED_BITS only the branch's arrow upstream is drawn
                unions.merge(b.node(), EndpointSets.parse(b.bits()), EndpointSet::or);
            }
            if (!b.upstream().equals(b.node())) {
                edges.add(new TopologyView.TreeEdge(b.node(), b.upstream()));
            }
        }
        for (int bit = 0; space != null && bit < space.capacity(); bit++) {
            String endpoint = space.endpoint(bit);
            if (endpoint == null) {
                continue;
            }
            String lowest = null;
            int size = Integer.MAX_VALUE;
            for (Map.Entry<String, EndpointSet> u : unions.entrySet()) {
                if (u.getValue().capacity() > bit
                        && u.getValue().contains(bit)
                        && u.getValue().cardinality() < size) {
                    lowest = u.getKey();
                    size = u.getValue().cardinality();
                }
            }
            String node = space.node(bit);
            if (lowest != null && !lowest.equals(node)) {
                edges.add(new TopologyView.TreeEdge(node, lowest));
            }
        }
        return new ObservedTreeView(labels, new ArrayList<>(edges), String.join(" and ", mechanisms), labels.size());
    }

    boolean isEmpty() {
        return labels.isEmpty();
    }
}
