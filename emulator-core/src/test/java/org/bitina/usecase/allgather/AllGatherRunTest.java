package org.bitina.usecase.allgather;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.run.Report;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped k=4 all-gather, smaller: multicast and the ring end complete and verified; under loss both recover. */
class AllGatherRunTest {
    @TempDir
    Path dir;

    private Scenario k4(String faults) throws Exception {
        return Scenarios.reference(
                dir,
                "fat-tree-k4-all-gather.conf",
                t -> t.replace("elements = 262144", "elements = 32768").replace("window = 256", "window = 32")
                        + faults);
    }

    @Test
    void onTheK4FatTreeMulticastAndTheRingEndCompleteAndVerifiedAndTheInaRowHasItsSpeedup() throws Exception {
        Report r = Scenarios.run(k4(""));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        Report.JobReport ring = Scenarios.mode(r, "ring");
        for (Report.JobReport row : new Report.JobReport[] {ina, ring}) {
            assertEquals("all-gather", row.kind());
            assertEquals("complete", row.status(), row.toString());
            assertTrue(row.verified() && row.asExpected(), row.toString());
            assertEquals(0, row.recovery().retransmissions(), "nothing lost, nothing sent again: " + row);
        }
        assertTrue(ina.speedup().containsKey(AllGatherJobReader.RING), ina.toString());
        assertEquals(ring.modeledMicros() / ina.modeledMicros(), ina.speedup().get(AllGatherJobReader.RING), 0.01);
        // the multicast crosses each link of its tree once per chunk; the ring sends every chunk N-1 times
        assertTrue(ina.totalLinkBytes() < ring.totalLinkBytes(), ina.totalLinkBytes() + " vs " + ring.totalLinkBytes());
        // the packet bound from the plan: per chunk one multicast and 15 acknowledgements; the ring 15 sends, each
        // acknowledged
        assertEquals(128L * 16, ina.packetBound().plannedPackets(), ina.toString());
        assertEquals(2L * 128 * 15, ring.packetBound().plannedPackets(), ring.toString());
    }

    @Test
    void underOnePercentLossBothRecoverByRetransmissionAndEndCompleteAndVerified() throws Exception {
        Report r = Scenarios.run(k4("\nfaults = [{ at = 0us, kind = loss, rate = 1% }]\n"));
        for (String mode : new String[] {"ina", "ring"}) {
            Report.JobReport row = Scenarios.mode(r, mode);
            assertEquals("complete", row.status(), row.toString());
            assertTrue(row.verified() && row.asExpected(), row.toString());
            assertTrue(row.recovery().retransmissions() > 0, mode + ": something was lost and sent again");
        }
    }
}
