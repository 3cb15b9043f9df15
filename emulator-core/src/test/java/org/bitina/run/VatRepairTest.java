package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VAT repair after a switch crash (issue 15), under the virtual clock: the controller rebuilds
 * the VAT around the crashed switch at the fault's modelled time, the workers send their open
 * chunks again, and the job ends complete and verified where every member keeps a path to the
 * (new) root; partial, missing exactly the members cut off, where one does not.
 */
class VatRepairTest {
    private static final String FILE = "fat-tree-k4-vat-repair.conf";

    @TempDir
    Path dir;

    private Scenario crashing(String node) throws Exception {
        return Scenarios.reference(dir, FILE, t -> t.replace("node = agg-2-1", "node = " + node));
    }

    @Test
    void anAggregationSwitchOfTheVatCrashesAndTheJobEndsCompleteAndVerified() throws Exception {
        Scenario s = Scenarios.reference(FILE);
        assertEquals(Clock.VIRTUAL, s.clock());
        Report r = Scenarios.run(s);
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().unfinished() + " " + ina.outcome().missing() + " "
                        + ina.problems().mismatches());
        assertTrue(ina.outcome().verified());
        assertEquals("complete", ina.outcome().expected());
        assertTrue(ina.outcome().asExpected());
        assertTrue(
                ina.outcome().note().contains("VAT rebuilt at 60.0 us after agg-2-1 crashed: root core-1, A-BMs {"),
                ina.outcome().note());
        assertTrue(ina.outcome().note().contains("; cut off: []"), ina.outcome().note());
        // pod 2 aggregates at agg-2-2 now, the crashed switch holds no A-BM
        String rebuilt = ina.outcome().note().substring(ina.outcome().note().indexOf("VAT rebuilt"));
        assertTrue(rebuilt.contains("agg-2-2=[0000111100000000]") && !rebuilt.contains("agg-2-1="), rebuilt);
        // same input, same answer: the repair happens at the fault's modelled time
        assertEquals(Scenarios.comparable(r), Scenarios.comparable(Scenarios.run(Scenarios.reference(FILE))));
    }

    @Test
    void theRootCrashesAndTheLiveSwitchNearestToEveryMemberTakesOver() throws Exception {
        Report.JobReport ina = Scenarios.mode(Scenarios.run(crashing("core-1")), "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().unfinished() + " " + ina.outcome().missing() + " "
                        + ina.problems().mismatches());
        assertTrue(ina.outcome().verified());
        assertTrue(ina.outcome().asExpected());
        // core-2..4 reach all 16 members in 3 hops each: the first by name
        assertTrue(
                ina.outcome().note().contains("after core-1 crashed: root core-2, A-BMs {core-2=[1111111111111111]"),
                ina.outcome().note());
    }

    /**
     * T2 with a repair: a best-effort job granted fewer entries than it has chunks folds the rest at
     * its root; when the root crashes, the new root folds them (before, its chunks past the grant
     * were passed on from the new root toward nothing, and every worker gave up on them).
     */
    @Test
    void theRootOfABestEffortJobCrashesAndTheNewRootFoldsWhatFindsNoEntry() throws Exception {
        Report r = Scenarios.run(dir, "best-effort.conf", """
                include file("%s")
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096 }
                  generator { kind = leaf-spine, spines = 2, leaves = 2, hosts-per-leaf = 2 }
                  switch-defaults { state-entries = 2 }
                }
                jobs = [{
                  name = t1, kind = allreduce, tenant = 1
                  admission = best-effort
                  members = all
                  tree { mode = auto, root = spine-1 }
                  data { elements = 1024, type = int32, op = sum, chunk = 256, window = 6, seed = 951 }
                  completion-timeout = 1ms
                }]
                faults = [
                  { at = 0us, kind = straggler, node = h4, delay = 5us }
                  { at = 5us, kind = switch-crash, node = spine-1 }
                ]
                """.formatted(
                        Path.of("..", "topology-configs", "defaults.conf").toAbsolutePath()));
        Report.JobReport ina = Scenarios.mode(r, "ina");
        assertTrue(
                ina.outcome().note().contains("granted {leaf-1=2, leaf-2=2, spine-1=2}"),
                ina.outcome().note());
        assertTrue(
                ina.outcome().note().contains("after spine-1 crashed: root leaf-1"),
                ina.outcome().note());
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.recovery().gaveUp() + " " + ina.problems().unfinished());
        assertTrue(ina.outcome().verified() && ina.outcome().asExpected());
    }

    @Test
    void aConfiguredVatIsRebuiltAutomaticallyOnTheRemainingGraph() throws Exception {
        // the seed's Fig. 1: VAT s1 = [w1, w2], s7 = [w3, w4], root s6; a tree topology, so a crash cuts off or moves
        // the root
        String fault = "\nfaults = [ { at = 30us, kind = switch-crash, node = %s } ]\n";
        Report.JobReport rootGone = Scenarios.mode(
                Scenarios.run(Scenarios.reference(
                        dir,
                        "paper-fig1-allreduce.conf",
                        t -> t.replace("completion-timeout = 50ms", "completion-timeout = 20us")
                                + fault.formatted("s6"))),
                "ina");
        assertEquals(
                Status.COMPLETE,
                rootGone.outcome().status(),
                rootGone.problems().unfinished() + " " + rootGone.problems().mismatches());
        assertTrue(rootGone.outcome().verified() && rootGone.outcome().asExpected());
        assertTrue(
                rootGone.outcome()
                        .note()
                        .contains("after s6 crashed: root s1, A-BMs {s1=[11110000], s2=[00110000]}; cut off: []"),
                rootGone.outcome().note());
        Report.JobReport edge = Scenarios.mode(
                Scenarios.run(Scenarios.reference(
                        dir,
                        "paper-fig1-allreduce.conf",
                        t -> t.replace("completion-timeout = 50ms", "completion-timeout = 20us")
                                + fault.formatted("s1"))),
                "ina");
        assertEquals(
                Status.PARTIAL,
                edge.outcome().status(),
                edge.problems().unfinished() + " " + edge.problems().mismatches());
        assertEquals(List.of("w1", "w2"), edge.outcome().missing());
        assertTrue(edge.outcome().verified() && edge.outcome().asExpected());
    }

    @Test
    void anEdgeSwitchCrashesAndTheJobEndsPartialMissingExactlyItsHostsVerified() throws Exception {
        Report.JobReport ina = Scenarios.mode(Scenarios.run(crashing("edge-2-1")), "ina");
        assertEquals(
                Status.PARTIAL,
                ina.outcome().status(),
                ina.problems().unfinished() + " " + ina.outcome().missing() + " "
                        + ina.problems().mismatches());
        assertEquals(List.of("h5", "h6"), ina.outcome().missing());
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertEquals(List.of(), ina.problems().unfinished());
        // the expectation follows from the topology and the fault plan, not from the run
        assertEquals("partial", ina.outcome().expected());
        assertTrue(ina.outcome().asExpected());
        assertTrue(
                ina.outcome().note().contains("; cut off: [h5, h6]"),
                ina.outcome().note());
    }
}
