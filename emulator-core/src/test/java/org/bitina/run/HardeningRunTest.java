package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.reference;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs an independent tester found ending wrongly: a straggler alone failing, honest frames called attacks. */
class HardeningRunTest {
    @TempDir
    Path dir;

    @Test
    void aFiveSecondMoeSourceStragglerCompletesBecauseTheDeadlineFollowsTheFaults()
            throws IOException, ScenarioException {
        // the deadline was 30 s + 20 timeouts whatever the faults: this straggler alone failed the run
        Scenario s = reference(
                dir,
                "paper-fig2-moe.conf",
                // two tokens in flight: eight rounds, each dispatch 5 s late; 32 s was the constant bound
                t -> t.replace("seed = 2\n", "seed = 2, window = 2\n")
                                .replace("completion-timeout = 50ms", "completion-timeout = 100ms")
                        + "\nfaults = [ { at = 0ms, kind = straggler, node = src, delay = 5s } ]\n");
        Report r = Scenarios.run(s);
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().unfinished() + " "
                            + j.outcome().note());
            assertTrue(j.outcome().verified(), j.mode().name());
            assertTrue(
                    j.timing().modeledMicros() >= 40_000_000,
                    j.mode() + " modelled " + j.timing().modeledMicros());
        }
        assertTrue(r.allAsExpected());
    }

    @Test
    void framesOnTheWireWhenTheirHostsLinkGoesDownAreDroppedAsLinkDownNotSpoofedBits()
            throws IOException, ScenarioException {
        // w1's contributions are held 100 us on its link; the link goes down at 20 us, under them
        Scenario s = reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t.replace("baselines = [ring, ps]", "baselines = []")
                        + "\nfaults = [ { at = 0us, kind = delay, link = [w1, s1], delay = 100us },\n"
                        + "  { at = 20us, kind = link-down, link = [w1, s1] } ]\n");
        Path trace = dir.resolve("t.jsonl");
        Report r = Scenarios.run(s, trace);
        for (SwitchReport sw : r.switches()) {
            for (String reason : sw.drops().keySet()) {
                assertFalse(reason.contains("spoofed"), sw.name() + " dropped an honest frame as " + reason);
            }
        }
        SwitchReport s1 = r.switches().stream()
                .filter(sw -> sw.name().equals("s1"))
                .findFirst()
                .orElseThrow();
        List<JsonNode> lost = events(trace).stream()
                .filter(e -> "drop".equals(e.path("event").asText())
                        && "s1".equals(e.path("node").asText())
                        && "link down".equals(e.path("detail").asText()))
                .toList();
        assertFalse(lost.isEmpty(), "w1's frames in flight are lost with its link, at s1");
        assertEquals(lost.size(), s1.drops().getOrDefault("link down", 0L), "each is counted: " + s1.drops());
        assertTrue(lost.stream().allMatch(e -> e.path("vt").asLong() >= 20_000), lost.toString());
        // cut off, w1 gives up on its results (a give-up, not a wrong value); nobody else is short of one
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertEquals(List.of(), ina.problems().mismatches(), "no wrong value anywhere");
        assertTrue(
                ina.recovery().gaveUp().stream().allMatch(m -> m.startsWith("w1: ")),
                ina.recovery().gaveUp().toString());
    }

    @Test
    void aCrashThatNeverAppliedLeavesNothingExpectedPartial() throws IOException, ScenarioException {
        // s1 holds w1 and w2: crashed mid-phase it cuts them off (partial expected); at 10 s it never happens
        Scenario s = reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t + "\nfaults = [ { at = 10s, kind = switch-crash, node = s1 } ]\n");
        Report r = Scenarios.run(s);
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    List.of("switch-crash at 10000 ms"),
                    j.problems().faultsNotApplied(),
                    j.mode().name());
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().unfinished() + " "
                            + j.outcome().note());
            assertEquals("complete", j.outcome().expected(), j.mode() + ": the crash never applied");
            assertTrue(j.outcome().asExpected(), j.mode().name());
        }
    }
}
