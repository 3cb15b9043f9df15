package org.bitina.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.bitina.job.Mode;
import org.bitina.run.InstalledTree;
import org.bitina.run.LinkScope;
import org.bitina.run.Report;
import org.bitina.scenario.Scenario;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.KindReport;

/**
 * {@code --html report.html}: one self-contained page (nothing loaded at view time; one inline
 * script, the {@link ZoomControl} of drawings too big to read at page width):
 * the summary table, INA against the baselines, and per job the completion-time CDF, the
 * soft state over modelled time with the faults on the axis, the link load on the topology per
 * mode and the installed trees. Every figure is a {@code <figure class="chart">} holding one
 * inline SVG, from the report (and, for the trees, the same planning as a run).
 */
final class HtmlReport {
    private HtmlReport() {}

    static void write(Report r, Scenario s, Path file) throws IOException {
        write(r, s, file, "");
    }

    /** The page with {@code section} (HTML) after its answer: a repeated run's intervals over the first run's page. */
    static void write(Report r, Scenario s, Path file, String section) throws IOException {
        Files.writeString(file, page(r, s, section), StandardCharsets.UTF_8);
    }

    static String page(Report r, Scenario s) {
        return page(r, s, "");
    }

    private static String page(Report r, Scenario s, String section) {
        StringBuilder b = new StringBuilder(1 << 16);
        head(b, "bitina: " + r.scenario());
        b.append("<h1>")
                .append(esc(r.scenario()))
                .append("</h1>\n<p class=\"meta\">clock: ")
                .append(esc(r.clock()))
                .append(" (times are modelled network time)")
                .append(
                        r.allAsExpected()
                                ? "; every job ended as the scenario expects"
                                : "; <b class=\"no\">some jobs did not end as the scenario expects</b>")
                .append("</p>\n");
        b.append("<div class=\"answer\">");
        Answer.sentences(r)
                .forEach(a ->
                        b.append("<p class=\"answer-sentence\">").append(esc(a)).append("</p>"));
        b.append("</div>\n").append(section);
        int[] n = {0};
        // a workload's answer is its iterations: the rank timelines first, its hundred collective rows folded
        // away and a section for one collective per kind (a page per collective was 13 MB, its bar labels "...")
        boolean workload = r.iterations() != null && !r.iterations().isEmpty();
        if (workload) {
            WorkloadTimeline.append(b, r);
            b.append("<details class=\"rows\"><summary>")
                    .append(r.jobs().size())
                    .append(" job rows: each collective of each iteration, per world (the report, --csv and the"
                            + " console's --verbose hold the same)</summary>\n");
            summary(b, r);
            kindFigures(b, r);
            b.append("</details>\n");
        } else {
            summary(b, r);
            kindFigures(b, r);
            comparison(b, r, n);
        }
        SharedGantt.append(b, r);
        TopologyView view = new TopologyView(s.topology());
        worldHeatMaps(b, r, view, n);
        TrafficSummary.append(b, r);
        PoolChart.append(b, r);
        QueueChart.append(b, r);
        PaceChart.append(b, r);
        for (String job : workload ? firstOfEachKind(r) : jobs(r)) {
            List<Report.JobReport> rows =
                    r.jobs().stream().filter(j -> j.name().equals(job)).toList();
            b.append("<section class=\"job\"><h2>job ")
                    .append(esc(job))
                    .append(" (")
                    .append(esc(rows.get(0).kind()))
                    .append(")</h2>\n");
            if (workload) {
                long like = jobs(r).stream()
                        .filter(o -> r.jobs().stream()
                                .anyMatch(j -> j.name().equals(o)
                                        && j.kind().equals(rows.get(0).kind())))
                        .count();
                b.append("<p class=\"meta\">The first of the workload's ")
                        .append(like)
                        .append(" ")
                        .append(esc(rows.get(0).kind()))
                        .append(" collectives, drawn as an example: every collective's figures are in the job rows"
                                + " above, the report and the CSV.</p>\n");
            }
            timeViews(b, rows, n);
            // one colour scale for every mode of the job: the busiest link and the fullest switch of any mode
            Map<Mode, Map<String, Long>> bytesByMode = new LinkedHashMap<>();
            Map<Mode, Map<String, Integer>> peaksByMode = new LinkedHashMap<>();
            for (Report.JobReport j : rows) {
                if (bytesByMode.containsKey(j.mode())) {
                    continue; // links[] has no iteration: one map holds every iteration of the mode
                }
                Map<String, Long> bytes = new LinkedHashMap<>();
                r.links().stream()
                        .filter(l -> l.job().equals(job) && l.mode().equals(new LinkScope.OfMode(j.mode())))
                        .forEach(l -> bytes.merge(TopologyView.linkKey(l.from(), l.to()), l.bytes(), Long::sum));
                Map<String, Integer> peaks = new LinkedHashMap<>();
                rows.stream()
                        .filter(x -> x.mode().equals(j.mode()) && x.timing().stateEntries() != null)
                        .forEach(
                                x -> x.timing().stateEntries().peaks().forEach((k, v) -> peaks.merge(k, v, Math::max)));
                bytesByMode.put(j.mode(), bytes);
                peaksByMode.put(j.mode(), peaks);
            }
            long most = bytesByMode.values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(0);
            int mostState = peaksByMode.values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToInt(Integer::intValue)
                    .max()
                    .orElse(0);
            for (Report.JobReport j : rows) {
                if (j.plan().iteration() != null && j.plan().iteration().index() > 1) {
                    continue; // links[] has no iteration: one map holds every iteration of the mode
                }
                if (j.shared() != null && !j.shared().alone()) {
                    continue; // a job's own links[] are its alone run's; the mix's are its world's (worldHeatMaps)
                }
                String what = j.plan().iteration() == null
                        ? label(j) + " (" + bytes(j.traffic().totalLinkBytes()) + " in all, busiest link "
                                + bytes(j.traffic().maxLinkBytes()) + ")"
                        : j.mode() + ", its " + j.plan().iteration().of()
                                + " iterations together (links[] is per job and mode)";
                String id = "svg" + n[0]++;
                figure(
                        b,
                        "heat-" + job + "-" + j.mode(),
                        "link load, " + what + "; one colour scale for every mode of the job",
                        zoom(view, id)
                                + view.heatMap(
                                        id, bytesByMode.get(j.mode()), peaksByMode.get(j.mode()), most, mostState));
            }
            trees(b, r, job, rows, bitSpace(s, job), view, n);
            b.append("</section>\n");
        }
        if (b.indexOf("class=\"zoom-control\"") >= 0) {
            b.append(ZoomControl.SCRIPT);
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    static void head(StringBuilder b, String title) {
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title))
                .append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1900px}")
                .append(".summary td.l{overflow-wrap:anywhere}")
                // short cells never break inside a word ("complet e"): the note and the missing list take the squeeze
                .append(".summary td{white-space:nowrap}.summary td.note,.summary td.missing{white-space:normal}")
                .append(
                        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}")
                .append("td.l,th.l{text-align:left}th{background:#f0f0f0}.no{color:#c0392b}.ok{color:#1e8449}")
                .append("figure.chart{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}")
                .append("figcaption{font-size:13px;color:#444;max-width:900px}.meta,.legend{color:#555;font-size:13px}")
                .append(
                        "section.job{border-top:2px solid #ddd;margin-top:1.5em}td.note{max-width:420px;text-align:left;font-size:11px;overflow-wrap:anywhere}")
                // nothing wider than the page: a drawing wider than its room scales down (it is vector: zoom in to read
                // it)
                .append("figure.chart{max-width:100%}figure.chart svg{max-width:100%;height:auto}")
                .append(
                        ".answer p{font-size:17px;margin:.3em 0}.answer{margin:.8em 0 1em;padding:.2em .8em;border-left:4px solid #1f77b4}")
                .append(ZoomControl.STYLE)
                .append("\n</style></head><body>\n");
    }

    /** The first job of each kind, in the report's order: a workload's sections, one per kind of collective. */
    private static List<String> firstOfEachKind(Report r) {
        Map<String, String> first = new LinkedHashMap<>();
        r.jobs().forEach(j -> first.putIfAbsent(j.kind(), j.name()));
        return List.copyOf(first.values());
    }

    private static List<String> jobs(Report r) {
        List<String> out = new ArrayList<>();
        r.jobs().forEach(j -> {
            if (!out.contains(j.name())) {
                out.add(j.name());
            }
        });
        return out;
    }

    /** A row's name in tables and charts: its mode, its iteration, and in a shared run whether it is the mix or alone. */
    private static String label(Report.JobReport j) {
        return j.mode()
                + (j.plan().iteration() == null
                        ? ""
                        : " #" + j.plan().iteration().index())
                + (j.shared() == null ? "" : j.shared().alone() ? SvgCharts.ALONE : " (mix)");
    }

    /** The rows, a shared run's mix before its alone runs: the mix is what the page is about, alone its reference. */
    private static List<Report.JobReport> mixFirst(List<Report.JobReport> rows) {
        return rows.stream()
                .sorted(Comparator.comparing(
                        j -> j.shared() != null && j.shared().alone()))
                .toList();
    }

    private static void summary(StringBuilder b, Report r) {
        b.append(
                "<table class=\"summary\"><tr><th class=\"l\">job</th><th class=\"l\">kind</th><th class=\"l\">mode</th><th class=\"l\">status</th>"
                        + "<th class=\"l\">expected</th><th>verified</th><th>modelled time</th><th>max link</th><th>total bytes</th>"
                        + "<th>packets into root</th><th>busiest host</th><th>timeouts</th><th class=\"l\">missing</th><th class=\"l\">note</th></tr>\n");
        for (Report.JobReport j : r.jobs()) {
            String note = j.outcome().note() == null ? "" : j.outcome().note();
            b.append("<tr><td class=\"l\">")
                    .append(esc(j.name()))
                    .append("</td><td class=\"l\">")
                    .append(esc(j.kind()))
                    .append("</td><td class=\"l\">")
                    .append(esc(label(j)))
                    .append("</td><td class=\"l\">")
                    .append(esc(j.outcome().status().label()))
                    .append("</td><td class=\"l\">")
                    .append(esc(j.outcome().expected()))
                    .append(j.outcome().asExpected() ? " <span class=\"ok\">ok</span>" : " <b class=\"no\">NO</b>")
                    .append("</td><td>")
                    .append(j.outcome().verified() ? "yes" : "<b class=\"no\">no</b>")
                    .append("</td><td>")
                    .append(micros(j.timing().modeledMicros()))
                    .append("</td><td>")
                    .append(bytes(j.traffic().maxLinkBytes()))
                    .append("</td><td>")
                    .append(bytes(j.traffic().totalLinkBytes()))
                    .append("</td><td>")
                    .append(j.traffic().packetsIntoRoot())
                    .append("</td><td class=\"busiest\">")
                    .append(
                            j.traffic().busiestHost() == null
                                    ? "-"
                                    : esc(j.traffic().busiestHost()) + ": "
                                            + j.traffic().maxPacketsIntoHost())
                    .append("</td><td>")
                    .append(j.counts().timeouts())
                    .append("</td><td class=\"l missing\">")
                    .append(esc(Hosts.summary(j.outcome().missing())))
                    .append("</td><td class=\"note\" title=\"")
                    .append(esc(note))
                    .append("\">")
                    .append(esc(note.length() > 160 ? note.substring(0, 157) + "..." : note))
                    .append("</td></tr>\n");
        }
        b.append("</table>\n<p class=\"legend\">ina: in-network aggregation; " + Summary.baselineNames()
                + ": the host baselines on the same "
                + "topology; expected: what the fault plan or the file's expect { } says, ok or NO; packets into root: what the VAT root, "
                + "parameter server or source received (for a ring, the busiest member); busiest host: the host "
                + "that received the most packets and how many, the same measure in every mode (the bars);"
                + " KiB = 1024 B.</p>\n");
    }

    /**
     * Each kind's own figures (its report part, {@link KindReport}), a row per job and mode that has
     * them: the headline metric first (MoE's source uplink, multicast's ACK packets into the source,
     * BIER-INC's tree entries), then the others, and what the kind says they mean.
     */
    private static void kindFigures(StringBuilder b, Report r) {
        List<Report.JobReport> rows = r.jobs().stream()
                .filter(j -> !KindFigures.of(j.kindReport()).isEmpty())
                .toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append("<table class=\"kind-figures\"><tr><th class=\"l\">job</th><th class=\"l\">kind</th>"
                + "<th class=\"l\">mode</th><th class=\"l\">headline</th><th>value</th>"
                + "<th class=\"l\">the kind's other figures</th></tr>\n");
        List<String> notes = new ArrayList<>();
        for (Report.JobReport j : rows) {
            List<KindReport.Figure> f = j.kindReport().figures();
            KindReport.Figure head = f.get(0);
            b.append("<tr><td class=\"l\">")
                    .append(esc(j.name()))
                    .append("</td><td class=\"l\">")
                    .append(esc(j.kind()))
                    .append("</td><td class=\"l\">")
                    .append(esc(label(j)))
                    .append("</td><td class=\"l\" data-figure=\"")
                    .append(esc(head.key()))
                    .append("\">")
                    .append(esc(head.label() + (head.detail() == null ? "" : " (" + head.detail() + ")")))
                    .append("</td><td>")
                    .append(esc(KindFigures.value(head)))
                    .append("</td><td class=\"l\">")
                    .append(esc(f.subList(1, f.size()).stream()
                            .map(KindFigures::text)
                            .collect(Collectors.joining(", "))))
                    .append("</td></tr>\n");
            String note = j.kindReport().note();
            if (note != null && !notes.contains(note)) {
                notes.add(note);
            }
        }
        b.append("</table>\n");
        for (String note : notes) {
            b.append("<p class=\"legend\">").append(esc(note)).append("</p>\n");
        }
    }

    /** A metric of the comparison charts: its title, its unit ({@code us}, {@code bytes}, {@code packets}), its value. */
    private record Metric(String title, String unit, ToDoubleFunction<Report.JobReport> value) {}

    private static final List<Metric> METRICS = List.of(
            new Metric("modelled time", "us", jr -> jr.timing().modeledMicros()),
            new Metric("max link bytes", "bytes", j -> j.traffic().maxLinkBytes()),
            new Metric("total link bytes", "bytes", j -> j.traffic().totalLinkBytes()),
            // the same measure in every mode: a ring has no root, and its busiest member beside INA's root switch
            // compared two different things
            new Metric(
                    "packets into the busiest host", "packets", j -> j.traffic().maxPacketsIntoHost()));

    /**
     * INA against the baselines: one chart per metric, a group per job, a bar per mode with its
     * value on it (a log axis where the values span a factor of 100); then per job with
     * baselines, INA over each baseline, metric by metric (below 1: INA needed less).
     */
    private static void comparison(StringBuilder b, Report r, int[] n) {
        List<String> jobs = jobs(r);
        b.append("<h2>INA against the baselines</h2>\n");
        for (Metric m : METRICS) {
            Map<String, Map<String, Double>> values = new LinkedHashMap<>();
            for (Report.JobReport j : mixFirst(r.jobs())) {
                values.computeIfAbsent(label(j), k -> new LinkedHashMap<>())
                        .put(j.name(), m.value().applyAsDouble(j));
            }
            figure(
                    b,
                    "bars-" + m.title().replace(' ', '-'),
                    m.title() + " per job and mode" + (m.unit().equals("packets") ? busiest(r) : ""),
                    SvgCharts.bars("svg" + n[0]++, m.title(), m.unit(), jobs, values));
        }
        for (String job : jobs) {
            Map<String, Map<String, Double>> ratios = Ratios.of(
                    r,
                    job,
                    METRICS.subList(0, 3).stream()
                            .map(m -> Map.entry(m.title(), m.value()))
                            .toList());
            if (ratios.isEmpty()) {
                continue;
            }
            figure(
                    b,
                    "ratio-" + job,
                    "job " + job
                            + ": INA's figure over each baseline's (below 1: INA took less time, moved fewer bytes;"
                            + " 0.5 is half)",
                    SvgCharts.ratios(
                            "svg" + n[0]++,
                            "ina / baseline, job " + job,
                            METRICS.subList(0, 3).stream().map(Metric::title).toList(),
                            ratios));
        }
    }

    /**
     * Which host each bar of "packets into the busiest host" counts: " (packets; the most any one host of the phase
     * received, acknowledgements included, the same in every mode: fig1 ina w1, ring w2, ps w1)".
     */
    private static String busiest(Report r) {
        Map<String, List<String>> byJob = new LinkedHashMap<>();
        for (Report.JobReport j : r.jobs()) {
            if (j.traffic().busiestHost() != null) {
                byJob.computeIfAbsent(j.name(), k -> new ArrayList<>())
                        .add(label(j) + " " + j.traffic().busiestHost());
            }
        }
        return " (packets; the most any one host of the phase received, acknowledgements included, the same measure"
                + " in every mode; the summary's packets into root counts each mode's own root: "
                + byJob.entrySet().stream()
                        .map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
                        .collect(Collectors.joining("; "))
                + ")";
    }

    /** Per job: when its chunks completed (a CDF per mode) and the soft state over modelled time, faults marked on both. */
    private static void timeViews(StringBuilder b, List<Report.JobReport> rows, int[] n) {
        String job = rows.get(0).name();
        Map<String, List<double[]>> cdf = new LinkedHashMap<>();
        Map<String, List<double[]>> entries = new LinkedHashMap<>();
        List<Report.FaultMark> faults = new ArrayList<>();
        String unit = "chunk";
        StringBuilder caption = new StringBuilder();
        for (Report.JobReport j : mixFirst(rows)) {
            j.timing().faults().forEach(f -> {
                if (!faults.contains(f)) {
                    faults.add(f);
                }
            });
            Report.Completion c = j.timing().completion();
            if (c != null && c.completed() > 0) {
                unit = c.unit();
                List<double[]> pts = new ArrayList<>();
                pts.add(new double[] {c.minMicros(), 0});
                pts.addAll(c.cdf());
                cdf.put(label(j), pts);
                caption.append(String.format(
                        Locale.ROOT,
                        "%s: %d of %d %ss, p50 %s, p99 %s, max %s. ",
                        label(j),
                        c.completed(),
                        c.units(),
                        c.unit(),
                        micros(c.p50Micros()),
                        micros(c.p99Micros()),
                        micros(c.maxMicros())));
            } else if (c != null) {
                caption.append(label(j)).append(": no ").append(c.unit()).append(" completed at every endpoint. ");
            }
            Report.StateEntries e = j.timing().stateEntries();
            if (e != null) {
                List<double[]> pts = new ArrayList<>();
                for (int i = 0; i < e.total().size(); i++) {
                    pts.add(new double[] {i * e.bucketMicros(), e.total().get(i)});
                }
                pts.add(new double[] {e.total().size() * e.bucketMicros(), 0});
                entries.put(label(j), pts);
            }
        }
        if (!cdf.isEmpty()) {
            figure(
                    b,
                    "cdf-" + job,
                    "per-" + unit + " completion time: a " + unit
                            + " completes when the last endpoint has its result (from an " + "HdrHistogram). " + caption
                            + faultNote(faults),
                    SvgCharts.lines(
                            "svg" + n[0]++,
                            "completion-time CDF, job " + job,
                            "modelled time",
                            "fraction of " + unit + "s",
                            cdf,
                            faults,
                            true,
                            620,
                            320));
        } else {
            b.append("<p class=\"meta\">No completion times: ")
                    .append(esc(caption.toString()))
                    .append("</p>\n");
        }
        if (!entries.isEmpty()) {
            figure(
                    b,
                    "state-" + job,
                    "aggregation entries (soft state) over modelled time, most held at once over all switches per bucket "
                            + "of "
                            + micros(rows.stream()
                                    .filter(j -> j.timing().stateEntries() != null)
                                    .findFirst()
                                    .get()
                                    .timing()
                                    .stateEntries()
                                    .bucketMicros())
                            + ". " + faultNote(faults),
                    SvgCharts.lines(
                            "svg" + n[0]++,
                            "soft-state entries, job " + job,
                            "modelled time",
                            "entries",
                            entries,
                            faults,
                            true,
                            620,
                            320));
        } else {
            b.append("<p class=\"meta\">No switch held aggregation state for this job (host baselines only).</p>\n");
        }
    }

    /** A shared run's link load per world: its mix's jobs and traffic share the links, counted once (links[] of job "shared"). */
    private static void worldHeatMaps(StringBuilder b, Report r, TopologyView view, int[] n) {
        Map<String, Map<String, Long>> byWorld = new LinkedHashMap<>();
        r.links().stream()
                .filter(l -> l.mode() instanceof LinkScope.OfWorld)
                .forEach(l -> byWorld.computeIfAbsent(l.mode().name(), k -> new LinkedHashMap<>())
                        .merge(TopologyView.linkKey(l.from(), l.to()), l.bytes(), Long::sum));
        long most = byWorld.values().stream()
                .flatMap(m -> m.values().stream())
                .mapToLong(Long::longValue)
                .max()
                .orElse(0);
        byWorld.forEach((world, bytes) -> {
            String id = "svg" + n[0]++;
            figure(
                    b,
                    "heat-world-" + world,
                    "link load, world " + world + " (mix): every job of the world and the background traffic, "
                            + bytes(bytes.values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum())
                            + " in all; one colour scale for every world",
                    zoom(view, id) + view.heatMap(id, bytes, Map.of(), most, 0));
        });
    }

    private static String faultNote(List<Report.FaultMark> faults) {
        if (faults.isEmpty()) {
            return "No fault in the plan.";
        }
        List<String> f = faults.stream()
                .map(x -> x.what() + " at " + micros(x.atMicros()))
                .toList();
        return "Faults (red dashes): " + String.join("; ", f) + ".";
    }

    private static void trees(
            StringBuilder b,
            Report r,
            String job,
            List<Report.JobReport> rows,
            BitSpace space,
            TopologyView view,
            int[] n) {
        // as the run planned them (the report's installedTrees[]): this page plans nothing again
        for (InstalledTree t : r.installedTrees()) {
            if (!t.job().equals(job)) {
                continue;
            }
            String label = t.mode() + (t.iteration() == null ? "" : " #" + t.iteration());
            ObservedTreeView o = ObservedTreeView.of(ObservedTreeView.of(r, job, t.mode(), t.iteration()), space);
            if (!o.isEmpty()) {
                figure(
                        b,
                        "observed-" + job + "-" + label.replace(' ', '-'),
                        "observed trees, " + label + ": the " + o.mechanism()
                                + " branches " + o.switches()
                                + " switches installed during the run, each a union over the phase (its bits and installs"
                                + " on hover; the report's observedTrees[]): an arrow from each branch to the node it sent aggregates to, and from each"
                                + " endpoint to the lowest branch holding its bit",
                        zoom(view, "svg" + n[0])
                                + view.trees(
                                        "svg" + n[0]++,
                                        o.edges(),
                                        o.labels(),
                                        null,
                                        "",
                                        "red: what the packets built (" + o.mechanism()
                                                + ", observed), the unions of the phase"));
            }
            if (t.isEmpty() && o.isEmpty()) {
                Report.JobReport row = rows.stream()
                        .filter(j -> label(j).equals(label))
                        .findFirst()
                        .orElse(null);
                String what = row == null || row.timing().stateEntries() == null
                        ? ""
                        : " The switches held up to "
                                + row.timing().stateEntries().total().stream()
                                        .mapToInt(Integer::intValue)
                                        .max()
                                        .orElse(0)
                                + " entries at once (the heat map's "
                                + "switch fill gives each one's peak)"
                                + (row.kindReport() == null ? "" : "; " + KindFigures.line(row.kindReport()))
                                + ".";
                b.append("<p class=\"meta\">")
                        .append(esc(label))
                        .append(": no configured tree, and no switch installed a ")
                        .append(
                                row == null || row.kindReport() == null
                                        ? "C-BM"
                                        : row.kindReport().treeState())
                        .append(" (a tree of one hop or none).")
                        .append(esc(what))
                        .append("</p>\n");
                continue;
            }
            if (t.isEmpty()) {
                continue;
            }
            figure(
                    b,
                    "trees-" + job + "-" + label.replace(' ', '-'),
                    "installed trees, " + label + ": " + t.aBms().size()
                            + " VAT nodes as planned before the run (a repair after a crash is in the note)",
                    zoom(view, "svg" + n[0])
                            + view.trees(
                                    "svg" + n[0]++,
                                    t.edges().stream()
                                            .map(e -> new TopologyView.TreeEdge(e.from(), e.to()))
                                            .toList(),
                                    t.aBms(),
                                    t.root()));
        }
    }

    /** The bit space of {@code job} as the scenario has it (an observed tree's endpoints); null when it has no such job. */
    private static BitSpace bitSpace(Scenario s, String job) {
        return s.jobs().stream()
                .filter(j -> j.name().equals(job))
                .map(j -> j.common().bitSpace())
                .findFirst()
                .orElse(null);
    }

    /** The zoom buttons for the drawing {@code id} when {@code view} is too big to read at page width, else nothing. */
    private static String zoom(TopologyView view, String id) {
        return view.zoomable() ? ZoomControl.controls(id) : "";
    }

    static void figure(StringBuilder b, String name, String caption, String svg) {
        b.append("<figure class=\"chart\" data-chart=\"")
                .append(esc(name))
                .append("\">")
                .append(svg)
                .append("<figcaption>")
                .append(esc(caption))
                .append("</figcaption></figure>\n");
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Bytes in binary units: 512 B, 1.5 KiB, 2.00 MiB, 1.33 GiB. */
    static String bytes(double v) {
        String[] unit = {"B", "KiB", "MiB", "GiB", "TiB"};
        int i = 0;
        while (v >= 1024 && i < unit.length - 1) {
            v /= 1024;
            i++;
        }
        return i == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.2f %s", v, unit[i]);
    }

    /** Microseconds as people read them: 850 µs, 12.3 ms, 1.20 s (and 33 ns below a microsecond). */
    static String micros(double us) {
        return Units.micros(us);
    }
}
