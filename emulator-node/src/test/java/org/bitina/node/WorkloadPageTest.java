package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a workload run shows (W3): the console answers per iteration and per collective type instead
 * of one sentence per collective, and the HTML page's rank timelines, read as a DOM (each timeline's
 * SVG parsed as XML), hold one row per rank per world with a titled bar per step the report lists.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadPageTest {
    private String console;
    private String page;
    private JsonNode report;

    @BeforeAll
    void runTheDenseWorkload(@TempDir Path dir) throws IOException {
        Path html = dir.resolve("dense.html");
        Path json = dir.resolve("dense.json");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "workload-dense.conf").toString(),
                "--html",
                html.toString(),
                "--report",
                json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        console = r.out();
        page = Files.readString(html);
        report = new ObjectMapper().readTree(json.toFile());
    }

    @Test
    void theConsoleAnswersForTheIterationAndPerCollectiveTypeNotPerCollective() {
        assertTrue(console.contains("faster with INA; exposed communication ina"), console);
        // 2 MiB of gradients in four 512 KiB buckets, per iteration, in both worlds
        Matcher m = Pattern.compile("ALL_REDUCE: 4 per iteration, 2\\.00 MiB; ina [^,]+ \\([^)]+ exposed\\), baseline ")
                .matcher(console);
        assertTrue(m.find(), console);
        assertFalse(console.contains("in the shared fabric"), "no sentence per collective: " + console);
        assertFalse(console.contains("ina vs best baseline"), console);
    }

    @Test
    void thePageHasOneTimelineRowPerRankPerWorldAndATitledBarPerStep() throws Exception {
        Map<String, Integer> spans = new HashMap<>();
        Map<String, Integer> ranks = new HashMap<>();
        for (JsonNode t : report.get("rankTimelines")) {
            String w = t.get("world").asText();
            spans.merge(w, t.get("spans").size(), Integer::sum);
            ranks.merge(w, 1, Integer::sum);
        }
        assertEquals(Map.of("ina", 16, "baseline", 16), ranks);
        List<Document> timelines = new ArrayList<>();
        List<String> worlds = new ArrayList<>();
        Matcher fig = Pattern.compile(
                        "<figure class=\"chart\">(<svg .*?</svg>)<figcaption>world ([a-z]+): every rank",
                        Pattern.DOTALL)
                .matcher(page.substring(page.indexOf("<section class=\"workload\">")));
        while (fig.find()) {
            timelines.add(DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(new ByteArrayInputStream(fig.group(1).getBytes(StandardCharsets.UTF_8))));
            worlds.add(fig.group(2));
        }
        assertEquals(List.of("ina", "baseline"), worlds);
        for (int i = 0; i < timelines.size(); i++) {
            String w = worlds.get(i);
            Element svg = timelines.get(i).getDocumentElement();
            List<String> labels = new ArrayList<>();
            NodeList texts = svg.getElementsByTagName("text");
            for (int k = 0; k < texts.getLength(); k++) {
                String s = texts.item(k).getTextContent();
                if (s.startsWith("rank ")) {
                    labels.add(s);
                }
            }
            List<String> expected = new ArrayList<>();
            for (int r = 0; r < 16; r++) {
                expected.add("rank " + r);
            }
            assertEquals(expected, labels, w + ": one row per rank, in rank order");
            NodeList rects = svg.getElementsByTagName("rect");
            int bars = 0;
            for (int k = 0; k < rects.getLength(); k++) {
                Element rect = (Element) rects.item(k);
                NodeList title = rect.getElementsByTagName("title");
                if (title.getLength() == 0) {
                    continue; // the time axis
                }
                bars++;
                assertTrue(
                        title.item(0).getTextContent().contains(" to "),
                        title.item(0).getTextContent());
            }
            assertEquals(spans.get(w), bars, w + ": a titled bar per step of every rank's timeline");
            assertTrue(page.contains("(job i1-s112)"), "a collective's bar names its job, the row of the table");
        }
    }

    /**
     * workload-moe.conf's page (issue 42 item 8: 14.8 MB, 28 s to render, its rank timelines 4,000 px
     * down, every bar label "..."): under 2 MB, the timelines right after the answer, the 112 job rows
     * folded away, one section per kind of collective, no label cut short.
     */
    @Test
    void aWorkloadPageIsSmallWithItsTimelinesFirst(@TempDir Path dir) throws IOException {
        Path html = dir.resolve("moe.html");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "workload-moe.conf").toString(),
                "--quiet",
                "--html",
                html.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        String p = Files.readString(html);
        long size = Files.size(html);
        assertTrue(size < 2L * 1024 * 1024, size + " bytes");
        int timelines = p.indexOf("<section class=\"workload\">");
        int rows = p.indexOf("<details class=\"rows\">");
        assertTrue(timelines > 0 && rows > timelines, "the timelines before the folded rows");
        assertTrue(p.indexOf("<table class=\"summary\">") > rows, "the job table inside the fold");
        assertEquals(
                List.of("job i1-s64 (moe)", "job i1-s120 (allreduce)"),
                Pattern.compile("<h2>(job [^<]+)</h2>")
                        .matcher(p)
                        .results()
                        .map(m -> m.group(1))
                        .toList());
        assertFalse(p.contains("...</text>"), "a label cut short");
    }
}
