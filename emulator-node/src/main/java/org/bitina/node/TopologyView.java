package org.bitina.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
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

    /** The widest drawing that fits a page 1,400 px wide beside its margins. */
    static final int MAX_WIDTH = 1280;

    private static final int BAR = 46;

    private final Topology topology;
    private final Map<String, double[]> at = new LinkedHashMap<>();
    /** Horizontal room per node in its row: what decides whether its name fits under it. */
    private final Map<String, Double> room = new HashMap<>();

    private final int width;
    private final int height;
    private final boolean small;

    TopologyView(Topology topology) {
        this.topology = topology;
        Map<String, Integer> level = tiers(topology);
        int top = level.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        List<List<String>> rows = new ArrayList<>();
        for (int l = 0; l <= top; l++) {
            rows.add(new ArrayList<>());
        }
        level.forEach((n, l) -> rows.get(l).add(n));
        int widest = rows.stream().mapToInt(List::size).max().orElse(1);
        small = widest <= 24;
        width = Math.max(640, Math.min(MAX_WIDTH, widest * (small ? 56 : 12) + 2 * MARGIN));
        height = top * ROW + 2 * MARGIN + 30 + BAR;
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
            double gap = (width - 2.0 * MARGIN) / row.size();
            for (int i = 0; i < row.size(); i++) {
                double px = MARGIN + (i + 0.5) * gap;
                x.put(row.get(i), px);
                room.put(row.get(i), gap);
                at.put(row.get(i), new double[] {px, MARGIN + 10 + (top - l) * (double) ROW});
            }
        }
    }

    /**
     * The rows to draw: {@link #levels}, then a switch with more links to switches of its own row
     * than to the row below lifted one row (Fig. 2's s0 over s1 and s7, as the seed draws it), and
     * a host under no bottom-row switch (Fig. 2's source, under s0) drawn on top, as the tree's
     * root. A fat-tree or leaf-spine keeps its tiers: no switch there links within its row.
     */
    static Map<String, Integer> tiers(Topology t) {
        Map<String, Integer> level = levels(t);
        Map<String, Integer> lifted = new LinkedHashMap<>(level);
        for (Node n : t.nodes()) {
            if (!n.isSwitch()) {
                continue;
            }
            int l = level.get(n.name());
            long same = t.neighbors(n.name()).stream()
                    .filter(m -> level.get(m) == l && isSwitch(t, m))
                    .count();
            long below =
                    t.neighbors(n.name()).stream().filter(m -> level.get(m) < l).count();
            if (same >= 2 && same > below) {
                lifted.put(n.name(), l + 1);
            }
        }
        if (lifted.equals(level)) {
            return level;
        }
        int top = lifted.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        for (Node h : t.hosts()) {
            boolean underBottom = t.neighbors(h.name()).stream().anyMatch(m -> lifted.get(m) <= 1);
            if (!underBottom) {
                lifted.put(h.name(), top + 1);
            }
        }
        return lifted;
    }

    private static boolean isSwitch(Topology t, String name) {
        return t.nodes().stream().anyMatch(n -> n.name().equals(name) && n.isSwitch());
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

    /**
     * Whether the drawing is too big to read at page width (more than 24 nodes in a row: names at 7-8 px or
     * upright, shapes of 3-5 px), so that the page gives it a {@link ZoomControl}.
     */
    boolean zoomable() {
        return !small;
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
        return heatMap(
                id,
                bytes,
                peaks,
                bytes.values().stream().mapToLong(Long::longValue).max().orElse(0),
                peaks.values().stream().mapToInt(Integer::intValue).max().orElse(0));
    }

    /**
     * The link load of one job and mode on a scale shared with the job's other modes: {@code
     * most} bytes is the darkest link and {@code mostState} entries the darkest switch, so that
     * two modes side by side compare; the colour bars under the drawing give both scales.
     */
    String heatMap(String id, Map<String, Long> bytes, Map<String, Integer> peaks, long most, int mostState) {
        StringBuilder b = open(id);
        b.append("<defs>")
                .append(gradient(id + "-heat", TopologyView::heat))
                .append(gradient(id + "-fill", TopologyView::blue))
                .append("</defs>");
        for (Link l : topology.links()) {
            long v = bytes.getOrDefault(linkKey(l.a(), l.b()), 0L);
            double f = most == 0 ? 0 : Math.min(1, (double) v / most);
            String title = l.a() + " - " + l.b() + ": " + Units.bytes(v);
            if (v == 0) {
                line(b, l.a(), l.b(), "#dddddd", 1, "3,3", title);
            } else {
                line(b, l.a(), l.b(), heat(f), 1.2 + 5 * f, null, title);
            }
        }
        nodes(b, n -> {
            Integer p = peaks.get(n);
            double f = p == null || mostState == 0 ? 0 : Math.min(1, (double) p / mostState);
            return new String[] {
                p == null ? "#f4f4f4" : blue(f),
                n + (p == null ? "" : ": peak " + p + " aggregation entries"),
                small && p != null ? String.valueOf(p) : null
            };
        });
        colourBar(b, id + "-heat", MARGIN, "link bytes (both directions)", "0 B", Units.bytes(most));
        if (mostState > 0) {
            colourBar(
                    b,
                    id + "-fill",
                    MARGIN + 330,
                    "switch fill: peak aggregation entries",
                    "0",
                    String.valueOf(mostState));
        }
        return b.append("</svg>").toString();
    }

    private static String gradient(String id, DoubleFunction<String> colour) {
        StringBuilder g = new StringBuilder("<linearGradient id=\"" + id + "\">");
        for (int i = 0; i <= 4; i++) {
            g.append(String.format(
                    Locale.ROOT, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", i * 25, colour.apply(i / 4.0)));
        }
        return g.append("</linearGradient>").toString();
    }

    /** A colour bar of class {@code colour-bar}: the gradient, its two ends in their unit, and what it measures. */
    private void colourBar(StringBuilder b, String gradient, int x, String what, String low, String high) {
        int y = height - BAR + 4;
        b.append(String.format(
                Locale.ROOT,
                "<g class=\"colour-bar\"><text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>"
                        + "<rect x=\"%d\" y=\"%d\" width=\"200\" height=\"10\" fill=\"url(#%s)\" stroke=\"#999\"/>"
                        + "<text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>"
                        + "<text x=\"%d\" y=\"%d\" fill=\"#444\" text-anchor=\"end\">%s</text></g>",
                x,
                y,
                HtmlReport.esc(what),
                x,
                y + 5,
                gradient,
                x,
                y + 27,
                HtmlReport.esc(low),
                x + 200,
                y + 27,
                HtmlReport.esc(high)));
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
            name(b, n, p, r);
            if (small) {
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

    /**
     * A node's name under it where it fits its room in the row: at 10 px, else at 8 or 7 px, else (a
     * host, in the bottom row with room below) turned upright; else only on hover.
     */
    private void name(StringBuilder b, Node n, double[] p, double r) {
        double gap = room.getOrDefault(n.name(), 0.0) - 2;
        int len = n.name().length();
        String text = HtmlReport.esc(n.name());
        if (len * 6.0 <= gap) {
            b.append(String.format(
                    Locale.ROOT,
                    "<text class=\"name\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
                    p[0],
                    p[1] + r + 11,
                    text));
        } else if (len * 4.4 <= gap || len * 3.9 <= gap) {
            // 8 px, or 7 px where only that fits (a k=8 fat-tree's 32 edge switches in 1,200 px)
            b.append(String.format(
                    Locale.ROOT,
                    "<text class=\"name\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%d\">%s</text>",
                    p[0],
                    p[1] + r + 9,
                    len * 4.4 <= gap ? 8 : 7,
                    text));
        } else if (!n.isSwitch() && gap >= 7 && p[1] >= height - BAR - MARGIN - 40) {
            b.append(String.format(
                    Locale.ROOT,
                    "<text class=\"name\" transform=\"translate(%.1f %.1f) rotate(90)\" font-size=\"8\""
                            + " dominant-baseline=\"middle\">%s</text>",
                    p[0],
                    p[1] + r + 2,
                    text));
        }
    }

    private void legend(StringBuilder b, String text) {
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" fill=\"#444\">%s</text>",
                MARGIN,
                height - BAR - 8,
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
