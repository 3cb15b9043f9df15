package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bitina.job.Status;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The virtual clock's contract (docs/architecture.md "Two clocks", README "Two clocks"): the same
 * file gives the same report, whatever the load; timers, stragglers and faults happen in
 * modelled time, never on the wall clock.
 */
class VirtualClockTest {
    @TempDir
    Path dir;

    /** The cheap reference scenarios; the rest run twice in {@code ./bench determinism}. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "paper-fig1-allreduce.conf",
                "paper-fig2-moe.conf",
                "shrinking-miss-set.conf",
                "fat-tree-k4-allreduce.conf",
                "fat-tree-k4-bier-inc.conf",
                "fat-tree-k4-bier-inc-link-failure.conf"
            })
    void aShippedScenarioRunTwiceGivesTheSameReport(String file) throws Exception {
        Scenario s = reference(file);
        assertEquals(Clock.VIRTUAL, s.clock(), "virtual is the default");
        Report first = run(s);
        Report second = run(s);
        assertEquals("virtual", first.clock());
        assertSameRun(first, second, file);
        assertTrue(first.allAsExpected(), file + ": " + first.jobs());
    }

    @Test
    void twoRunsWriteTheSameTraceOnceSortedByTimeAndNode() throws Exception {
        Scenario s = reference("paper-fig1-allreduce.conf");
        List<String> first = sortedTrace(s, dir.resolve("a.jsonl"));
        List<String> second = sortedTrace(s, dir.resolve("b.jsonl"));
        assertTrue(first.size() > 1000, first.size() + " events");
        assertEquals(first, second);
    }

    @Test
    void aTraceNamedGzIsGzippedAndEveryEventNamesItsJobAndModeApart() throws Exception {
        Path trace = dir.resolve("t.jsonl.gz");
        run(reference("paper-fig1-allreduce.conf"), trace);
        List<JsonNode> es = events(trace);
        assertEquals("clock", es.get(0).get("event").asText());
        Set<String> modes = new TreeSet<>();
        for (JsonNode e : es.subList(1, es.size())) {
            assertEquals("fig1", e.get("job").asText(), e.toString());
            modes.add(e.get("mode").asText());
        }
        assertEquals(Set.of("ina", "ps", "ring"), modes, "the baselines are traced too");
    }

    /** The trace's lines ordered by (vt, node), then by the line itself (events of one node at one time, any order). */
    private static List<String> sortedTrace(Scenario s, Path trace) throws Exception {
        run(s, trace);
        List<JsonNode> es = new ArrayList<>(events(trace));
        es.sort(Comparator.comparingLong((JsonNode e) -> e.get("vt").asLong())
                .thenComparing(e -> e.get("node").asText())
                .thenComparing(JsonNode::toString));
        return es.stream().map(JsonNode::toString).toList();
    }

    @Test
    void aOneMillisecondTimeoutDoesNotFireForWorkThatTakesTheJvmLongerThanThat() throws Exception {
        // 1 M floats in 256-element chunks: far more than one JVM moves in 1 ms of wall time, a few
        // hundred microseconds of modelled time; the timer is modelled, so it never fires
        Report r = run(write(dir, "fast.conf", star("", "1ms").replace("elements = 65536", "elements = 1048576")));
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified());
        assertEquals(0, ina.counts().timeouts());
        assertTrue(
                ina.timing().wallMillis() > 1,
                "the JVM took " + ina.timing().wallMillis() + " ms: longer than the timeout");
        assertTrue(ina.timing().modeledMicros() < 1000, ina.timing().modeledMicros() + " us");
        assertEquals(1048576 / 256, ina.plan().chunks());
    }

    @Test
    void aFiveMillisecondStragglerMakesTheOneMillisecondTimerFireForEveryChunkAndOnlyItsPartsComeLate()
            throws Exception {
        String faults = "faults = [ { at = 0ms, kind = straggler, node = h3, delay = 5ms } ]\n";
        Scenario s = write(dir, "straggle.conf", star(faults, "1ms"));
        Report r = run(s);
        Report.JobReport ina = mode(r, "ina");
        int chunks = 65536 / 256;
        // h3's every contribution is 5 ms late: the root's 1 ms timer fires once per chunk, the
        // partial result leaves without h3, and h3's part of each chunk is folded in late
        assertEquals(chunks, ina.counts().timeouts(), ina.toString());
        assertEquals(chunks, ina.counts().lateContributions(), ina.toString());
        assertEquals(Status.COMPLETE, ina.outcome().status(), "late parts reach the root and are added there");
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertTrue(ina.timing().modeledMicros() >= 5000, ina.timing().modeledMicros() + " us");
        assertSameRun(r, run(s), "and the same again");
    }

    @Test
    void aFaultLandsAtItsModelledTimeEveryRun() throws Exception {
        // h2's only link fails 20 us into the phase (the run takes several times that): nothing
        // for h2 is lost before, packets are after (s1 has no route left to it), every run alike
        String faults = "faults = [ { at = 20us, kind = link-down, link = [s1, h2] } ]\n";
        Scenario s = write(dir, "cut.conf", star(faults, "1ms"));
        Report before = null;
        for (int i = 0; i < 2; i++) {
            Path trace = dir.resolve("t" + i + ".jsonl");
            Report r = run(s, trace);
            List<JsonNode> lost = events(trace).stream()
                    .filter(e -> e.get("event").asText().equals("drop")
                            && (e.path("detail").asText().equals("link down")
                                    || e.path("detail").asText().startsWith("no route")))
                    .toList();
            assertFalse(lost.isEmpty(), "packets were lost because of the failure");
            long first =
                    lost.stream().mapToLong(e -> e.get("vt").asLong()).min().orElseThrow();
            assertTrue(first >= 20_000, "first loss at " + first + " ns, the fault is at 20 us");
            assertTrue(first < 25_000, "and it bites at once: first loss at " + first + " ns");
            assertTrue(mode(r, "ina").problems().faultsNotApplied().isEmpty());
            assertEquals(List.of("h2"), mode(r, "ina").outcome().missing());
            if (before != null) {
                assertSameRun(before, r, "the cut");
            }
            before = r;
        }
    }

    @Test
    void aFaultAfterThePhaseEndedIsNamedAsNotApplied() throws Exception {
        String faults = "faults = [ { at = 10s, kind = link-down, link = [s1, h2] } ]\n";
        Report.JobReport ina = mode(run(write(dir, "late.conf", star(faults, "1ms"))), "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status());
        assertEquals(List.of("link-down at 10000 ms"), ina.problems().faultsNotApplied());
    }

    @Test
    void theReportCountsEveryDropByReasonPerSwitchAndHost() throws Exception {
        Report r =
                run(write(dir, "dup.conf", star("faults = [ { at = 0us, kind = duplicate, rate = 30% } ]\n", "1ms")));
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status());
        assertTrue(ina.traffic().drops() > 0, "duplicates were dropped");
        long byReason = r.switches().stream()
                        .mapToLong(s -> s.drops().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                        .sum()
                + r.hosts().stream()
                        .mapToLong(h -> h.drops().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                        .sum();
        assertEquals(ina.traffic().drops(), byReason, "every drop has its reason: " + r.switches() + " " + r.hosts());
        // a contribution duplicated on a host's link is a replay at the switch's port (S3)
        assertTrue(
                r.switches().get(0).drops().containsKey("replay"), r.switches().toString());
    }

    /** Four hosts on one switch, an AllReduce over them with this completion timeout. */
    private static String star(String faults, String timeout) {
        return Scenarios.STAR4 + """
                jobs = [{
                  name = star, kind = allreduce, members = [h1, h2, h3, h4]
                  tree { mode = auto, root = s1 }
                  data { elements = 65536, type = float32, op = sum, chunk = 256, window = 16, seed = 3 }
                  completion-timeout = %s
                }]
                """.formatted(timeout) + faults;
    }
}
