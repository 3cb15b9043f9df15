package org.bitina.run;

import static org.bitina.run.Scenarios.reference;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.bitina.scenario.Scenario;
import org.bitina.topology.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs an independent tester found ending wrongly: a straggler alone failing. */
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
            assertEquals("complete", j.status(), j.mode() + " " + j.unfinished() + " " + j.note());
            assertTrue(j.verified(), j.mode());
            assertTrue(j.modeledMicros() >= 40_000_000, j.mode() + " modelled " + j.modeledMicros());
        }
        assertTrue(r.allAsExpected());
    }
}
