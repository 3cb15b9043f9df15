package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;

/**
 * One recovery policy for every mode (issue 42 item 4): {@code recovery { rto-min, rto-max,
 * max-sends }} reaches INA's workers and every host baseline alike, and the report states the
 * policy each row recovered by.
 */
class RecoverySettingsRunTest {
    private static Report run(double loss, String... sets) throws Exception {
        Scenario s = ScenarioLoader.load(
                Scenarios.CONFIGS.resolve("fat-tree-k4-allreduce-baselines.conf"),
                Runtime.getRuntime().maxMemory(),
                Overrides.parse(List.of(sets)));
        return Scenarios.run(
                loss > 0 ? LosslessNeverResendsTest.losing(s, loss) : LosslessNeverResendsTest.lossless(s));
    }

    @Test
    void everyModeStatesItsPolicyAndTakesTheJobsSettings() throws Exception {
        Report modelled = run(0.02);
        for (Report.JobReport j : modelled.jobs()) {
            String row = j.mode() + ": " + j.recovery();
            assertTrue(j.recovery().rtoMicros() > 0 && j.recovery().maxSends() > 0, row);
            assertTrue(j.recovery().retransmissions() > 0, row);
        }
        // a floor of 2 ms above every mode's modelled timeout: every row says so and waits longer
        Report floored = run(0.02, "defaults.recovery.rto-min=2ms");
        for (int i = 0; i < floored.jobs().size(); i++) {
            Report.JobReport j = floored.jobs().get(i);
            Report.JobReport before = modelled.jobs().get(i);
            String row = j.mode() + ": " + j.recovery() + " (before: " + before.recovery() + ")";
            assertEquals(2000.0, j.recovery().rtoMicros(), 1e-9, row);
            assertTrue(
                    j.timing().modeledMicros() > before.timing().modeledMicros(),
                    row + ": a longer timeout, a longer phase");
        }
        // two sends at most: every row says so, and what it gave up on names its two sends
        Report twice = run(0.02, "defaults.recovery.max-sends=2");
        long gaveUp = 0;
        for (Report.JobReport j : twice.jobs()) {
            String row = j.mode() + ": " + j.recovery();
            assertEquals(2, j.recovery().maxSends(), row);
            for (String g : j.recovery().gaveUp()) {
                assertTrue(g.contains("after 2 sends"), row);
                gaveUp++;
            }
        }
        assertTrue(gaveUp > 0, "at 2 % loss two sends are not enough for every chunk");
        // a floor raises the timeout only: a lossless run still sends nothing again
        for (Report.JobReport j : run(0, "defaults.recovery.rto-min=2ms").jobs()) {
            assertEquals(0, j.recovery().retransmissions(), j.mode() + ": " + j.recovery());
        }
    }
}
