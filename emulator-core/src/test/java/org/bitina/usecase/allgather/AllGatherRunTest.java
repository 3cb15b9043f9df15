package org.bitina.usecase.allgather;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.job.Status;
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
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().asExpected(), row.toString());
            assertEquals(0, row.recovery().retransmissions(), "nothing lost, nothing sent again: " + row);
        }
        assertTrue(ina.speedup().containsKey(AllGatherJobReader.RING), ina.toString());
        assertEquals(
                ring.timing().modeledMicros() / ina.timing().modeledMicros(),
                ina.speedup().get(AllGatherJobReader.RING),
                0.01);
        // the multicast crosses each link of its tree once per chunk; the ring sends every chunk N-1 times
        assertTrue(
                ina.traffic().totalLinkBytes() < ring.traffic().totalLinkBytes(),
                ina.traffic().totalLinkBytes() + " vs " + ring.traffic().totalLinkBytes());
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
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().asExpected(), row.toString());
            assertTrue(row.recovery().retransmissions() > 0, mode + ": something was lost and sent again");
        }
    }

    /** "h3 (117 of 128 chunks)" of an unfinished line. */
    private static final Pattern UNFINISHED = Pattern.compile("(\\S+) \\((\\d+) of (\\d+) chunks.*");

    /** "h5: to h3: no acknowledgement after 10 sends of 2 chunks (17, 33)" of a give-up line. */
    private static final Pattern GAVE_UP =
            Pattern.compile(".*to (\\S+): no acknowledgement after 10 sends of (\\d+) chunks? .*");

    @Test
    void underTwentyPercentLossTheMulticastCompletesOrNamesEveryChunkItGaveUpOnAndTheRingNamesItsGiveUps()
            throws Exception {
        Report r = Scenarios.run(k4("\nfaults = [{ at = 0us, kind = loss, rate = 20% }]\n"));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        if (!ina.outcome().status().equals(Status.COMPLETE)) {
            assertEquals(Status.FAILED, ina.outcome().status(), ina.toString());
            assertFalse(ina.recovery().gaveUp().isEmpty(), "never silent: " + ina);
            assertTrue(
                    ina.problems().mismatches().isEmpty(),
                    "a give-up is not a wrong value: " + ina.problems().mismatches());
            // each chunk a receiver lacks is its owner's only, so its owner gave up on that receiver for it
            Map<String, Integer> givenUp = new HashMap<>();
            for (String g : ina.recovery().gaveUp()) {
                Matcher m = GAVE_UP.matcher(g);
                assertTrue(m.matches(), g);
                givenUp.merge(m.group(1), Integer.parseInt(m.group(2)), Integer::sum);
            }
            for (String u : ina.problems().unfinished()) {
                Matcher m = UNFINISHED.matcher(u);
                assertTrue(m.matches(), u);
                int lacks = Integer.parseInt(m.group(3)) - Integer.parseInt(m.group(2));
                assertTrue(
                        givenUp.getOrDefault(m.group(1), 0) >= lacks,
                        m.group(1) + " lacks " + lacks + " chunks, given up on for " + givenUp.get(m.group(1)));
            }
            for (String missing : ina.outcome().missing()) {
                assertTrue(givenUp.containsKey(missing), missing + " is missing and no sender named it: " + ina);
            }
        }
        Report.JobReport ring = Scenarios.mode(r, "ring");
        if (!ring.outcome().status().equals(Status.COMPLETE)) {
            assertFalse(ring.recovery().gaveUp().isEmpty(), "never silent: " + ring);
        }
    }
}
