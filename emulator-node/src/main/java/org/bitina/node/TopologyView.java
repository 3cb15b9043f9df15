package org.bitina.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;

/**
 * The topology drawn as SVG, laid out in layers by a node's distance from the nearest host
 * (hosts at the bottom; a fat-tree's edge, aggregation and core switches, a leaf-spine's leaves
 * and spines, each a row), each row ordered by the mean position of its neighbours below (ties
 * by name, numbers in names compared as numbers): deterministic, and a pod stays together.
 * Two views: the link load of one job and mode (a heat map) and the installed trees.
 */
final class TopologyView {
    private static final int ROW = 110;
    private static final int MARGIN = 40;

    private final Topology topology;
    private final Map<String, double[]> at = new LinkedHashMap<>();
    private final int width;
    private final int height;
    private final boolean small;

    TopologyView(Topology topology) {
        this.topology = topology;
        Map<String, Integer> level = levels(topology);
        int top = level.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<List<String>> rows = new ArrayList<>();
        for (int l = 0; l <= top; l++) {
            rows.add(new ArrayList<>());
        }
        level.forEach((n, l) -> rows.get(l).add(n));
        int widest = rows.stream().mapToInt(List::size).max().orElse(1);
        small = widest <= 24;
        width = Math.max(640, Math.min(1800, widest * (small ? 56 : 12) + 2 * MARGIN));
        height = top * ROW + 2 * MARGIN + 30;
        Map<String, Double> x = new HashMap<>();
        for (int l = 0; l <= top; l++) {
            List<String> row = rows.get(l);
            Map<String, Double> mean = new HashMap<>();
            for (String n : row) {
                double sum = 0;
                int k = 0;
                for (String m : topology.neighbors(n)) {
                    if (level.get(m) < l && x.containsKey(m)) {
                        sum += x.get(m);
                        k++;
                    }
                }
                mean.put(n, k == 0 ? Double.MAX_VALUE : sum / k);
            }
            row.sort(Comparator.<String>comparingDouble(mean::get).thenComparing(TopologyView::natural));
            for (int i = 0; i < row.size(); i++) {
                double px = MARGIN + (i + 0.5) * (width - 2.0 * MARGIN) / row.size();
                x.put(row.get(i), px);
                at.put(row.get(i), new double[] {px, MARGIN + 10 + (top - l) * (double) ROW});
            }
        }
    }

    /** Hosts 0; a switch one more than its nearest neighbour nearer the hosts (breadth first from every host). */
    static Map<String, Integer> levels(Topology t) {
        Map<String, Integer> level = new LinkedHashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>();
        for (Node h : t.hosts()) {
            level.put(h.name(), 0);
            queue.add(h.name());
        }
        if (queue.isEmpty() && !t.nodes().isEmpty()) {
            level.put(t.nodes().get(0).name(), 0);
            queue.add(t.nodes().get(0).name());
        }
        while (!queue.isEmpty()) {
            String n = queue.poll();
            for (String m : t.neighbors(n)) {
                if (!level.containsKey(m)) {
                    level.put(m, level.get(n) + 1);
                    queue.add(m);
                }
            }
        }
        for (Node n : t.nodes()) {
            level.putIfAbsent(n.name(), 0);
        }
        return level;
    }

    /** Names with their numbers compared as numbers: h2 before h10, agg-1-2 before agg-1-10. */
    static int natural(String a, String b) {
        String[] x = a.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
        String[] y = b.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = Character.isDigit(x[i].charAt(0)) && Character.isDigit(y[i].charAt(0))
                    ? Long.compare(
                            Long.parseLong(x[i].length() > 18 ? x[i].substring(0, 18) : x[i]),
                            Long.parseLong(y[i].length() > 18 ? y[i].substring(0, 18) : y[i]))
                    : x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    static String linkKey(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    /**
     * The link load of one job and mode: each link's colour and width from its bytes (both
     * directions) against the busiest link of this view; each switch filled by its peak
     * aggregation entries in this phase.
     */
    String heatMap(String id, Map<String, Long> bytes, Map<String, Integer> peaks) {
        long most = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        int mostState =
                peaks.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        StringBuilder b = open(id);
        for (Link l : topology.links()) {
            long v = bytes.getOrDefault(linkKey(l.a(), l.b()), 0L);
            double f = most == 0 ? 0 : (double) v / most;
            String title = l.a() + " - " + l.b() + ": " + HtmlReport.bytes(v);
            if (v == 0) {
                line(b, l.a(), l.b(), "#dddddd", 1, "3,3", title);
            } else {
                line(b, l.a(), l.b(), heat(f), 1.2 + 5 * f, null, title);
            }
        }
        nodes(b, n -> {
            Integer p = peaks.get(n);
            double f = p == null || mostState == 0 ? 0 : (double) p / mostState;
            return new String[] {
                p == null ? "#f4f4f4" : blue(f),
                n + (p == null ? "" : ": peak " + p + " aggregation entries"),
                small && p != null ? String.valueOf(p) : null
            };
        });
        legend(b, "link bytes: 0 .. " + HtmlReport.bytes(most) + "; switch fill: peak entries 0 .. " + mostState);
        return b.append("</svg>").toString();
    }

    /** One tree edge to draw: from a member or VAT node to where its results go, with a label on the child. */
    record TreeEdge(String from, String to) {}

    /**
     * The installed trees of one phase on the topology in grey: an arrow from each member and
     * VAT node to its parent, the VAT nodes marked and their A-BMs on hover (and on the label
     * when the topology is small).
     */
    String trees(String id, List<TreeEdge> edges, Map<String, String> labels, String root) {
        return trees(
                id,
                edges,
                labels,
                root,
                "A-BM ",
                "red: the VAT (arrows from each member and VAT node to its parent; A-BM on hover)"
                        + (root == null ? "" : "; root " + root));
    }

    /**
     * Trees on the topology in grey: an arrow per edge, child to parent, the labelled nodes marked
     * with their label on hover ({@code what} before it) and on the node when the topology is small.
     */
    String trees(String id, List<TreeEdge> edges, Map<String, String> labels, String root, String what, String legend) {
        StringBuilder b = open(id);
        for (Link l : topology.links()) {
            line(b, l.a(), l.b(), "#e2e2e2", 1, null, l.a() + " - " + l.b());
        }
        for (TreeEdge e : edges) {
            double[] p = at.get(e.from());
            double[] q = at.get(e.to());
            if (p == null || q == null) {
                continue;
            }
            // bent off the straight line, so that an edge between two nodes of one row does not run through the nodes
            // between
            double dx = q[0] - p[0];
            double dy = q[1] - p[1];
            double len = Math.max(1, Math.hypot(dx, dy));
            double bend = Math.min(40, 12 + 0.12 * len);
            b.append(String.format(
                    Locale.ROOT,
                    "<path class=\"tree\" d=\"M%.1f %.1f Q%.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"#c0392b\""
                            + " stroke-width=\"2\" marker-end=\"url(#%s-arrow)\"><title>%s -&gt; %s</title></path>",
                    p[0],
                    p[1],
                    (p[0] + q[0]) / 2 - dy / len * bend,
                    (p[1] + q[1]) / 2 + dx / len * bend,
                    q[0],
                    q[1],
                    id,
                    HtmlReport.esc(e.from()),
                    HtmlReport.esc(e.to())));
        }
        nodes(b, n -> {
            String label = labels.get(n);
            boolean isRoot = n.equals(root);
            return new String[] {
                label == null ? "#f4f4f4" : isRoot ? "#c0392b" : "#f5b7b1",
                n + (label == null ? "" : (isRoot ? " (root)" : "") + ": " + what + label),
                small && label != null ? label : null
            };
        });
        legend(b, legend);
        return b.append("</svg>").toString();
    }

    private StringBuilder open(String id) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                        + " font-family=\"sans-serif\" font-size=\"10\">",
                id,
                width,
                height,
                width,
                height));
        b.append("<defs><marker id=\"")
                .append(id)
                .append(
                        "-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\""
                                + " markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#c0392b\"/></marker></defs>");
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
        return b;
    }

    private void line(StringBuilder b, String a, String c, String colour, double w, String dash, String title) {
        double[] p = at.get(a);
        double[] q = at.get(c);
        b.append(String.format(
                Locale.ROOT,
                "<line class=\"link\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.2f\"%s>"
                        + "<title>%s</title></line>",
                p[0],
                p[1],
                q[0],
                q[1],
                colour,
                w,
                dash == null ? "" : " stroke-dasharray=\"" + dash + "\"",
                HtmlReport.esc(title)));
    }

    /** Every node: a switch a square, a host a circle; {@code style} gives fill, hover text and an optional label. */
    private void nodes(StringBuilder b, Function<String, String[]> style) {
        for (Node n : topology.nodes()) {
            double[] p = at.get(n.name());
            String[] s = style.apply(n.name());
            double r = n.isSwitch() ? (small ? 9 : 5) : (small ? 7 : 3);
            if (n.isSwitch()) {
                b.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"node switch\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\""
                                + " stroke=\"#555\"><title>%s</title></rect>",
                        p[0] - r,
                        p[1] - r,
                        2 * r,
                        2 * r,
                        s[0],
                        HtmlReport.esc(s[1])));
            } else {
                b.append(String.format(
                        Locale.ROOT,
                        "<circle class=\"node host\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"#555\">"
                                + "<title>%s</title></circle>",
                        p[0],
                        p[1],
                        r,
                        s[0],
                        HtmlReport.esc(s[1])));
            }
            if (small) {
                b.append(String.format(
                        Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
                        p[0],
                        p[1] + r + 11,
                        HtmlReport.esc(n.name())));
                if (s[2] != null) {
                    b.append(String.format(
                            Locale.ROOT,
                            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\" font-size=\"9\">%s</text>",
                            p[0],
                            p[1] - r - 3,
                            HtmlReport.esc(s[2])));
                }
            }
        }
    }

    private void legend(StringBuilder b, String text) {
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>",
                MARGIN,
                height - 8,
                HtmlReport.esc(text)));
    }

    /** Pale yellow to dark red. */
    private static String heat(double f) {
        int r = (int) Math.round(255 - 75 * f);
        int g = (int) Math.round(220 * (1 - f) + 20 * f);
        int bl = (int) Math.round(120 * (1 - f) + 30 * f);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, bl);
    }

    /** White to blue. */
    private static String blue(double f) {
        int r = (int) Math.round(235 - 200 * f);
        int g = (int) Math.round(242 - 140 * f);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, 255 - (int) Math.round(60 * f));
    }
}
