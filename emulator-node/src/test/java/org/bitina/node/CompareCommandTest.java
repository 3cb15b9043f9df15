package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bitina compare} (issue 46 item 3): Fig. 1 as shipped against Fig. 1 with 1 % loss, each
 * row's figures side by side with their ratios to the first report's, read back from the reports
 * themselves; the CSV and the page hold the same; reports of different files are refused unless
 * {@code --force}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompareCommandTest {
    private Path dir;

    private Path lossless;
    private Path lossy;
    private Path other;

    private Path run(String file, String name, String... sets) {
        Path report = dir.resolve(name + ".json");
        List<String> args = new java.util.ArrayList<>(List.of(
                "run", Path.of("..", "topology-configs", file).toString(), "--quiet", "--report", report.toString()));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        CliTest.Result r = CliTest.cli(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.out() + r.err());
        return report;
    }

    @BeforeAll
    void runs(@TempDir Path tmp) {
        dir = tmp;
        lossless = run("paper-fig1-allreduce.conf", "a");
        lossy = run("paper-fig1-allreduce.conf", "b", "topology.link-defaults.loss=1%");
        other = run("rfc8279-example.conf", "c");
    }

    @Test
    void eachRowsFiguresStandSideBySideWithTheirRatioToTheFirst() throws IOException {
        Path csv = dir.resolve("cmp.csv");
        Path html = dir.resolve("cmp.html");
        CliTest.Result r = CliTest.cli(
                "compare", lossless.toString(), lossy.toString(), "--csv", csv.toString(), "--html", html.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode a = new ObjectMapper().readTree(lossless.toFile());
        JsonNode b = new ObjectMapper().readTree(lossy.toFile());
        for (int i = 0; i < a.path("jobs").size(); i++) {
            JsonNode ja = a.path("jobs").get(i);
            JsonNode jb = b.path("jobs").get(i);
            String key = ja.path("name").asText() + " " + ja.path("mode").asText();
            String line = r.out()
                    .lines()
                    .filter(l -> l.startsWith(key + " "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no row " + key + ":\n" + r.out()));
            double ratio = jb.path("modeledMicros").asDouble()
                    / ja.path("modeledMicros").asDouble();
            String expected = Units.micros(jb.path("modeledMicros").asDouble()) + " ("
                    + String.format(Locale.ROOT, "%.3gx", ratio) + ")";
            assertTrue(line.contains(expected), key + ": " + expected + " in\n" + line);
            // the CSV: the second report's row holds its modelled time and the ratio, as numbers
            String row = Files.readAllLines(csv).stream()
                    .filter(l -> l.startsWith(key + ",B,"))
                    .findFirst()
                    .orElseThrow();
            String[] cells = row.split(",");
            assertEquals(jb.path("modeledMicros").asDouble(), Double.parseDouble(cells[3]), 1e-9, row);
            assertEquals(ratio, Double.parseDouble(cells[4]), 1e-9, row);
        }
        String page = Files.readString(html);
        assertTrue(
                page.contains("data-chart=\"compare-modelled\"") && page.contains("data-chart=\"compare-total-link\""),
                "a chart per figure");
    }

    @Test
    void reportsOfDifferentFilesAreRefusedUnlessForced() {
        CliTest.Result r = CliTest.cli("compare", lossless.toString(), other.toString());
        assertEquals(ExitCodes.USAGE, r.code(), r.out());
        assertTrue(
                r.err().contains("different scenario files")
                        && r.err().contains("paper-fig1-allreduce.conf")
                        && r.err().contains("rfc8279-example.conf"),
                r.err());
        CliTest.Result forced = CliTest.cli("compare", "--force", lossless.toString(), other.toString());
        assertEquals(0, forced.code(), forced.err());
        assertTrue(forced.out().lines().anyMatch(l -> l.startsWith("rfc8279 ina ")), forced.out());
        CliTest.Result bad = CliTest.cli(
                "compare", lossless.toString(), dir.resolve("missing.json").toString());
        assertEquals(ExitCodes.USAGE, bad.code());
        assertTrue(bad.err().contains("cannot read"), bad.err());
    }
}
