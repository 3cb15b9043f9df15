package org.bitina.usecase.multicast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped k=8 checkpoint at k=4 (15 receivers, five windows) with 5 % loss on every link: the rounds run on
 * timers from the round trip, so the lossy run completes in microseconds per round, not in completion timeouts
 * (the unicast baseline has no tree: its rounds end at the source's timer, which backs off).
 */
class MulticastLossRunTest {
    @TempDir
    Path dir;

    @Test
    void atFivePercentLossTheCheckpointCompletesVerifiedInFarLessThanOneCompletionTimeout() throws Exception {
        Report r = Scenarios.run(Scenarios.reference(
                dir,
                "fat-tree-k8-checkpoint.conf",
                t -> t.replace("kind = fat-tree, k = 8", "kind = fat-tree, k = 4")
                                .replace("bytes = 4MiB", "bytes = 320000")
                                .replace("max-rounds = 8", "max-rounds = 16")
                        + "\nfaults = [{ at = 0us, kind = loss, rate = 5% }]\n"));
        for (String mode : new String[] {"ina", "unicast-ack"}) {
            Report.JobReport row = Scenarios.mode(r, mode);
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().missing().isEmpty(), row.toString());
        }
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertTrue(ina.counts().timeouts() > 0, "something was lost and the tree timed out");
        // with the completion-timeout rule one lost ACK alone cost a node's 100 ms x height
        assertTrue(
                ina.timing().modeledMicros() < 100_000, "took " + ina.timing().modeledMicros() + " us");
    }
}
