package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.job.Mode;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;
import org.junit.jupiter.api.Test;

/**
 * Issue 42 items 4 and 11: under loss INA and the host baselines are compared on their recovery,
 * not on a timer constant. Every row that retransmits counts the time it lost to recovery (the
 * ring's said 0 ns), never more than its phase; and a ring's retransmission timeout is the round
 * trip of the links a packet crosses with their windows' queueing, not every member's window on the
 * slowest link (at k = 8 that was 16.3 ms against a 0.9 ms lossless ring, and a 1 % loss run
 * measured the timer: 311 ms).
 */
class RecoveryTimeTest {
    private static Scenario k4(String... sets) throws Exception {
        return ScenarioLoader.load(
                Scenarios.CONFIGS.resolve("fat-tree-k4-allreduce.conf"),
                Runtime.getRuntime().maxMemory(),
                Overrides.parse(List.of(sets)));
    }

    /** The k = 4 file without its silent host, every link losing {@code loss}: every mode completes. */
    private static Scenario lossy(double loss) throws Exception {
        Scenario s = LosslessNeverResendsTest.lossless(k4());
        List<Link> links = s.topology().links().stream()
                .map(l -> new Link(
                        l.a(),
                        l.b(),
                        new LinkSpec(
                                l.spec().latencyNanos(),
                                l.spec().bandwidthBps(),
                                l.spec().mtu(),
                                loss,
                                l.spec().bufferBytes(),
                                l.spec().ecnThresholdBytes())))
                .toList();
        return new Scenario(
                s.file(),
                new Topology(s.topology().nodes(), links),
                s.jobs(),
                s.faults(),
                s.cluster(),
                s.clock(),
                s.security(),
                s.attacks(),
                s.capacity(),
                s.schedule(),
                s.traffic());
    }

    @Test
    void everyRowThatRetransmitsCountsTheTimeItLostAndNeverMoreThanItsPhase() throws Exception {
        Report r = Scenarios.run(lossy(0.02));
        int retransmitting = 0;
        for (Report.JobReport j : r.jobs()) {
            String row = j.name() + " " + j.mode().name() + " " + j.status() + ": " + j.recovery();
            assertEquals("complete", j.status(), row);
            if (j.recovery().retransmissions() > 0) {
                retransmitting++;
                assertTrue(j.recovery().recoveryMicros() > 0, row + " retransmitted and lost no time to it");
            }
            assertTrue(
                    j.recovery().recoveryMicros() <= j.modeledMicros(),
                    row + " lost more than its phase " + j.modeledMicros());
        }
        assertTrue(retransmitting >= 2, "INA and a baseline retransmit at 2 % loss: " + r.jobs());
    }

    @Test
    void aRingWaitsForALossAboutARoundTripNotLongerThanItsWholeLosslessRun() throws Exception {
        Scenario s = k4();
        ArrayPhases.JobSpecWithData job = (ArrayPhases.JobSpecWithData) s.jobs().get(0);
        long rto = HostBaselines.retransmissionTimeout(s, Routing.compute(s.topology()), job, Mode.of("ring"));
        Report lossless = Scenarios.run(LosslessNeverResendsTest.lossless(s));
        double ring = lossless.jobs().stream()
                .filter(j -> j.mode().name().equals("ring"))
                .findFirst()
                .orElseThrow()
                .modeledMicros();
        assertTrue(rto > 0 && rto / 1000.0 < ring, "ring's timeout " + rto + " ns, its lossless run " + ring + " us");
    }
}
