package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitina.run.RunComparison;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bitina run --repeat N} (issue 46 item 6) on a file whose repairs rest on random loss:
 * run 1 is the run without {@code --repeat}, the other runs draw again, each row's figure is the
 * mean and 95 % interval of the runs' own figures, the same on every invocation, and the
 * console warns a single run of such a file that its figures rest on one draw.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RepeatRunTest {
    private static final String LOSSY =
            Path.of("..", "topology-configs", "shrinking-miss-set.conf").toString();
    private static final int RUNS = 4;
    /** Student's t, 97.5 % quantile, 3 degrees of freedom (any table of the t distribution). */
    private static final double T_975_3 = 3.182446;

    private Path dir;
    private CliTest.Result once;
    private CliTest.Result repeated;
    private JsonNode single;
    private JsonNode report;

    @BeforeAll
    void runs(@TempDir Path tmp) throws IOException {
        dir = tmp;
        once = CliTest.cli(
                "run", LOSSY, "--quiet", "--report", dir.resolve("once.json").toString());
        assertEquals(0, once.code(), once.out() + once.err());
        repeated = CliTest.cli(
                "run",
                LOSSY,
                "--quiet",
                "--repeat",
                Integer.toString(RUNS),
                "--report",
                dir.resolve("rep.json").toString(),
                "--csv",
                dir.resolve("csv").toString(),
                "--html",
                dir.resolve("rep.html").toString());
        assertEquals(0, repeated.code(), repeated.out() + repeated.err());
        single = new ObjectMapper().readTree(dir.resolve("once.json").toFile());
        report = new ObjectMapper().readTree(dir.resolve("rep.json").toFile());
    }

    @Test
    void runOneIsTheFileAsWrittenAndTheOthersDrawAgain() {
        ObjectNode first = report.deepCopy();
        first.remove("repeats");
        assertNull(RunComparison.firstDifference(single, first), "the report is run 1's, the run without --repeat");
        JsonNode repeats = report.path("repeats");
        assertEquals(RUNS, repeats.path("runs").asInt());
        boolean differ = false;
        for (JsonNode job : single.path("jobs")) {
            JsonNode row = row(repeats, CompareCommand.key(job));
            JsonNode values = row.path("figures").path("modelled").path("values");
            assertEquals(RUNS, values.size());
            assertEquals(job.path("modeledMicros").asDouble(), values.get(0).asDouble(), "run 1's figure first");
            for (JsonNode v : values) {
                differ |= v.asDouble() != values.get(0).asDouble();
            }
        }
        assertTrue(differ, "other draws of 30 % and 50 % loss repair differently: " + repeats);
    }

    @Test
    void eachFigureIsTheMeanAndStudentsIntervalOfTheRunsFigures() throws IOException {
        List<String> csv = Files.readAllLines(dir.resolve("csv").resolve("repeats.csv"));
        for (JsonNode row : report.path("repeats").path("rows")) {
            for (var it = row.path("figures").fields(); it.hasNext(); ) {
                var f = it.next();
                List<Double> v = new ArrayList<>();
                f.getValue().path("values").forEach(x -> v.add(x.asDouble()));
                double mean =
                        v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                double var =
                        v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (v.size() - 1);
                double half = T_975_3 * Math.sqrt(var / v.size());
                JsonNode s = f.getValue();
                String what = row.path("row").asText() + " " + f.getKey();
                assertEquals(mean, s.path("mean").asDouble(), 1e-9 * Math.max(1, Math.abs(mean)), what);
                assertEquals(mean - half, s.path("ci95Low").asDouble(), 1e-5 * Math.max(1, Math.abs(mean)), what);
                assertEquals(mean + half, s.path("ci95High").asDouble(), 1e-5 * Math.max(1, Math.abs(mean)), what);
                assertTrue(
                        csv.stream().anyMatch(l -> l.startsWith(row.path("row").asText() + "," + f.getKey() + ",")),
                        what + " in repeats.csv");
            }
        }
        String line = repeated.out()
                .lines()
                .filter(l -> l.startsWith("repair ina "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(repeated.out()));
        assertTrue(line.contains(" ± "), line);
        String page = Files.readString(dir.resolve("rep.html"));
        assertTrue(page.contains("data-chart=\"repeats-modelled\""), "the page charts the intervals");
        assertTrue(page.contains(RUNS + " runs: mean and 95 % confidence interval"));
    }

    @Test
    void theSameRepetitionsGiveTheSameFigures() throws IOException {
        Path again = dir.resolve("again.json");
        CliTest.Result r =
                CliTest.cli("run", LOSSY, "--quiet", "--repeat", Integer.toString(RUNS), "--report", again.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode b = new ObjectMapper().readTree(again.toFile());
        assertEquals(report.path("repeats").path("rows"), b.path("repeats").path("rows"));
    }

    @Test
    void oneRunOfRandomLossSaysItRestsOnOneDraw() {
        assertTrue(once.out().contains("its figures rest on one draw"), once.out());
        assertFalse(repeated.out().contains("rest on one draw"), repeated.out());
        CliTest.Result lossless = CliTest.cli(
                "run", Path.of("..", "topology-configs", "rfc8279-example.conf").toString(), "--quiet");
        assertEquals(0, lossless.code(), lossless.err());
        assertFalse(lossless.out().contains("rest on one draw"), lossless.out());
    }

    @Test
    void whatARepetitionCannotDoIsRefusedBeforeAnythingRuns() {
        CliTest.Result trace = CliTest.cli(
                "run", LOSSY, "--repeat", "3", "--trace", dir.resolve("t.jsonl").toString());
        assertEquals(ExitCodes.USAGE, trace.code());
        assertTrue(trace.err().contains("--repeat writes no --trace"), trace.err());
        assertFalse(Files.exists(dir.resolve("t.jsonl")));
        CliTest.Result zero = CliTest.cli("run", LOSSY, "--repeat", "0");
        assertEquals(ExitCodes.USAGE, zero.code());
        assertTrue(zero.err().contains("--repeat must be from 1 to"), zero.err());
        CliTest.Result jvms = CliTest.cli("run", LOSSY, "--repeat", "2", "--jvms", "2");
        assertEquals(ExitCodes.USAGE, jvms.code());
        assertTrue(jvms.err().contains("give --jvms 1"), jvms.err());
    }

    private static JsonNode row(JsonNode repeats, String key) {
        for (JsonNode r : repeats.path("rows")) {
            if (r.path("row").asText().equals(key)) {
                return r;
            }
        }
        throw new AssertionError("no row " + key + " in " + repeats);
    }
}
