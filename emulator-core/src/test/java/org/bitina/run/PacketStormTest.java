package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.usecase.PhaseEstimate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose frames would grow without bound ends failed, naming the storm, instead of running out of memory. */
class PacketStormTest {
    @TempDir
    Path dir;

    /**
     * A chain of {@code n} switches between a source and its one receiver: every link duplicates almost every
     * frame, and no switch on the way aggregates (BIER forwarding keeps no state), so one packet arrives
     * as about 1.99^(n+1) copies.
     */
    private static String chain(int n, String faults) {
        List<String> switches = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            switches.add("s" + i);
            if (i > 1) {
                links.add("[s" + (i - 1) + ", s" + i + "]");
            }
        }
        links.add("[a, s1]");
        links.add("[s" + n + ", d]");
        return "topology {\n  link-defaults { latency = 1us, bandwidth = 100Gbps }\n"
                + "  switches = " + switches + "\n  hosts = [a, d]\n  links = " + links + "\n}\n"
                + "jobs = [{ name = storm, kind = reliable-multicast, tenant = 1, source = a, receivers = [d]\n"
                + "  data { bytes = 2000, packet = 1000, window = 2, seed = 1 }\n"
                + "  completion-timeout = 1ms, baselines = [] }]\n"
                + faults;
    }

    @Test
    void aDuplicationStormOverAChainOfSixtySwitchesEndsFailedNamingTheStormQuickly()
            throws IOException, ScenarioException {
        // about 1.99^61 copies of each packet without the bound: no heap holds them
        Scenario s = Scenarios.write(
                dir, "storm.conf", chain(60, "faults = [ { at = 0us, kind = duplicate, rate = 0.99 } ]\n"));
        long began = System.nanoTime();
        Report r = Scenarios.run(s);
        long seconds = (System.nanoTime() - began) / 1_000_000_000L;
        Report.JobReport j = Scenarios.mode(r, "ina");
        assertEquals(Status.FAILED, j.outcome().status(), j.outcome().note());
        assertTrue(j.outcome().note().contains("packet storm"), j.outcome().note());
        PacketBound b = j.packetBound();
        assertNotNull(b, "the phase states its planned packets");
        // two data packets; the ACK of each from d, and at most one aggregate ACK from each switch
        assertEquals(2L * (1 + 1 + 60), b.plannedPackets());
        assertEquals(b.plannedPackets() * PhaseEstimate.ALLOWED_PER_PLANNED * 61, b.frameLimit());
        assertTrue(seconds < 60, "stopped quickly: " + seconds + " s");
    }

    @Test
    void theSameChainWithoutDuplicationCompletesWellInsideItsBound() throws IOException, ScenarioException {
        Scenario s = Scenarios.write(dir, "calm.conf", chain(60, ""));
        Report.JobReport j = Scenarios.mode(Scenarios.run(s), "ina");
        assertEquals(Status.COMPLETE, j.outcome().status(), j.outcome().note());
        assertTrue(
                j.traffic().packets() < j.packetBound().frameLimit(),
                j.traffic().packets() + " packets");
    }
}
