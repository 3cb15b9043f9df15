package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Routing;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        return load("fat-tree-k4-allreduce.conf", sets);
    }

    private static Scenario load(String file, String... sets) throws Exception {
        return ScenarioLoader.load(
                Scenarios.CONFIGS.resolve(file), Runtime.getRuntime().maxMemory(), Overrides.parse(List.of(sets)));
    }

    /** The k = 4 file without its silent host, every link losing {@code loss}: every mode completes. */
    private static Scenario lossy(double loss) throws Exception {
        return lossy(k4(), loss);
    }

    /** {@code file} without its faults, every link losing {@code loss}. */
    static Scenario lossy(Scenario file, double loss) {
        return LosslessNeverResendsTest.losing(file, loss);
    }

    @Test
    void everyRowThatRetransmitsCountsTheTimeItLostAndNeverMoreThanItsPhase() throws Exception {
        Report r = Scenarios.run(lossy(0.02));
        int retransmitting = 0;
        for (Report.JobReport j : r.jobs()) {
            String row = j.name() + " " + j.mode().name() + " " + j.outcome().status() + ": " + j.recovery();
            assertEquals(Status.COMPLETE, j.outcome().status(), row);
            if (j.recovery().retransmissions() > 0) {
                retransmitting++;
                assertTrue(j.recovery().recoveryMicros() > 0, row + " retransmitted and lost no time to it");
            }
            assertTrue(
                    j.recovery().recoveryMicros() <= j.timing().modeledMicros(),
                    row + " lost more than its phase " + j.timing().modeledMicros());
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
                .timing()
                .modeledMicros();
        assertTrue(rto > 0 && rto / 1000.0 < ring, "ring's timeout " + rto + " ns, its lossless run " + ring + " us");
    }

    /** Issue 42 item 11: every kind that sends again says how long it waited, within its phase. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "fat-tree-k4-all-gather.conf",
                "fat-tree-k4-reduce-scatter.conf",
                "fat-tree-k4-bier-inc.conf",
                "paper-fig2-moe.conf"
            })
    void everyKindThatRetransmitsCountsTheTimeItLost(String file) throws Exception {
        Report r = Scenarios.run(lossy(load(file), 0.03));
        int retransmitting = 0;
        for (Report.JobReport j : r.jobs()) {
            String row = file + " " + j.name() + " " + j.mode().name() + " "
                    + j.outcome().status() + ": " + j.recovery();
            if (j.recovery().retransmissions() > 0) {
                retransmitting++;
                assertTrue(j.recovery().recoveryMicros() > 0, row + " retransmitted and lost no time to it");
            }
            assertTrue(
                    j.recovery().recoveryMicros() <= j.timing().modeledMicros(),
                    row + " lost more than its phase " + j.timing().modeledMicros());
        }
        assertTrue(retransmitting >= 1, file + ": nothing retransmits at 3 % loss: " + r.jobs());
    }

    /**
     * Issue 42 item 10: a BIER-INC Reduce recovers a lost share by asking again within a few round
     * trips, as its AllReduce does, not by waiting out the completion timeout (it took 401 ms, with
     * 0 retransmissions counted, against 786 us for its ring chain); and the chain's senders, which
     * nobody awaits, count what they sent again (it said 0).
     */
    @Test
    void aBierIncReduceRecoversByAskingAgainNotByItsCompletionTimeout() throws Exception {
        Report r = Scenarios.run(lossy(rootedInc("reduce"), 0.04));
        for (Report.JobReport j : r.jobs()) {
            String row = j.mode().name() + " " + j.outcome().status() + " in "
                    + j.timing().modeledMicros() + " us: " + j.recovery();
            assertEquals(Status.COMPLETE, j.outcome().status(), row);
            assertTrue(j.outcome().verified(), row);
            assertTrue(j.recovery().retransmissions() > 0, row + " recovered at 4 % loss without sending again");
            assertTrue(j.timing().modeledMicros() < 20_000, row + ": waited for a timeout of 200 ms, not a round trip");
        }
    }

    /** The owner's earlier asks for a Reduce's or Broadcast's chunks never fire without a loss. */
    @ParameterizedTest
    @ValueSource(strings = {"reduce", "broadcast"})
    void aLosslessRootedBierIncNeverAsksAgain(String collective) throws Exception {
        Report r = Scenarios.run(lossy(rootedInc(collective), 0));
        for (Report.JobReport j : r.jobs()) {
            String row = collective + " " + j.mode().name() + " " + j.outcome().status() + ": " + j.recovery() + " "
                    + j.stats();
            assertEquals(Status.COMPLETE, j.outcome().status(), row);
            assertEquals(0, j.recovery().retransmissions(), row);
            assertEquals(0.0, j.recovery().recoveryMicros(), row);
            assertEquals(0L, j.stats().getOrDefault("requests", 0L), row);
        }
    }

    /**
     * Issue 42 item 9: with the leaf switches as edge BFRs an owner's own share crosses its leaf
     * too and may be lost; no ask comes back to the host that sent it, so it sends it again
     * itself. At 5 % loss 16 hosts ended partial, every owner missing from some chunks.
     */
    @Test
    void aLeafEdgeRecoversAnOwnersOwnLostShare() throws Exception {
        Report r = Scenarios.run(lossy(inc("jobs.inc4.edge=leaf-switches"), 0.05));
        Report.JobReport j = r.jobs().get(0);
        String row = j.mode().name() + " " + j.outcome().status() + " missing "
                + j.outcome().missing() + ": " + j.recovery();
        assertEquals(Status.COMPLETE, j.outcome().status(), row);
        assertTrue(j.outcome().verified(), row);
        assertTrue(j.recovery().retransmissions() > 0, row);
    }

    /** The k = 4 BIER-INC job alone as a {@code collective} rooted at h1 over 8 members, with its ring chain. */
    private static Scenario rootedInc(String collective) throws Exception {
        return inc(
                "jobs.inc4.collective=" + collective,
                "jobs.inc4.root=h1",
                "jobs.inc4.members=[h1,h2,h3,h4,h5,h6,h7,h8]",
                "jobs.inc4.baselines=[ring]",
                "jobs.inc4.completion-timeout=200ms");
    }

    /** The k = 4 file's BIER-INC job alone, with {@code sets}. */
    private static Scenario inc(String... sets) throws Exception {
        Scenario s = load("fat-tree-k4-bier-inc.conf", sets);
        return new Scenario(
                s.file(),
                s.topology(),
                List.of(s.jobs().get(0)),
                s.faults(),
                s.cluster(),
                s.clock(),
                s.security(),
                s.attacks(),
                s.capacity(),
                s.schedule(),
                s.traffic(),
                s.repeat(),
                s.congestion());
    }
}
