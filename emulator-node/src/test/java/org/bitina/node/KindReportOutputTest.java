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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind's headline metric, from its report part, in the JSON report ({@code jobs[].kindReport}),
 * {@code jobs.csv} (a column each), the HTML page (the kind-figures table) and the console, while the
 * row's own keys stay flat where docs/reference.md puts them.
 */
class KindReportOutputTest {
    @TempDir
    Path dir;

    private record Outputs(JsonNode report, List<Map<String, String>> csv, String html, String console) {
        JsonNode job(String name, String mode) {
            for (JsonNode j : report.get("jobs")) {
                if (j.get("name").asText().equals(name)
                        && j.get("mode").asText().equals(mode)) {
                    return j;
                }
            }
            throw new AssertionError("no row " + name + " " + mode);
        }

        Map<String, String> row(String name, String mode) {
            return csv.stream()
                    .filter(r -> r.get("job").equals(name) && r.get("mode").equals(mode))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private Outputs run(String scenario) throws IOException {
        Path out = dir.resolve(scenario);
        Files.createDirectories(out);
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", scenario + ".conf").toString(),
                // not --quiet: that prints only the answer, the table and the verdict, not the kinds' lines
                "--report",
                out.resolve("r.json").toString(),
                "--csv",
                out.resolve("csv").toString(),
                "--html",
                out.resolve("p.html").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> lines = Files.readAllLines(out.resolve("csv").resolve("jobs.csv"));
        List<String> header = List.of(lines.get(0).split(",", -1));
        List<Map<String, String>> csv = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            // no quoted commas in these scenarios' rows: names, modes and numbers
            String[] cells = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), i < cells.length ? cells[i] : "");
            }
            csv.add(row);
        }
        JsonNode report = new ObjectMapper().readTree(out.resolve("r.json").toFile());
        for (JsonNode j : report.get("jobs")) {
            // the parts are unwrapped: the row keeps its flat keys
            for (String part : List.of("outcome", "problems", "timing", "traffic", "counts", "plan")) {
                assertFalse(j.has(part), "no nested " + part + " in " + j.get("name"));
            }
            for (String key : List.of("status", "verified", "modeledMicros", "packetsIntoRoot", "retransmissions")) {
                assertTrue(j.has(key), key + " stays a key of the row");
            }
        }
        return new Outputs(report, csv, Files.readString(out.resolve("p.html")), r.out());
    }

    @Test
    void moeSourceUplinkBytesIsInTheReportTheCsvThePageAndTheConsole() throws IOException {
        Outputs o = run("paper-fig2-moe");
        for (String mode : List.of("ina", "all-to-all")) {
            JsonNode j = o.job("fig2", mode);
            long uplink = j.get("kindReport").get("sourceUplinkBytes").asLong();
            assertTrue(uplink > 0, mode + " moved bytes on the source's uplink");
            assertEquals(j.get("sourceUplinkBytes").asLong(), uplink, "the part and the row agree");
            assertEquals(Long.toString(uplink), o.row("fig2", mode).get("sourceUplinkBytes"));
            assertTrue(o.console().contains("fig2 " + mode + ": source uplink " + Units.bytes(uplink)), o.console());
        }
        assertTrue(
                o.job("fig2", "ina").get("sourceUplinkBytes").asLong()
                        < o.job("fig2", "all-to-all").get("sourceUplinkBytes").asLong(),
                "one packet per D-BM instead of one per expert (M6)");
        assertTrue(o.html().contains("<table class=\"kind-figures\">"), "the page has the kinds' figures");
        assertTrue(o.html()
                .contains("data-figure=\"sourceUplinkBytes\">source uplink</td><td>"
                        + Units.bytes(
                                o.job("fig2", "ina").get("sourceUplinkBytes").asLong())));
    }

    @Test
    void multicastAcksIntoTheSourceAndRepairRoundsAreInEveryOutputAndThePageSaysHowPacketsIntoTheRootDiffer()
            throws IOException {
        Outputs o = run("shrinking-miss-set");
        for (String mode : List.of("ina", "unicast-ack")) {
            JsonNode j = o.job("repair", mode);
            JsonNode k = j.get("kindReport");
            assertEquals(
                    j.get("stats").get("ackPacketsIntoSource").asLong(),
                    k.get("ackPacketsIntoSource").asLong());
            assertEquals(
                    j.get("retransmissionRounds").asLong(),
                    k.get("repairRounds").asLong());
            assertTrue(k.get("repairRounds").asLong() > 0, "50 % loss on one receiver's link takes repairs");
            assertEquals(
                    k.get("ackPacketsIntoSource").asText(),
                    o.row("repair", mode).get("ackPacketsIntoSource"));
            assertEquals(k.get("repairRounds").asText(), o.row("repair", mode).get("repairRounds"));
        }
        assertTrue(o.html().contains("data-figure=\"ackPacketsIntoSource\""), "the headline in the page");
        assertTrue(
                o.html().contains("packets into the root count every frame at the source's port"),
                "the page explains why pkts in and ACK packets into the source differ");
        assertTrue(o.console().contains("repair ina: ACK packets into the source "), o.console());
    }

    @Test
    void bierIncTreeEntriesAreTheSwitchesIncTreesOnTheInaRowOnly() throws IOException {
        Outputs o = run("fat-tree-k4-bier-inc");
        long held = 0;
        for (JsonNode s : o.report().get("switches")) {
            held += s.get("incTrees").asLong();
        }
        JsonNode inc = o.job("inc4", "ina");
        assertTrue(held > 0, "the forward packets built INC trees (B2)");
        // summed per phase from the devices, against the switches' own peaks merged over phases (one INC phase here)
        assertEquals(held, inc.get("kindReport").get("treeEntries").asLong());
        assertEquals(Long.toString(held), o.row("inc4", "ina").get("incTreeEntries"));
        assertFalse(o.job("vat4", "ina").has("kindReport"), "the AllReduce job beside it reports no part of its own");
        assertTrue(o.html().contains("data-figure=\"incTreeEntries\""));
    }
}
