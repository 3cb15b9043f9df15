package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the HTML page holds for kinds other than Fig. 1's (the browser test draws Fig. 1's): no browser needed. */
class HtmlReportTest {
    @TempDir
    Path dir;

    /** The console of the last {@link #page} run. */
    private String console;

    private String page(String scenario) throws IOException {
        Path html = dir.resolve(scenario + ".html");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", scenario + ".conf").toString(),
                "--quiet",
                "--html",
                html.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        console = r.out();
        return Files.readString(html);
    }

    /** A chart's legend, in order: each entry's label and its colour as the SVG fills it ("31,119,180"). */
    private static Map<String, String> legend(String page, String chart) {
        int at = page.indexOf("data-chart=\"" + chart + "\"");
        assertTrue(at >= 0, "no chart " + chart);
        // a bar's legend entry is a filled square, a line's a stroked segment; then its label
        Matcher m = Pattern.compile(
                        "(?:fill|;stroke):rgb\\((\\d+,\\d+,\\d+)\\)[^>]*><path d='[^']*'/></g><g><text [^>]*>([^<]+)</text>")
                .matcher(page.substring(at, page.indexOf("</figure>", at)));
        Map<String, String> out = new LinkedHashMap<>();
        while (m.find()) {
            out.put(m.group(2), m.group(1));
        }
        return out;
    }

    private static String rgb(java.awt.Color c) {
        return c.getRed() + "," + c.getGreen() + "," + c.getBlue();
    }

    /**
     * A shared run's page and console tell the mix from the jobs alone (issue 42 item 7): the
     * bars and the CDFs name each series "ina (mix)" or "ina (alone)", the mix first and in its
     * mode's colour, alone paler; a job's heat map is its alone run (its own links), each world's
     * mix has its own; the console's table has a run column; every mode has its own colour.
     */
    @Test
    void aSharedFabricPageAndConsoleTellTheMixFromTheJobsAlone() throws IOException {
        String p = page("shared-fabric");
        Map<String, String> bars = legend(p, "bars-modelled-time");
        assertEquals(
                List.of(
                        "ina (mix)",
                        "ring (mix)",
                        "all-to-all (mix)",
                        "ina (alone)",
                        "ring (alone)",
                        "all-to-all (alone)"),
                List.copyOf(bars.keySet()));
        for (String mode : List.of("ina", "ring", "all-to-all")) {
            assertEquals(rgb(SvgCharts.colour(mode)), bars.get(mode + " (mix)"), mode);
            assertFalse(bars.get(mode + " (mix)").equals(bars.get(mode + " (alone)")), mode + " alone is paler");
        }
        assertEquals(
                3,
                Set.copyOf(List.of(bars.get("ina (mix)"), bars.get("ring (mix)"), bars.get("all-to-all (mix)")))
                        .size(),
                "a colour per mode: " + bars);
        assertEquals(
                List.of("ina (mix)", "ina (alone)", "ring (mix)", "ring (alone)").stream()
                        .sorted()
                        .toList(),
                legend(p, "cdf-ar1").keySet().stream().sorted().toList());
        assertEquals("ina (mix)", legend(p, "cdf-ar1").keySet().iterator().next(), "the mix first");
        List<String> drawn = charts(p);
        assertTrue(drawn.contains("heat-world-ina") && drawn.contains("heat-world-baseline"), drawn.toString());
        assertEquals(
                1, drawn.stream().filter("heat-ar1-ina"::equals).count(), "one heat map per mode, alone: " + drawn);
        assertTrue(
                p.contains("<td class=\"l\">ina (alone)</td>") && p.contains("<td class=\"l\">ina (mix)</td>"),
                "the summary's rows");
        String header =
                console.lines().filter(l -> l.startsWith("job ")).findFirst().orElseThrow();
        assertTrue(header.matches("job\\s+mode\\s+run\\s+status.*"), header);
        assertEquals(
                6,
                console.lines()
                        .filter(l -> l.matches("\\w+\\s+[\\w-]+\\s+mix\\s+complete.*"))
                        .count(),
                console);
        assertEquals(
                6,
                console.lines()
                        .filter(l -> l.matches("\\w+\\s+[\\w-]+\\s+alone\\s+complete.*"))
                        .count(),
                console);
        // every mode any kind declares its own colour (ring and all-to-all were one)
        List<String> modes = org.bitina.usecases.UseCases.ALL.stream()
                .flatMap(u -> java.util.stream.Stream.concat(
                        java.util.stream.Stream.of(u.fallback()), u.baselines().stream()))
                .map(org.bitina.job.Mode::name)
                .distinct()
                .toList();
        assertEquals(
                modes.size() + 1,
                java.util.stream.Stream.concat(java.util.stream.Stream.of("ina"), modes.stream())
                        .map(m -> rgb(SvgCharts.colour(m)))
                        .distinct()
                        .count(),
                modes.toString());
    }

    private static List<String> charts(String page) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<figure class=\"chart\" data-chart=\"([^\"]+)\">")
                .matcher(page);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void aMoePageHasTokenCompletionsSoftStateAHeatMapPerModeAndTheCbmTreeThePacketsBuilt() throws IOException {
        String p = page("paper-fig2-moe");
        assertEquals(
                List.of(
                        "bars-modelled-time",
                        "bars-max-link-bytes",
                        "bars-total-link-bytes",
                        "bars-packets-into-the-busiest-host",
                        "ratio-fig2",
                        "cdf-fig2",
                        "state-fig2",
                        "heat-fig2-ina",
                        "heat-fig2-all-to-all",
                        "observed-fig2-ina"),
                charts(p));
        assertTrue(p.contains("per-token completion time"), "MoE's units are tokens");
        String trees = p.substring(p.indexOf("data-chart=\"observed-fig2-ina\""));
        assertTrue(
                trees.contains("observed trees, ina: the C-BM branches 3 switches installed during the run"),
                "labelled as observed");
        // Fig. 2: s1 and s7 combine into s0, s0 into the source, each expert into its leaf: 3 + 8 arrows
        assertEquals(
                11,
                Pattern.compile("<path class=\"tree\"")
                        .matcher(trees.substring(0, trees.indexOf("</figure>")))
                        .results()
                        .count());
        assertTrue(
                trees.contains("<title>s1 -&gt; s0</title>") && trees.contains("<title>e6 -&gt; s7</title>"),
                "the seed's tree");
        assertFalse(p.contains("<script"), "no script");
    }

    @Test
    void anAggregatorContentionPageDrawsEverySwitchsPoolOverTimeAgainstItsCapacity() throws IOException {
        String p = page("aggregator-contention");
        int at = p.indexOf("<section class=\"pool\">");
        assertTrue(at >= 0, "the pool's section");
        String pool = p.substring(at, p.indexOf("</section>", at));
        // wide's tables are on the VAT's 13 switches, each a pool of 12: a strip each; narrow ran its ring, no strip
        assertEquals(
                13,
                Pattern.compile("a pool of 12 entries").matcher(pool).results().count());
        assertTrue(pool.contains("wide (best-effort)") && !pool.contains("narrow ("), "the jobs that held entries");
        assertTrue(pool.contains("<title>wide: 12 entries from"), "the straggler's switches full");
        assertFalse(p.contains("<section class=\"queues\">"), "no finite buffer, no queue chart");
    }

    @Test
    void aSharedFabricPageDrawsEachWorldsGanttAndQueueDepthOverTimeForTheBusiestPortsOfEachMix() throws IOException {
        String p = page("shared-fabric");
        int shared = p.indexOf("<section class=\"shared\">");
        assertTrue(shared >= 0, "the shared fabric's section");
        String gantt = p.substring(shared, p.indexOf("</section>", shared));
        for (String world : List.of("ina", "baseline")) {
            assertTrue(
                    gantt.contains("world " + world + ": the jobs on the modelled time axis"), "a Gantt for " + world);
        }
        // per world a bar for each of the three jobs in the mix, and a thin one for it alone
        assertEquals(
                6,
                Pattern.compile("<title>(ar1|ar2|moe): start ")
                        .matcher(gantt)
                        .results()
                        .count());
        assertEquals(
                6,
                Pattern.compile("<title>alone: JCT ").matcher(gantt).results().count());
        assertTrue(gantt.contains("<th>slowdown (ina)</th><th>slowdown (baseline)</th>"), "the slowdowns per world");
        int at = p.indexOf("<section class=\"queues\">");
        assertTrue(at >= 0, "the queues' section: the file has 256 KiB buffers");
        String queues = p.substring(at, p.indexOf("</section>", at));
        List<String> drawn = charts(queues);
        assertTrue(drawn.contains("queues-shared-ina") && drawn.contains("queues-shared-baseline"), drawn.toString());
        String ina = queues.substring(
                queues.indexOf("data-chart=\"queues-shared-ina\""),
                queues.indexOf("</figure>", queues.indexOf("data-chart=\"queues-shared-ina\"")));
        long ports =
                Pattern.compile("class=\"queue-port\"").matcher(ina).results().count();
        assertTrue(ports > 0 && ports <= 8, "the busiest ports, at most eight: " + ports);
        assertTrue(ina.contains("queue depth over modelled time for the busiest ports"), "its caption");
    }

    @Test
    void aBierIncPageDrawsTheIncTreesItsPacketsBuilt() throws IOException {
        String p = page("fat-tree-k4-bier-inc");
        assertTrue(charts(p).contains("observed-inc4-ina"), charts(p).toString());
        assertFalse(p.contains("no configured tree"), "an INC tree is drawn, not said missing");
    }

    @Test
    void anElasticJobHasItsTreesPerIterationAndOneHeatMapForAllItsIterations() throws IOException {
        String p = page("elastic-allreduce");
        List<String> c = charts(p);
        assertEquals(
                List.of(
                        "trees-train-ina-#1",
                        "trees-train-ina-#2",
                        "trees-train-ina-#3",
                        "trees-train-ina-#4",
                        "trees-train-ina-#5"),
                c.stream().filter(x -> x.startsWith("trees-")).toList());
        assertEquals(
                List.of("heat-train-ina", "heat-train-ring"),
                c.stream().filter(x -> x.startsWith("heat-")).toList());
        assertTrue(
                p.contains("link load, ina, its 5 iterations together"), "links[] has no iteration: the map says so");
    }

    @Test
    void theAnswerSentenceComparesWithTheFastestBaselineFirst() throws IOException {
        String p = page("paper-fig1-allreduce");
        int at = p.indexOf("<p class=\"answer-sentence\">");
        assertTrue(at > 0 && at < p.indexOf("<table class=\"summary\">"), "the page opens with the answer");
        String answer = p.substring(at, p.indexOf("</p>", at));
        assertTrue(
                answer.contains("fig1: ina finished in ")
                        && answer.contains("than ring (")
                        && answer.contains("than ps ("),
                answer);
        assertTrue(answer.contains("busiest link "), answer);
    }

    @Test
    void fig2IsDrawnAsTheSeedDrawsItSourceOnTopThenS0ThenS1AndS7() throws Exception {
        Map<String, Integer> tier =
                TopologyView.tiers(ScenarioLoader.load(Path.of("..", "topology-configs", "paper-fig2-moe.conf"))
                        .topology());
        assertEquals(1, tier.get("s1"));
        assertEquals(1, tier.get("s7"));
        assertEquals(2, tier.get("s0"), "s0 above s1 and s7, not in their row");
        assertEquals(3, tier.get("src"), "the source on top, as the seed's Fig. 2");
        assertEquals(0, tier.get("e1"));
        Map<String, Integer> ft =
                TopologyView.tiers(ScenarioLoader.load(Path.of("..", "topology-configs", "fat-tree-k4-allreduce.conf"))
                        .topology());
        assertEquals(
                TopologyView.levels(ScenarioLoader.load(Path.of("..", "topology-configs", "fat-tree-k4-allreduce.conf"))
                        .topology()),
                ft,
                "a fat-tree keeps its tiers");
    }

    @Test
    void packetsIntoTheBusiestHostAreOneMeasureInEveryModeAndNameTheHostInTheReportCsvAndPage() throws IOException {
        Path html = dir.resolve("fig1.html");
        Path report = dir.resolve("fig1.json");
        Path csv = dir.resolve("csv");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--quiet",
                "--html",
                html.toString(),
                "--report",
                report.toString(),
                "--csv",
                csv.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode jobs = new ObjectMapper().readTree(report.toFile()).get("jobs");
        String p = Files.readString(html);
        List<String> cells = Pattern.compile("<td class=\"busiest\">([^<]*)</td>")
                .matcher(p)
                .results()
                .map(m -> m.group(1))
                .toList();
        List<String> lines = Files.readAllLines(csv.resolve("jobs.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals(jobs.size(), cells.size(), "a busiest-host cell per row of the summary");
        Map<String, JsonNode> byMode = new LinkedHashMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            JsonNode j = jobs.get(i);
            byMode.put(j.get("mode").asText(), j);
            assertTrue(
                    j.get("busiestHost").asText().startsWith("w"), "a host, never a switch: " + j.get("busiestHost"));
            assertEquals(
                    j.get("busiestHost").asText() + ": "
                            + j.get("maxPacketsIntoHost").asLong(),
                    cells.get(i));
            List<String> row = List.of(lines.get(i + 1).split(","));
            assertEquals(j.get("busiestHost").asText(), row.get(header.indexOf("busiestHost")));
            assertEquals(
                    j.get("maxPacketsIntoHost").asText(),
                    row.get(header.indexOf("maxPacketsIntoHost")),
                    "jobs.csv has the same figure");
        }
        // the ring has no root: its packetsIntoRoot is already its busiest member, so the two measures agree there;
        // INA's packetsIntoRoot counts the root switch s6, a different thing from any host
        assertEquals(
                byMode.get("ring").get("packetsIntoRoot"), byMode.get("ring").get("maxPacketsIntoHost"));
        assertEquals("s6", byMode.get("ina").get("root").asText());
        String bars = p.substring(p.indexOf("data-chart=\"bars-packets-into-the-busiest-host\""));
        String caption = bars.substring(bars.indexOf("<figcaption>"), bars.indexOf("</figcaption>"));
        for (JsonNode j : jobs) {
            assertTrue(
                    caption.contains(
                            j.get("mode").asText() + " " + j.get("busiestHost").asText()),
                    "the caption says which host each bar counts: " + caption);
        }
    }

    @Test
    void longHostListsAreSummarised() {
        List<String> hosts = new ArrayList<>();
        for (int i = 3; i <= 128; i++) {
            hosts.add("h" + i);
        }
        assertEquals("h3..h128 (126 hosts)", Hosts.summary(hosts));
        assertEquals("w1, w3", Hosts.summary(List.of("w1", "w3")));
        hosts.remove("h10");
        assertEquals("h3..h9, h11..h128 (125 hosts)", Hosts.summary(hosts));
    }

    @Test
    void unitsAreForPeople() {
        assertEquals("512 B", HtmlReport.bytes(512));
        assertEquals("1.50 KiB", HtmlReport.bytes(1536));
        assertEquals("1.33 GiB", HtmlReport.bytes(1431172480));
        assertEquals("350 µs", HtmlReport.micros(349.5));
        assertEquals("12.0 ms", HtmlReport.micros(12030));
        assertEquals("1.20 s", HtmlReport.micros(1_200_000));
        assertEquals("33 ns", HtmlReport.micros(0.033), "a bucket of 33 ns, not of 0.0 us");
        assertEquals("1.60 ms", SvgCharts.format("us").format(1600), "a time axis tick, not 1.60K us");
        assertEquals("2.50 s", SvgCharts.format("us").format(2_500_000));
        assertEquals("4.07 MiB", SvgCharts.format("bytes").format(4.07 * 1024 * 1024));
        assertEquals("&lt;a href=&quot;x&quot;&gt; &amp;", HtmlReport.esc("<a href=\"x\"> &"));
    }
}
