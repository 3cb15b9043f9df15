package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecases.PhasePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    @TempDir
    Path dir;

    /** Fig. 1 with timeouts that leave room for messages between loaded JVMs (the file's 50 ms is tuned for one JVM). */
    static Path fig1AcrossJvms(Path dir) throws IOException {
        Path f = dir.resolve("fig1-jvms.conf");
        Files.writeString(
                f,
                Files.readString(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"))
                        .replace(
                                "include \"defaults\"",
                                "include file(\""
                                        + Path.of("..", "topology-configs", "defaults.conf")
                                                .toAbsolutePath() + "\")")
                        .replaceAll("completion-timeout = \\d+ms", "completion-timeout = 1s"));
        return f;
    }

    record Result(int code, String out, String err) {}

    static Result cli(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void validateAcceptsTheReferenceScenarios() throws IOException {
        try (var files = Files.list(Path.of("..", "topology-configs"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".conf") && !p.endsWith("defaults.conf"))
                    .toList()) {
                Result r = cli("validate", f.toString());
                assertEquals(0, r.code(), f + ": " + r.err());
                assertTrue(r.out().contains("valid"), r.out());
            }
        }
    }

    @Test
    void validatePrintsFileLineMessagesAndExitsTwo() throws IOException {
        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, """
                topology {
                  switches = [s1]
                  hosts = [a]
                  links = [ [s1, a], [s1, ghost] ]
                }
                """);
        Result r = cli("validate", bad.toString());
        assertEquals(2, r.code());
        assertEquals(
                bad + ":4: link [s1, ghost] names unknown node 'ghost'", r.err().strip());
    }

    @Test
    void validateReportsASectionOfTheWrongTypeWithFileLineAndExitsTwo() throws IOException {
        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{ name = j, kind = allreduce, members = all, tree { mode = auto, root = core-1 },
                  data = 5 }]
                cluster = 3
                """);
        Result r = cli("validate", bad.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(
                bad + ":3: data must be an object (got a number)\n" + bad
                        + ":4: cluster must be an object (got a number)",
                r.err().strip().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void runRefusesAReportOrTraceItCannotWriteBeforeAnythingRuns() throws IOException {
        String fig1 =
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString();
        Path nowhere = dir.resolve("no").resolve("such").resolve("r.json");
        Result r = cli("run", fig1, "--report", nowhere.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(
                r.err().contains("folder " + nowhere.getParent().toAbsolutePath() + " does not exist; nothing ran"),
                r.err());
        Path aFile = Files.writeString(dir.resolve("plain"), "x");
        r = cli("run", fig1, "--trace", aFile.resolve("t.jsonl").toString());
        assertEquals(2, r.code(), r.err());
        r = cli("run", fig1, "--trace", dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("is a folder"), r.err());
        assertTrue(!r.out().contains("every job"), "nothing ran: " + r.out());
    }

    @Test
    void runRefusesATraceFilterThatCouldKeepNothingBeforeAnythingRuns() {
        String fig1 =
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString();
        String t = dir.resolve("t.jsonl").toString();
        Result r = cli("run", fig1, "--trace-filter", "node=s1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--trace-filter needs --trace FILE or --pcap FILE; nothing ran"), r.err());
        r = cli("run", fig1, "--trace", t, "--trace-filter", "job=fig2");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("job 'fig2' is not in " + fig1 + " (jobs: fig1)"), r.err());
        r = cli("run", fig1, "--trace", t, "--trace-filter", "mode=all-to-all");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("mode 'all-to-all' does not run in " + fig1 + " (modes: ina, ps, ring)"), r.err());
        r = cli("run", fig1, "--trace", t, "--trace-filter", "seq=3..1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--trace-filter: seq range '3..1' is empty"), r.err());
        assertTrue(!Files.exists(Path.of(t)), "nothing ran, no trace written");
    }

    @Test
    void runRefusesAMemberLossOfAMemberTheRunDoesNotHave() throws IOException {
        Path f = dir.resolve("lose7.conf");
        Files.writeString(
                f,
                Files.readString(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"))
                                .replace(
                                        "include \"defaults\"",
                                        "include file(\""
                                                + Path.of("..", "topology-configs", "defaults.conf")
                                                        .toAbsolutePath() + "\")")
                        + "\nfaults = [ { at = 10ms, kind = member-loss, member = 7 } ]\n");
        Result r = cli("run", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("names member 7, but this run has 1 member"), r.err());
    }

    @Test
    void runRefusesMoreJvmsThanTheFileMayAsk() {
        Result r = cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--jvms",
                "1000");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--jvms must be from 1 to 64, got 1000"), r.err());
    }

    @Test
    void runMakesTheLastFolderOfAnOutputPath() {
        Path out = dir.resolve("runs").resolve("r.json");
        assertEquals(null, RunCommand.unwritable(out));
        assertTrue(Files.isDirectory(out.getParent()));
    }

    @Test
    void runRefusesAnInvalidFileBeforeAnythingRuns() throws IOException {
        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, "topology { generator { kind = fat-tree, k = 3 } }\n");
        Result r = cli("run", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith(bad + ":1: fat-tree k must be an even number"), r.err());
    }

    @Test
    void sweepRunsEveryCombinationAndWritesOneCsvWithTheSweptValues() throws IOException {
        Path out = dir.resolve("sweep");
        Result r = cli(
                "sweep",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--set",
                "data.elements=4096,8192",
                "--set",
                "jobs.fig1.baselines=[ring],[]",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(
                r.out()
                        .lines()
                        .anyMatch(l -> l.matches("point +job +mode +status +expected +verified +wall +modelled .*")),
                "run's table, a point column first: " + r.out());
        List<String> lines = Files.readAllLines(out.resolve("sweep.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        assertEquals(List.of("point", "data.elements", "jobs.fig1.baselines", "job"), header.subList(0, 4));
        // points: (4096, [ring]) -> ina + ring, (4096, []) -> ina, (8192, [ring]) -> ina + ring, (8192, []) -> ina
        assertEquals(1 + 2 + 1 + 2 + 1, lines.size(), lines.toString());
        var json = new ObjectMapper();
        for (int point = 1; point <= 4; point++) {
            var jobs = json.readTree(
                            out.resolve("point-" + point).resolve("report.json").toFile())
                    .get("jobs");
            assertEquals(point % 2 == 1 ? 2 : 1, jobs.size(), "point " + point);
            assertEquals(
                    point <= 2 ? 4096 / 256 : 8192 / 256,
                    jobs.get(0).get("chunks").asInt(),
                    "point " + point + ": elements / chunk");
        }
        assertEquals(
                2,
                cli(
                                "sweep",
                                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf")
                                        .toString(),
                                "--set",
                                "data.elements=4096,0",
                                "--out",
                                dir.resolve("bad").toString())
                        .code(),
                "a point that does not validate stops the sweep");
    }

    @Test
    void exportTreesWritesEveryVatEdgeAndOneArrowFromEachMember() throws Exception {
        Path conf = Path.of("..", "topology-configs", "paper-fig1-allreduce.conf");
        Result r = cli("export", "trees", conf.toString());
        assertEquals(0, r.code(), r.err());
        Set<String> arrows = new TreeSet<>();
        for (String line : r.out().split("\n")) {
            // written parent -> child with dir=back, so that Graphviz ranks the root on top: the arrow is child >
            // parent
            Matcher m = Pattern.compile("^\\s*\"([^\"]+)\" -> \"([^\"]+)\" \\[dir=back, color=(?!grey)")
                    .matcher(line);
            if (m.find()) {
                arrows.add(m.group(2) + ">" + m.group(1));
            }
        }
        // what the planner installs, computed here from the same file
        Scenario s = ScenarioLoader.load(conf);
        Phase ina = PhasePlanner.plan(s, Routing.compute(s.topology())).get(0);
        Set<String> expected = new TreeSet<>();
        ina.tables().forEach((n, t) -> {
            if (t.registered() != null && t.vatParent() != null) {
                expected.add(n + ">" + t.vatParent());
            }
        });
        for (String member : ina.job().common().members()) {
            long out = arrows.stream().filter(a -> a.startsWith(member + ">")).count();
            assertEquals(1, out, member + " has one arrow into the tree: " + arrows);
            expected.add(arrows.stream()
                    .filter(a -> a.startsWith(member + ">"))
                    .findFirst()
                    .orElseThrow());
        }
        assertEquals(expected, arrows);
        assertTrue(r.out().startsWith("digraph bitina {") && r.out().trim().endsWith("}"));
        assertTrue(r.out().contains("\"s6\" -> \"s1\" [dir=back"), "the root s6 ranked above s1: " + r.out());
        assertEquals(2, cli("export", "plots", conf.toString()).code());
    }

    @Test
    void exportTreesWithARunsReportDrawsTheCbmTreeItObservedDashed() throws Exception {
        Path conf = Path.of("..", "topology-configs", "paper-fig2-moe.conf");
        Path report = dir.resolve("fig2.json");
        assertEquals(
                0,
                cli("run", conf.toString(), "--quiet", "--report", report.toString())
                        .code());
        Result without = cli("export", "trees", conf.toString());
        assertTrue(without.out().contains("--report REPORT.json of a run draws what it observed"), without.out());
        Result r = cli("export", "trees", conf.toString(), "--report", report.toString());
        assertEquals(0, r.code(), r.err());
        Set<String> dashed = new TreeSet<>();
        Matcher m = Pattern.compile("\"([^\"]+)\" -> \"([^\"]+)\" \\[dir=back[^]]*style=dashed")
                .matcher(r.out());
        while (m.find()) {
            dashed.add(m.group(2) + ">" + m.group(1));
        }
        // the report's branches, each to its upstream, and each expert to its leaf (e1..e4 under s1, e5..e8 under s7)
        var observed = new ObjectMapper().readTree(report.toFile()).get("observedTrees");
        Set<String> expected = new TreeSet<>();
        observed.forEach(t ->
                expected.add(t.get("node").asText() + ">" + t.get("upstream").asText()));
        for (int e = 1; e <= 8; e++) {
            expected.add("e" + e + ">" + (e <= 4 ? "s1" : "s7"));
        }
        assertEquals(expected, dashed);
        assertTrue(r.out().contains("fig2 observed C-BM [11111111]"), r.out());
        assertEquals(
                2,
                cli(
                                "export",
                                "trees",
                                conf.toString(),
                                "--report",
                                dir.resolve("none.json").toString())
                        .code(),
                "a missing report");
    }

    @Test
    void csvHoldsTheReportsTablesWithBandwidthsFromTheModelledTime() throws IOException {
        Path out = dir.resolve("csv");
        Path report = dir.resolve("c.json");
        Result r = cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--csv",
                out.toString(),
                "--report",
                report.toString(),
                "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> jobs = Files.readAllLines(out.resolve("jobs.csv"));
        assertEquals(4, jobs.size(), "a header and ina, ring, ps: " + jobs);
        List<String> header = List.of(jobs.get(0).split(","));
        assertTrue(
                header.containsAll(List.of("job", "mode", "status", "modelledUs", "algbwGBps", "busbwGBps")),
                header.toString());
        var json = new ObjectMapper().readTree(report.toFile()).get("jobs").get(0);
        List<String> ina = List.of(jobs.get(1).split(","));
        double us = json.get("modeledMicros").asDouble();
        // Fig. 1: 65,536 float32 per worker, 4 workers
        double algbw = 65536 * 4 / (us * 1e-6) / 1e9;
        assertEquals(algbw, Double.parseDouble(ina.get(header.indexOf("algbwGBps"))), 1e-9);
        // INA's bus factor is 1: each member sends its array once and receives the sum once
        assertEquals(algbw, Double.parseDouble(ina.get(header.indexOf("busbwGBps"))), 1e-9);
        // the ring's is nccl-tests' 2(n-1)/n: a member sends and receives 2(n-1)/n of its array
        var ringJson = new ObjectMapper().readTree(report.toFile()).get("jobs").get(1);
        List<String> ring = List.of(jobs.get(2).split(","));
        assertEquals("ring", ring.get(header.indexOf("mode")));
        double ringAlgbw = 65536 * 4 / (ringJson.get("modeledMicros").asDouble() * 1e-6) / 1e9;
        assertEquals(ringAlgbw * 2 * 3 / 4, Double.parseDouble(ring.get(header.indexOf("busbwGBps"))), 1e-9);
        // INA's row: each baseline's modelled time over INA's
        double speedup = json.get("speedup").get("ring").asDouble();
        double ratio = ringJson.get("modeledMicros").asDouble() / us;
        assertEquals(ratio, speedup, 0.005 * ratio, "three significant digits");
        assertTrue(r.out().contains("fig1: ina finished in "), "the answer first, also under --quiet: " + r.out());
        assertFalse(r.out().contains("ina vs best baseline"), "--quiet: only the answer, the table and the verdict");
        assertTrue(Files.readAllLines(out.resolve("links.csv")).size() > 10);
        assertEquals(8, Files.readAllLines(out.resolve("switches.csv")).size(), "a header and s1..s7");
    }

    @Test
    void csvOfARunWithFiniteBuffersHoldsTheLinksCountersWithoutTheirQueueCurves() throws IOException {
        Path out = dir.resolve("csv-buffers");
        Path report = dir.resolve("b.json");
        Result r = cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--set",
                "topology.link-defaults.buffer=64KiB",
                "--csv",
                out.toString(),
                "--report",
                report.toString(),
                "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        var links = new ObjectMapper().readTree(report.toFile()).get("links");
        boolean curves = false;
        for (var l : links) {
            curves |= l.has("queue");
        }
        assertTrue(curves, "finite buffers give the deepest ports a queue curve in the JSON report");
        List<String> rows = Files.readAllLines(out.resolve("links.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        assertTrue(
                header.containsAll(List.of("job", "mode", "from", "to", "maxQueueBytes", "queueDrops")),
                header.toString());
        assertFalse(header.contains("queue"), "a series per port is no column: " + header);
        assertEquals(links.size() + 1, rows.size(), "a header and a row per link of the report");
    }

    @Test
    void runFig1WritesTheReportContractAndExitsZero() throws IOException {
        Path report = dir.resolve("r.json");
        Path trace = dir.resolve("t.jsonl");
        Result r = cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--report",
                report.toString(),
                "--trace",
                trace.toString(),
                "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("every job ended as the scenario expects"), r.out());
        var json = new ObjectMapper().readTree(report.toFile());
        var job = json.get("jobs").get(0);
        for (String field : new String[] {
            "name",
            "kind",
            "mode",
            "status",
            "verified",
            "missing",
            "wallMillis",
            "modeledMicros",
            "packetsIntoRoot",
            "maxLinkBytes",
            "totalLinkBytes",
            "headerBytes",
            "timeouts",
            "retransmissionRounds"
        }) {
            assertTrue(job.has(field), "jobs[] has " + field);
        }
        assertEquals("allreduce", job.get("kind").asText());
        assertEquals("ina", job.get("mode").asText());
        assertEquals(3, json.get("jobs").size(), "INA, ring and PS side by side");
        for (String field : new String[] {"from", "to", "packets", "bytes", "maxQueueBytes", "queueDrops"}) {
            assertTrue(json.get("links").get(0).has(field), "links[] has " + field);
        }
        for (String field : new String[] {"name", "peakStateEntries", "peakBufferedBytes"}) {
            assertTrue(json.get("switches").get(0).has(field), "switches[] has " + field);
        }
        String first = Files.readAllLines(trace).get(0);
        var event = new ObjectMapper().readTree(first);
        for (String field : new String[] {"node", "job", "seq", "event", "dir", "bitmap", "to", "vt"}) {
            assertTrue(event.has(field), "trace line has " + field);
        }
        assertEquals("virtual", event.get("clock").asText(), "the trace names its clock first");
        assertEquals("virtual", json.get("clock").asText(), "the report names its clock");
        assertFalse(r.out().contains("clock: virtual"), "--quiet leaves the clock line out: " + r.out());
    }

    @Test
    void aBareBitinaNamesEveryCommand() {
        Result r = cli();
        assertEquals(2, r.code(), r.err());
        for (String command : List.of("validate", "run", "sweep", "export", "workload", "node", "credentials")) {
            assertTrue(r.err().contains("name a command: ") && r.err().contains(command), command + ": " + r.err());
        }
    }

    @Test
    void aNodeNeedsASeedOfTheFormHostPort() {
        Result r = cli("node", "--seed", "nowhere");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("HOST:PORT"), r.err());
    }

    @Test
    void noCommandIsAUsageError() {
        assertEquals(2, cli().code());
    }
}
