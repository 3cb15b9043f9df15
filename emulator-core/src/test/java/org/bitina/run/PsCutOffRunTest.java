package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parameter-server baseline when a crashed edge switch cuts workers off: partial, naming them, as INA. */
class PsCutOffRunTest {
    @TempDir
    Path dir;

    @Test
    void anEdgeSwitchCrashWithASilentWorkerLeavesPsPartialNamingExactlyTheCutOffAndTheSilent()
            throws IOException, ScenarioException {
        // s1 holds w1 and w2; w3 never sends; no loss: the faults explain every missing share
        Scenario s = Scenarios.reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t.replace("baselines = [ring, ps]", "baselines = [ps]")
                        + "\nfaults = [ { at = 0us, kind = silent, node = w3 },"
                        + " { at = 20us, kind = switch-crash, node = s1 } ]\n");
        Report r = Scenarios.run(s);
        for (String mode : List.of("ina", "ps")) {
            Report.JobReport j = Scenarios.mode(r, mode);
            assertEquals(
                    Status.PARTIAL,
                    j.outcome().status(),
                    mode + " " + j.problems().unfinished() + " " + j.outcome().note());
            assertEquals("partial", j.outcome().expected(), mode);
            assertEquals(List.of("w1", "w2", "w3"), j.outcome().missing(), mode);
            assertEquals(List.of(), j.problems().mismatches(), mode + ": no wrong value");
            assertEquals(List.of(), j.recovery().gaveUp(), mode + ": a cut-off worker stops, it does not give up");
            assertTrue(j.outcome().asExpected(), mode);
        }
        assertTrue(
                Scenarios.mode(r, "ps").outcome().note().contains("cut off: [w1, w2]"),
                Scenarios.mode(r, "ps").outcome().note());
        assertTrue(r.allAsExpected());
    }
}
