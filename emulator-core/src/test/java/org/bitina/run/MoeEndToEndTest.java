package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.reference;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.job.Status;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MoeEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void paperFig2InstallsTheSeedsCbmsAndCombinesAtTheSource() throws ScenarioException, IOException {
        Path trace = dir.resolve("t.jsonl");
        Report r = Scenarios.run(reference("paper-fig2-moe.conf"), trace);
        for (String m : List.of("ina", "all-to-all")) {
            assertEquals(
                    Status.COMPLETE,
                    mode(r, m).outcome().status(),
                    m + " " + mode(r, m).problems().mismatches());
            assertTrue(mode(r, m).outcome().verified(), m);
        }
        // token 0 is pinned to e2, e3, e6, e7: it travels alone in its group's packet
        List<JsonNode> group = events(trace).stream()
                .filter(e -> e.get("job").asText().equals("fig2")
                        && e.get("mode").asText().equals("ina"))
                .toList();
        long seq = group.stream()
                .filter(e -> e.get("node").asText().equals("src")
                        && e.get("event").asText().equals("send")
                        && e.get("bitmap").asText().equals("[01100110]"))
                .findFirst()
                .orElseThrow()
                .get("seq")
                .asLong();
        Map<String, String> installs = new TreeMap<>();
        group.stream()
                .filter(e ->
                        e.get("seq").asLong() == seq && e.get("event").asText().equals("install"))
                .forEach(e ->
                        installs.put(e.get("node").asText(), e.get("bitmap").asText()));
        assertEquals(
                Map.of("s0", "[01100110]", "s1", "[01100000]", "s7", "[00000110]"),
                installs,
                "C-BMs at the branch nodes only: none at the source or at the experts");
        assertTrue(
                group.stream()
                        .anyMatch(e -> e.get("seq").asLong() == seq
                                && e.get("node").asText().equals("src")
                                && e.get("event").asText().equals("deliver")
                                && e.get("dir").asText().equals("agg")),
                "the combined output reaches the source");
        Report.JobReport ina = mode(r, "ina");
        Report.JobReport a2a = mode(r, "all-to-all");
        assertTrue(
                ina.traffic().sourceUplinkBytes() < a2a.traffic().sourceUplinkBytes(),
                "INA sends each token once and gets one output back");
        assertTrue(r.switches().stream().anyMatch(s -> s.name().equals("s0") && s.peakStateEntries() > 0));
        // the report's observed trees are the trace's installs, per switch: their count, the union of their C-BMs, the
        // node above
        Map<String, Long> count = new TreeMap<>();
        Map<String, EndpointSet> union = new TreeMap<>();
        group.stream().filter(e -> e.get("event").asText().equals("install")).forEach(e -> {
            count.merge(e.get("node").asText(), 1L, Long::sum);
            union.merge(
                    e.get("node").asText(), EndpointSets.parse(e.get("bitmap").asText()), EndpointSet::or);
        });
        List<Report.ObservedTree> observed =
                r.observedTrees().stream().filter(t -> t.job().equals("fig2")).toList();
        assertEquals(
                List.of("ina", "ina", "ina"),
                observed.stream().map(t -> t.mode().name()).toList(),
                "a baseline installs nothing");
        Map<String, Long> observedCount = new TreeMap<>();
        Map<String, String> observedBits = new TreeMap<>();
        Map<String, String> upstream = new TreeMap<>();
        observed.forEach(t -> {
            observedCount.put(t.node(), t.installs());
            observedBits.put(t.node(), t.bits());
            upstream.put(t.node(), t.upstream());
            assertEquals("C-BM", t.mechanism());
        });
        assertEquals(count, observedCount);
        assertEquals(
                union.entrySet().stream()
                        .collect(Collectors.toMap(
                                Map.Entry::getKey, e -> e.getValue().toString())),
                observedBits);
        assertEquals(
                Map.of("s0", "src", "s1", "s0", "s7", "s0"),
                upstream,
                "Fig. 2: s1 and s7 combine into s0, s0 into the source");
    }

    private Report run(String faults) throws IOException, ScenarioException {
        return Scenarios.run(dir, "moe.conf", """
                topology {
                  switches = [s0, s1, s7]
                  hosts = [src, h1, h2, h3, h4]
                  links = [ [src, s0], [s0, s1], [s0, s7], [s1, h1], [s1, h2], [s7, h3], [s7, h4] ]
                }
                jobs = [{
                  name = moe, kind = moe
                  sources = [src]
                  experts = [ { name = e1, host = h1 }, { name = e2, host = h1 }, { name = e3, host = h2 }, { name = e4, host = h2 },
                              { name = e5, host = h3 }, { name = e6, host = h3 }, { name = e7, host = h4 }, { name = e8, host = h4 } ]
                  moe { top-k = 3, hidden = 64, tokens-per-source = 64, capacity-factor = 1.0, seed = 9 }
                  completion-timeout = 30ms
                  baselines = [all-to-all]
                }]
                """ + faults);
    }

    @Test
    void pairGranularitySendsOnePacketPerSourceExpertPairAndInstallsNothing() throws Exception {
        Report r = Scenarios.run(
                reference(dir, "paper-fig2-moe.conf", t -> t.replace("granularity = group", "granularity = pair")));
        Report.JobReport ina = mode(r, "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().mismatches().toString());
        assertTrue(ina.outcome().verified());
        assertTrue(
                r.switches().stream().allMatch(s -> s.peakStateEntries() == 0),
                "single-expert packets never branch: " + r.switches());
    }

    @Test
    void capacityDropsAreCountedAndEveryTokenVerifies() throws IOException, ScenarioException {
        Report r = run("");
        Report.JobReport ina = mode(r, "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().mismatches().toString());
        assertTrue(ina.outcome().verified());
        assertFalse(ina.problems().dropped().isEmpty(), "capacity factor 1.0 must drop some (token, expert) pairs");
        assertEquals(
                ina.problems().dropped(),
                mode(r, "all-to-all").problems().dropped(),
                "the same gating and capacity in both modes");
    }

    @Test
    void aSlowExpertFiresCbmTimersAndIsStillFoldedInAtTheSource() throws IOException, ScenarioException {
        Report r = run("faults = [ { kind = straggler, node = h3, delay = 120ms } ]");
        Report.JobReport ina = mode(r, "ina");
        assertTrue(ina.counts().timeouts() > 0, "C-BM timers fired while h3's experts were late");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                "late parts reach the source and are added there: "
                        + ina.problems().partialChunks());
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertTrue(ina.counts().lateContributions() > 0);
    }

    @Test
    void aStragglingSourceDispatchesLateInModelledTimeAndOnTheRealClockInWallTimeToo()
            throws IOException, ScenarioException {
        // before, a straggler fault on a MoE source was dropped without a word
        Scenario s = reference(
                dir,
                "paper-fig2-moe.conf",
                t -> t + "\nfaults = [ { at = 0ms, kind = straggler, node = src, delay = 300ms } ]\n");
        for (Clock clock : Clock.values()) {
            Report r = Scenarios.run(s.withClock(clock));
            for (Report.JobReport j : r.jobs()) {
                assertEquals(
                        Status.COMPLETE,
                        j.outcome().status(),
                        j.mode() + " " + j.problems().unfinished());
                assertTrue(j.outcome().verified(), j.mode().name());
                assertTrue(
                        j.timing().modeledMicros() >= 300_000,
                        j.mode() + " modelled " + j.timing().modeledMicros());
                if (clock == Clock.REAL) {
                    assertTrue(
                            j.timing().wallMillis() >= 300,
                            j.mode() + " wall " + j.timing().wallMillis());
                } else {
                    assertTrue(
                            j.timing().wallMillis() < 300,
                            "a modelled delay is not waited out: " + j.mode() + " wall "
                                    + j.timing().wallMillis());
                }
            }
        }
    }

    /**
     * 64 experts, 4 on each host of a k=4 fat tree, top-2, hidden 64: a dispatch of T tokens to two
     * experts has 4 (3 + 66 T) bytes of payload (540 for two, 804 for three); a top-2 node list is
     * 2 bytes, a flat set of 64 experts 8.
     */
    private Report budgeted(String encoding, int mtu) throws IOException, ScenarioException {
        StringBuilder experts = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            experts.append("{ name = e")
                    .append(i + 1)
                    .append(", host = h")
                    .append(i / 4 + 1)
                    .append(" },\n");
        }
        return Scenarios.run(dir, "budget.conf", """
                topology {
                  generator { kind = fat-tree, k = 4 }
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = %d }
                }
                jobs = [{
                  name = gate, kind = moe, encoding = %s
                  sources = [h1, h5]
                  experts = [ %s ]
                  moe { top-k = 2, hidden = 64, tokens-per-source = 16, seed = 3 }
                  completion-timeout = 30ms
                }]
                """.formatted(mtu, encoding, experts));
    }

    private static void noPacketExceedsTheMtu(Report r) {
        Report.JobReport ina = mode(r, "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().unfinished().toString());
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertTrue(
                r.links().stream().allMatch(l -> l.lost() == 0),
                () -> "MTU drops: "
                        + r.links().stream().filter(l -> l.lost() > 0).toList());
    }

    @Test
    void aDispatchLeavesRoomForItsTagAndItsSetOnEveryLink() throws IOException, ScenarioException {
        // two tokens fill 582 - 40 - 2 = 540 bytes exactly, but not beside the 16-byte tag: one token per packet
        noPacketExceedsTheMtu(budgeted("node-list", 582));
        // two tokens per packet, 40 + 8 (flat on host links) + 540 + 16 = 604 bytes; three (804) would fit only the
        // fabric's 2-byte list
        noPacketExceedsTheMtu(budgeted("{ hosts = flat, fabric = node-list }", 850));
    }

    @Test
    void aDeadExpertLeavesPartialTokensThatNameIt() throws IOException, ScenarioException {
        Report r = run("faults = [ { kind = silent, node = h4 } ]");
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.PARTIAL, ina.outcome().status());
        assertTrue(
                ina.outcome().verified(),
                "partial outputs are checked against the experts they hold: "
                        + ina.problems().mismatches());
        assertFalse(ina.problems().partialChunks().isEmpty());
        assertTrue(
                List.of("e7", "e8").containsAll(ina.outcome().missing())
                        && !ina.outcome().missing().isEmpty(),
                ina.outcome().missing().toString());
        assertTrue(ina.problems().partialChunks().stream()
                .allMatch(c -> List.of("e7", "e8").containsAll(c.missing())));
        assertTrue(ina.outcome().asExpected());
        assertTrue(mode(r, "all-to-all").outcome().asExpected());
    }
}
