package org.bitina.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bitina.run.InstalledTree;
import org.bitina.run.Report;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecases.PhasePlanner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina export trees FILE.conf}: Graphviz DOT of the topology and of every job's
 * configured trees, as the control plane installs them (the same planning as a run): a VAT
 * node's A-BM on its label, an arrow from each VAT node and member to where its results go.
 * Trees that packets build at run time (C-BMs, INC trees) have no static shape: with
 * {@code --report} of a run of the file, the branches that run observed are drawn dashed
 * ({@link ObservedTreeView}); without, the file says where they are.
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description = "Exports a scenario's structure; `export trees FILE` writes Graphviz DOT.")
final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WHAT", description = "trees")
    String what;

    @Parameters(index = "1", paramLabel = "FILE", description = "scenario file (HOCON)")
    Path file;

    @Option(names = "--set", paramLabel = "PATH=VALUE", description = "change the scenario first (as for run)")
    List<String> sets;

    @Option(
            names = {"-o", "--out"},
            paramLabel = "DOT",
            description = "write here (default: standard output)")
    Path out;

    @Option(
            names = "--report",
            paramLabel = "REPORT.json",
            description = "a run's report of this file: draw the C-BM and INC trees it " + "observed (observedTrees[])")
    Path report;

    private static final String[] COLOURS = {
        "firebrick", "royalblue", "forestgreen", "darkorange", "purple", "teal", "goldenrod"
    };

    @Override
    public Integer call() throws IOException {
        if (!"trees".equals(what)) {
            System.err.println("bitina export: the one thing to export is 'trees', got '" + what + "'");
            return ExitCodes.INVALID_SCENARIO;
        }
        Scenario s = CliScenario.load(file, sets);
        if (s == null) {
            return ExitCodes.INVALID_SCENARIO;
        }
        String unwritable = OutputPaths.of(file).file("--out", out).problem();
        if (unwritable != null) {
            System.err.println(unwritable);
            return ExitCodes.USAGE;
        }
        List<Report.ObservedTree> observed = null;
        if (report != null) {
            try {
                JsonNode root = new ObjectMapper().readTree(report.toFile());
                JsonNode trees = root == null ? null : root.get("observedTrees");
                observed = trees == null
                        ? List.of()
                        : new ObjectMapper()
                                .readerForListOf(Report.ObservedTree.class)
                                .readValue(trees);
            } catch (IOException e) {
                System.err.println("bitina export: cannot read the report " + report + ": " + e.getMessage());
                return ExitCodes.INVALID_SCENARIO;
            }
        }
        List<Phase> phases = PhasePlanner.plan(s, Routing.compute(s.topology()));
        if (out == null) {
            write(s, phases, observed, System.out);
        } else {
            try (PrintStream p = new PrintStream(Files.newOutputStream(out), true, StandardCharsets.UTF_8)) {
                write(s, phases, observed, p);
            }
            System.out.println("trees: " + out + " (render with: dot -Tsvg " + out + " -o trees.svg)");
        }
        return ExitCodes.OK;
    }

    static void write(Scenario s, List<Phase> phases, PrintStream o) {
        write(s, phases, null, o);
    }

    /** @param observed the observed trees of a run's report, or null when none was given */
    static void write(Scenario s, List<Phase> phases, List<Report.ObservedTree> observed, PrintStream o) {
        o.println("digraph bitina {");
        o.println("  // " + s.file()
                + ": the topology (grey) and each job's trees as installed, one colour a job and mode");
        o.println("  node [fontname=\"Helvetica\", fontsize=10]; edge [fontname=\"Helvetica\", fontsize=8];");
        for (Node n : s.topology().nodes()) {
            o.printf("  %s [shape=%s];%n", id(n.name()), n.isSwitch() ? "box" : "ellipse");
        }
        // Graphviz ranks an edge's tail above its head: each tree edge is written parent -> child with dir=back
        // (the arrow still points at the parent), so a tree's root is on top; a topology link runs from the upper
        // tier down, and leaves the ranking to the trees where both its ends are in one
        Map<String, Integer> tier = TopologyView.tiers(s.topology());
        Set<String> inTrees = treeNodes(phases);
        for (Link l : s.topology().links()) {
            boolean down = tier.get(l.a()) >= tier.get(l.b());
            o.printf(
                    "  %s -> %s [dir=none, color=grey80%s];%n",
                    id(down ? l.a() : l.b()),
                    id(down ? l.b() : l.a()),
                    inTrees.contains(l.a()) && inTrees.contains(l.b()) ? ", constraint=false" : "");
        }
        int colour = 0;
        for (Phase p : phases) {
            if (!p.mode().inNetwork()) {
                continue;
            }
            String job = p.job().name()
                    + (p.iteration() == null
                            ? ""
                            : " iteration " + p.iteration().index());
            String c = COLOURS[colour++ % COLOURS.length];
            boolean any = false;
            // every tree of the phase (over partitions, H2: the second stage and each partition's) in the job's colour;
            // a node holding A-BMs of two trees gets one label naming both (DOT keeps only a node's last label)
            Map<String, String> labels = new LinkedHashMap<>();
            for (Phase.Tree tree : p.trees()) {
                String name = p.more().isEmpty()
                        ? job
                        : job + (tree.wireJob() == p.wireJob() ? " second stage" : " " + tree.name());
                InstalledTree trees = InstalledTree.of(p, tree);
                any |= !trees.isEmpty();
                trees.aBms()
                        .forEach((node, aBm) -> labels.merge(
                                node,
                                name + (node.equals(trees.root()) ? " root" : "") + "\\nA-BM " + aBm,
                                (x, y) -> x + "\\n" + y));
                for (InstalledTree.Edge e : trees.edges()) {
                    boolean member = !trees.aBms().containsKey(e.from());
                    o.printf(
                            "  %s -> %s [dir=back, color=%s, penwidth=2%s];%n",
                            id(e.to()), id(e.from()), c, member ? "" : ", label=\"" + name + "\"");
                }
            }
            if (observed != null) {
                ObservedTreeView v = ObservedTreeView.of(
                        ObservedTreeView.of(
                                observed,
                                p.job().name(),
                                p.mode(),
                                p.iteration() == null ? null : p.iteration().index()),
                        p.job().common().bitSpace());
                v.labels()
                        .forEach((node, label) ->
                                labels.merge(node, job + " observed " + label, (x, y) -> x + "\\n" + y));
                for (TopologyView.TreeEdge e : v.edges()) {
                    o.printf(
                            "  %s -> %s [dir=back, color=%s, penwidth=2, style=dashed, label=\"%s observed\"];%n",
                            id(e.to()), id(e.from()), c, job);
                }
                any |= !v.isEmpty();
            }
            labels.forEach((node, label) -> o.printf("  %s [xlabel=\"%s\", fontcolor=%s];%n", id(node), label, c));
            if (!any) {
                o.println("  // " + job
                        + (observed == null
                                ? ": no configured tree (C-BMs or INC trees are built by its packets at run time: "
                                        + "--report REPORT.json of a run draws what it observed)"
                                : ": no configured tree, and the report observed none"));
            }
        }
        o.println("}");
    }

    /** Every node on an installed tree of an INA phase. */
    private static Set<String> treeNodes(List<Phase> phases) {
        Set<String> out = new HashSet<>();
        for (Phase p : phases) {
            if (p.mode().inNetwork()) {
                for (Phase.Tree tree : p.trees()) {
                    InstalledTree.of(p, tree).edges().forEach(e -> {
                        out.add(e.from());
                        out.add(e.to());
                    });
                }
            }
        }
        return out;
    }

    private static String id(String name) {
        return "\"" + name.replace("\"", "\\\"") + "\"";
    }
}
