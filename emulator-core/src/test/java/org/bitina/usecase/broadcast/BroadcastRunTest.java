package org.bitina.usecase.broadcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped k=4 broadcast, smaller (128 chunks of 256 floats from h1 to 15 members): replicated in the
 * network and unicast by the root, both end complete and verified against the root's data, lossless or not.
 */
class BroadcastRunTest {
    private static final long ARRAY = 32768L * 4;

    @TempDir
    Path dir;

    private Scenario k4(String faults) throws Exception {
        return Scenarios.reference(
                dir,
                "fat-tree-k4-broadcast.conf",
                t -> t.replace("elements = 262144", "elements = 32768").replace("window = 256", "window = 32")
                        + faults);
    }

    @Test
    void theSwitchesReplicateWhatTheRootWouldSendFifteenTimesAndBothModesEndVerified() throws Exception {
        Report r = Scenarios.run(k4(""));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        Report.JobReport unicast = Scenarios.mode(r, "unicast");
        for (Report.JobReport row : List.of(ina, unicast)) {
            assertEquals("broadcast", row.kind());
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().asExpected(), row.toString());
            assertEquals(0, row.recovery().retransmissions(), "nothing lost, nothing sent again: " + row);
            assertEquals(ARRAY, row.bandwidth().dataBytes(), row.toString());
        }
        // in the network every link carries the array once; the root's own link carries it once per member
        assertTrue(ina.traffic().maxLinkBytes() < 2 * ARRAY, ina.toString());
        assertTrue(unicast.traffic().maxLinkBytes() >= 15 * ARRAY, unicast.toString());
        assertEquals(1.0, ina.bandwidth().busFactor());
        assertEquals(15.0, unicast.bandwidth().busFactor());
        assertEquals(
                unicast.timing().modeledMicros() / ina.timing().modeledMicros(),
                ina.speedup().get(BroadcastJobReader.UNICAST),
                0.05);
        // the unicast plan: each of the 128 chunks to 15 members, each copy acknowledged
        assertEquals(2L * 128 * 15, unicast.packetBound().plannedPackets(), unicast.toString());
        // in the network: one ACK a window (of 32 chunks) reaches the root, the switches having merged the rest
        assertEquals(4, ina.traffic().packetsIntoRoot(), ina.toString());
    }

    @Test
    void underOnePercentLossBothRecoverByRetransmissionAndEndCompleteAndVerified() throws Exception {
        Report r = Scenarios.run(k4("\nfaults = [{ at = 0us, kind = loss, rate = 1% }]\n"));
        for (String mode : new String[] {"ina", "unicast"}) {
            Report.JobReport row = Scenarios.mode(r, mode);
            assertEquals(Status.COMPLETE, row.outcome().status(), row.toString());
            assertTrue(row.outcome().verified() && row.outcome().asExpected(), row.toString());
            // the multicast sends a window again to those still missing it (a round); the unicast root a packet
            long again = mode.equals("ina")
                    ? row.counts().retransmissionRounds()
                    : row.recovery().retransmissions();
            assertTrue(again > 0, mode + ": something was lost and sent again: " + row);
        }
    }

    @Test
    void aSilentMemberIsNamedAsMissingNeverCountedAsServed() throws Exception {
        Report r = Scenarios.run(k4("\nfaults = [{ at = 0us, kind = silent, node = h7 }]\n"));
        for (String mode : new String[] {"ina", "unicast"}) {
            Report.JobReport row = Scenarios.mode(r, mode);
            assertTrue(row.outcome().missing().contains("h7"), row.toString());
            assertTrue(row.outcome().asExpected(), "the fault plan says so: " + row);
        }
    }
}
