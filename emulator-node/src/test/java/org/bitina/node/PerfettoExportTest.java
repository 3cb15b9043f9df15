package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --perfetto}: Chrome's trace event format from a run, with its tracks, slices, instants and flows. */
class PerfettoExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private JsonNode run(String scenario, Path report) throws IOException {
        Path out = dir.resolve(scenario + ".json");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", scenario + ".conf").toString(),
                "--quiet",
                "--perfetto",
                out.toString(),
                "--report",
                report.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("perfetto: " + out), r.out());
        try (var files = Files.list(dir)) {
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().contains(".trace."))
                            .toList(),
                    "the trace made for the export is gone");
        }
        return JSON.readTree(out.toFile());
    }

    private static Map<Integer, String> processes(JsonNode t) {
        Map<Integer, String> names = new HashMap<>();
        t.path("traceEvents").forEach(e -> {
            if (e.path("ph").asText().equals("M") && e.path("name").asText().equals("process_name")) {
                names.put(e.path("pid").asInt(), e.path("args").path("name").asText());
            }
        });
        return names;
    }

    @Test
    void fig1HasATrackPerDeviceAnEntrySlicePerChunkAtEachVatNodeAndEveryFlowEnds() throws IOException {
        JsonNode t = run("paper-fig1-allreduce", dir.resolve("r.json"));
        Map<Integer, String> names = processes(t);
        assertEquals(15, names.size(), "7 switches and 8 hosts: " + names);
        assertTrue(names.containsValue("switch s6") && names.containsValue("host w8"), names.toString());
        Map<String, Integer> entries = new HashMap<>();
        List<JsonNode> slices = new ArrayList<>();
        Map<Long, JsonNode> starts = new HashMap<>();
        Map<Long, JsonNode> ends = new HashMap<>();
        for (JsonNode e : t.path("traceEvents")) {
            switch (e.path("ph").asText()) {
                case "X" -> {
                    slices.add(e);
                    if (e.path("name").asText().startsWith("entry fig1/ina #")) {
                        entries.merge(names.get(e.path("pid").asInt()), 1, Integer::sum);
                    }
                }
                case "s" -> assertEquals(null, starts.put(e.path("id").asLong(), e), "one start per flow id");
                case "f" -> assertEquals(null, ends.put(e.path("id").asLong(), e), "one end per flow id");
                default -> {}
            }
        }
        // the VAT nodes s1, s7 and s6 each aggregate every one of the 256 chunks; no other switch holds state
        assertEquals(Map.of("switch s1", 256, "switch s7", 256, "switch s6", 256), entries);
        assertFalse(starts.isEmpty());
        Set<String> packetSlices = new HashSet<>();
        slices.forEach(x ->
                packetSlices.add(x.path("pid").asInt() + "/" + x.path("tid").asInt() + "/" + ns(x.path("ts"))));
        assertEquals(starts.keySet(), ends.keySet(), "every flow start has its end");
        for (var s : starts.entrySet()) {
            JsonNode f = ends.get(s.getKey());
            assertTrue(
                    f.path("ts").asDouble() > s.getValue().path("ts").asDouble(),
                    "a packet arrives after it left: " + s.getValue() + f);
            assertTrue(f.path("pid").asInt() != s.getValue().path("pid").asInt(), "a flow goes between devices");
            assertTrue(
                    starts(packetSlices, s.getValue()) && starts(packetSlices, f),
                    "each flow end binds to a packet slice: " + f);
        }
        assertSlicesNest(slices);
    }

    @Test
    void timeoutsAreInstantsOnTheirSwitchAsManyAsTheReportCounts() throws IOException {
        Path report = dir.resolve("k4.json");
        JsonNode t = run("fat-tree-k4-allreduce", report);
        long timeouts = JSON.readTree(report.toFile())
                .path("jobs")
                .get(0)
                .path("timeouts")
                .asLong();
        assertTrue(timeouts > 0, "h16 is silent: the VAT nodes above it time out");
        Map<Integer, String> names = processes(t);
        long instants = 0;
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("ph").asText().equals("i") && e.path("name").asText().startsWith("timeout ft4/ina")) {
                instants++;
                assertTrue(names.get(e.path("pid").asInt()).startsWith("switch "), e.toString());
            }
        }
        assertEquals(timeouts, instants);
        assertSlicesNest(t.findParents("ph").stream()
                .filter(e -> e.path("ph").asText().equals("X"))
                .toList());
    }

    /** A flow event sits where a slice of its thread begins (so it binds to that slice). */
    private static boolean starts(Set<String> slices, JsonNode at) {
        return slices.contains(at.path("pid").asInt() + "/" + at.path("tid").asInt() + "/" + ns(at.path("ts")));
    }

    /** The format's microseconds as whole nanoseconds, read exactly. */
    private static long ns(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).longValueExact();
    }

    /** On every thread, two slices are disjoint or one holds the other. */
    private static void assertSlicesNest(List<JsonNode> slices) {
        Map<String, List<long[]>> byThread = new HashMap<>();
        for (JsonNode x : slices) {
            byThread.computeIfAbsent(x.path("pid").asInt() + "/" + x.path("tid").asInt(), k -> new ArrayList<>())
                    .add(new long[] {ns(x.path("ts")), ns(x.path("ts")) + ns(x.path("dur"))});
        }
        Set<String> threads = new TreeSet<>(byThread.keySet());
        for (String thread : threads) {
            List<long[]> s = byThread.get(thread);
            s.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> -a[1]));
            List<long[]> stack = new ArrayList<>();
            for (long[] x : s) {
                while (!stack.isEmpty() && stack.get(stack.size() - 1)[1] <= x[0]) {
                    stack.remove(stack.size() - 1);
                }
                if (!stack.isEmpty()) {
                    assertTrue(
                            x[1] <= stack.get(stack.size() - 1)[1],
                            "thread " + thread + ": [" + x[0] + ", " + x[1] + "] overlaps ["
                                    + stack.get(stack.size() - 1)[0] + ", " + stack.get(stack.size() - 1)[1]
                                    + "] without nesting");
                }
                stack.add(x);
            }
        }
    }
}
