package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workers' retransmission timeouts ({@link AllReduceWorker#policy}) never fire without a loss: no spurious
 * retransmission on the shipped AllReduce files, whatever a shorter rule would save; under loss the job
 * still recovers and completes.
 */
class NoSpuriousRetransmissionRunTest {
    @TempDir
    Path dir;

    @Test
    void withoutLossNoWorkerSendsAnythingTwiceOnFigureOneAndTheK4AndK8FatTrees() throws Exception {
        for (String file :
                new String[] {"paper-fig1-allreduce.conf", "fat-tree-k4-allreduce.conf", "fat-tree-k8-allreduce.conf"
                }) {
            Report r = Scenarios.run(
                    Scenarios.reference(dir, file, t -> t.replace("elements = 1048576", "elements = 131072")));
            Report.JobReport ina = Scenarios.mode(r, "ina");
            assertTrue(ina.outcome().asExpected(), file + ": " + ina);
            assertEquals(0L, ina.recovery().retransmissions(), file + ": no spurious retransmission: " + ina);
            assertEquals(0L, ina.recovery().resultResends(), file);
        }
    }

    @Test
    void atOnePercentLossTheK4FatTreeRecoversAndCompletesVerified() throws Exception {
        Report r = Scenarios.run(Scenarios.reference(
                dir, "fat-tree-k4-allreduce.conf", t -> t + "\nfaults = [{ at = 0us, kind = loss, rate = 1% }]\n"));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified(), ina.toString());
        assertTrue(ina.recovery().retransmissions() > 0, "something was lost and sent again: " + ina);
    }
}
