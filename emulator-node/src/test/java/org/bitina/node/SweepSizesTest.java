package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bitina sweep FILE --sizes 4K..8K} (issue 46 item 4): a row per message size as nccl-tests
 * prints it, each mode's time, algbw and busbw, and INA's speed-up, every figure read back from
 * that point's own report.
 */
class SweepSizesTest {
    @Test
    void aSizeSweepPrintsNcclTestsColumnsFromEachPointsReport(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.cli(
                "sweep",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--sizes",
                "4K..8K",
                "--set",
                "data.window=1K",
                "--out",
                dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> header = List.of(r.out()
                .lines()
                .filter(l -> l.trim().startsWith("size(B)"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.out()))
                .trim()
                .split("\\s+"));
        assertEquals(List.of("size(B)", "count", "type", "redop", "ina", "us", "algbw", "busbw"), header.subList(0, 8));
        long[] sizes = {4096, 8192};
        for (int p = 0; p < sizes.length; p++) {
            long size = sizes[p];
            String[] cells = r.out()
                    .lines()
                    .filter(l -> l.trim().startsWith(size + " "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + size + ":\n" + r.out()))
                    .trim()
                    .split("\\s+");
            assertEquals(Long.toString(size / 4), cells[1], "float32 elements");
            assertEquals("float32", cells[2]);
            assertEquals("sum", cells[3]);
            JsonNode report = new ObjectMapper()
                    .readTree(dir.resolve("point-" + (p + 1))
                            .resolve("report.json")
                            .toFile());
            Map<String, Double> us = new HashMap<>();
            report.path("jobs")
                    .forEach(j -> us.put(
                            j.path("mode").asText(), j.path("modeledMicros").asDouble()));
            double ina = us.get("ina");
            assertEquals(ina, Double.parseDouble(cells[4]), 0.005, "ina's time");
            assertEquals(size / (ina * 1e-6) / 1e9, Double.parseDouble(cells[5]), 0.005, "ina's algbw");
            double best = us.entrySet().stream()
                    .filter(e -> !e.getKey().equals("ina"))
                    .mapToDouble(Map.Entry::getValue)
                    .min()
                    .orElseThrow();
            assertEquals(String.format(java.util.Locale.ROOT, "%.2fx", best / ina), cells[cells.length - 1]);
        }
        assertTrue(r.out().contains("sweep: "), r.out());
        // sweep.csv holds the swept values as numbers: a window of 1K chunks as 1024, the sizes' element counts
        List<String> csv = java.nio.file.Files.readAllLines(dir.resolve("sweep.csv"));
        assertEquals(
                List.of("point", "data.elements", "data.window"),
                List.of(csv.get(0).split(",")).subList(0, 3));
        assertTrue(
                csv.get(1).startsWith("1,1024,1024,") && csv.get(csv.size() - 1).startsWith("2,2048,1024,"),
                csv.toString());
        // the page: the speed-up first, against the size; a constant of the sweep said once, in the title
        String page = java.nio.file.Files.readString(dir.resolve("sweep.html"));
        int first = page.indexOf("<figure class=\"chart\" data-chart=\"");
        assertTrue(
                page.startsWith("<figure class=\"chart\" data-chart=\"sweep-speedup\">", first), "the speed-up first");
        assertTrue(
                page.contains("<h1>sweep of ../topology-configs/paper-fig1-allreduce.conf with data.window=1K</h1>"),
                page.substring(0, Math.min(page.length(), 2000)));
        assertTrue(!page.contains("fig1/ina data.window=1K"), "the constant is not on every line");
        assertNull(SweepCommand.sizes("3K..8K"), "not a power of two");
        assertEquals(List.of(1024L, 2048L, 4096L), SweepCommand.sizes("1K..4K"));
        assertEquals(
                2,
                CliTest.cli(
                                "sweep",
                                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf")
                                        .toString())
                        .code(),
                "nothing to sweep");
    }
}
