package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * L1: with loss on every link and no other fault, the in-network modes end complete and verified,
 * recovering by retransmission in modelled time (the shipped files, their fault plans replaced by
 * loss alone, as {@code --set 'faults=[{at=0us,kind=loss,rate=5%}]'} does).
 */
class LossRecoveryTest {
    @TempDir
    Path dir;

    private Scenario lossy(String file, String rate) throws Exception {
        return Scenarios.reference(
                dir,
                file,
                t -> t.replaceAll("(?s)\nfaults = \\[.*?\n\\]", "")
                                .replaceAll("baselines = \\[[^\\]]*\\]", "baselines = []")
                        + "\nfaults = [{ at = 0us, kind = loss, rate = " + rate + " }]\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void allReduceOnTheK4FatTreeCompletesVerifiedUnderLoss(String rate) throws Exception {
        Report.JobReport ina = Scenarios.mode(Scenarios.run(lossy("fat-tree-k4-allreduce.conf", rate)), "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified() && ina.outcome().asExpected(), ina.toString());
        assertTrue(ina.recovery().retransmissions() > 0, "something was lost and sent again: " + ina.recovery());
        assertTrue(ina.recovery().resultResends() > 0, "results lost on the way down were resent from the cache");
        assertEquals(0, ina.counts().timeouts(), "recovered before any completion timer fired");
        assertTrue(ina.recovery().gaveUp().isEmpty(), ina.recovery().toString());
        assertTrue(
                ina.recovery().recoveryMicros() > 0
                        && ina.recovery().recoveryMicros() <= ina.timing().modeledMicros(),
                ina.recovery().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void moeOnTheSeedsFig2CompletesVerifiedUnderLoss(String rate) throws Exception {
        Report.JobReport ina = Scenarios.mode(Scenarios.run(lossy("paper-fig2-moe.conf", rate)), "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified() && ina.outcome().asExpected(), ina.toString());
        assertTrue(ina.recovery().gaveUp().isEmpty(), ina.recovery().toString());
    }
}
