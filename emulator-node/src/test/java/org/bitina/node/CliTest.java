package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

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
            for (Path f : files.filter(p -> p.toString().endsWith(".conf") && !p.endsWith("defaults.conf")).toList()) {
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
        assertEquals(bad + ":4: link [s1, ghost] names unknown node 'ghost'", r.err().strip());
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
    void runFig1WritesTheReportContractAndExitsZero() throws IOException {
        Path report = dir.resolve("r.json");
        Path trace = dir.resolve("t.jsonl");
        Result r = cli("run", Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(), "--report", report.toString(),
                "--trace", trace.toString(), "--quiet");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("every job ended as the scenario expects"), r.out());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile());
        var job = json.get("jobs").get(0);
        for (String field : new String[] {"name", "kind", "mode", "status", "verified", "missing", "wallMillis", "modeledMicros",
                "packetsIntoRoot", "maxLinkBytes", "totalLinkBytes", "headerBytes", "timeouts", "retransmissionRounds"}) {
            assertTrue(job.has(field), "jobs[] has " + field);
        }
        assertEquals("allreduce", job.get("kind").asText());
        assertEquals("ina", job.get("mode").asText());
        assertEquals(3, json.get("jobs").size(), "INA, ring and PS side by side");
        for (String field : new String[] {"from", "to", "packets", "bytes"}) {
            assertTrue(json.get("links").get(0).has(field), "links[] has " + field);
        }
        for (String field : new String[] {"name", "peakStateEntries", "peakBufferedBytes"}) {
            assertTrue(json.get("switches").get(0).has(field), "switches[] has " + field);
        }
        String first = Files.readAllLines(trace).get(0);
        var event = new com.fasterxml.jackson.databind.ObjectMapper().readTree(first);
        for (String field : new String[] {"node", "job", "seq", "event", "dir", "bitmap", "to", "vt"}) {
            assertTrue(event.has(field), "trace line has " + field);
        }
    }

    @Test
    void runOnSeveralJvmsSaysItIsNotThereYet() {
        Result r = cli("run", Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(), "--jvms", "3");
        assertEquals(3, r.code());
        assertTrue(r.err().contains("not implemented yet"), r.err());
    }

    @Test
    void noCommandIsAUsageError() {
        assertEquals(2, cli().code());
    }
}
