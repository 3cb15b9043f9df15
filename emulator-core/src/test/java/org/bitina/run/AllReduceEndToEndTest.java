package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.fig1WithTimeouts;
import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllReduceEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void paperFig1RunsAsTheSeedDescribes() throws ScenarioException, IOException {
        // the reference scenario with a roomy timer: a cold JVM on a loaded 2-core machine must not
        // turn this exact packet count into a test of wall-clock timers
        Path trace = dir.resolve("trace.jsonl");
        Report r = run(fig1WithTimeouts(dir, "5s"), trace);
        for (String mode : List.of("ina", "ring", "ps")) {
            Report.JobReport j = mode(r, mode);
            assertEquals(Status.COMPLETE, j.outcome().status(), mode + ": " + j);
            assertTrue(j.outcome().verified(), mode);
            assertTrue(j.outcome().asExpected(), mode);
        }
        assertTrue(r.allAsExpected());

        List<JsonNode> events = events(trace).stream()
                .filter(e -> e.get("job").asText().equals("fig1")
                        && e.get("mode").asText().equals("ina")
                        && e.get("seq").asLong() == 0)
                .toList();
        // s7 forwards s1's result untouched toward s6: AND with [00110000] is zero
        assertTrue(
                events.stream()
                        .anyMatch(e -> e.get("node").asText().equals("s7")
                                && e.get("event").asText().equals("forward")
                                && e.get("bitmap").asText().equals("[11000000]")
                                && e.get("to").get(0).asText().equals("s6")),
                "s7 forwards s1's result");
        assertTrue(events.stream()
                .anyMatch(e -> e.get("node").asText().equals("s7")
                        && e.get("event").asText().equals("complete")
                        && e.get("bitmap").asText().equals("[00110000]")));
        assertTrue(
                events.stream()
                        .anyMatch(e -> e.get("node").asText().equals("s6")
                                && e.get("event").asText().equals("complete")
                                && e.get("bitmap").asText().equals("[11110000]")),
                "s6 completes with [11110000]");
        Set<String> delivered = events.stream()
                .filter(e -> e.get("event").asText().equals("deliver")
                        && e.get("dir").asText().equals("mcast"))
                .map(e -> e.get("node").asText())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("w1", "w2", "w3", "w4"), delivered, "the result reaches w1..w4 and no other host");
        // report side by side: INA puts fewer packets into the root than the parameter server
        assertTrue(mode(r, "ina").traffic().packetsIntoRoot()
                < mode(r, "ps").traffic().packetsIntoRoot());
        assertEquals(2 * 256, mode(r, "ina").traffic().packetsIntoRoot(), "two children (s1, s7) per chunk");
        assertEquals(4 * 256, mode(r, "ps").traffic().packetsIntoRoot(), "four workers per chunk");
    }

    @Test
    void fatTreeK4WithAStragglerAndASilentWorker() throws ScenarioException, IOException {
        Report r = run(dir, "ft4.conf", fatTree(4, """
                jobs = [{
                  name = ft4, kind = allreduce, tenant = 2
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 4096, type = int32, op = sum, chunk = 256, window = 4, seed = 5 }
                  completion-timeout = 20ms
                  baselines = [ps]
                }]
                faults = [
                  # h3 is far slower than every timer on chunks 1 and 2: late, folded in at the root
                  { kind = straggler, node = h3, delay = 150ms, chunks = [1, 2] }
                  { kind = silent, node = h16 }
                ]
                """));
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.PARTIAL, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertEquals(
                List.of("h16"),
                ina.outcome().missing(),
                "only the silent worker is missing; the straggler is folded in");
        assertTrue(ina.counts().timeouts() > 0);
        assertTrue(ina.counts().lateContributions() > 0, "h3's chunks arrived after its edge switch's partial left");
        assertEquals(16, ina.plan().chunks());
        assertEquals(15 * 16, ina.problems().partialChunks().size(), "every live worker's every chunk lacks h16");
        Report.JobReport ps = mode(r, "ps");
        assertEquals(Status.PARTIAL, ps.outcome().status());
        assertTrue(ps.outcome().verified());
        assertEquals(List.of("h16"), ps.outcome().missing());
        assertTrue(r.allAsExpected());
        assertFalse(r.switches().isEmpty());
        assertTrue(r.switches().stream().anyMatch(sw -> sw.peakStateEntries() > 0));
    }
}
