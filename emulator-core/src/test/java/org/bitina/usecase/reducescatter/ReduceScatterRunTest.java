package org.bitina.usecase.reducescatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped k=4 reduce-scatter, smaller: INA and the ring end complete and verified; under loss INA recovers. */
class ReduceScatterRunTest {
    @TempDir
    Path dir;

    private Scenario k4(String faults) throws Exception {
        return Scenarios.reference(
                dir,
                "fat-tree-k4-reduce-scatter.conf",
                t -> t.replace("elements = 262144", "elements = 32768").replace("window = 256", "window = 32")
                        + faults);
    }

    @Test
    void onTheK4FatTreeInaAndTheRingEndCompleteAndVerifiedAndTheInaRowHasItsSpeedup() throws Exception {
        Report r = Scenarios.run(k4(""));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        Report.JobReport ring = Scenarios.mode(r, "ring");
        for (Report.JobReport row : new Report.JobReport[] {ina, ring}) {
            assertEquals("reduce-scatter", row.kind());
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().asExpected(), row.toString());
        }
        assertTrue(ina.speedup().containsKey(ReduceScatterJobReader.RING), ina.toString());
        assertEquals(
                ring.timing().modeledMicros() / ina.timing().modeledMicros(),
                ina.speedup().get(ReduceScatterJobReader.RING),
                0.01);
        assertEquals(0, ina.counts().timeouts(), "nothing lost, no completion timer fired");
        // every chunk is summed once on its way to the root: 128 chunks x 16 members into the VAT, 128 x 4 into core-1
        assertEquals(128L * 4, ina.traffic().packetsIntoRoot(), "the root's four aggregation children, once per chunk");
        // the packet bound from the plan: per chunk 16 contributions, 12 aggregates (4 aggregation and
        // 8 edge switches), the owner's result and the others' notice; the ring 15 sends a chunk, each acknowledged
        assertEquals(128L * (16 + 12 + 2), ina.packetBound().plannedPackets(), ina.toString());
        assertEquals(2L * 128 * 15, ring.packetBound().plannedPackets(), ring.toString());
    }

    @Test
    void underOnePercentLossInaRecoversByRetransmissionAndEndsCompleteAndVerified() throws Exception {
        Report r = Scenarios.run(k4("\nfaults = [{ at = 0us, kind = loss, rate = 1% }]\n"));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified() && ina.outcome().asExpected(), ina.toString());
        assertTrue(ina.recovery().retransmissions() > 0, "something was lost and sent again: " + ina.recovery());
        assertTrue(ina.recovery().gaveUp().isEmpty(), ina.recovery().toString());
        Report.JobReport ring = Scenarios.mode(r, "ring");
        assertEquals(Status.COMPLETE, ring.outcome().status(), ring.toString());
        assertTrue(ring.outcome().verified(), ring.toString());
    }
}
