package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A link of the aggregation tree fails mid-run: routing and BIFTs are recomputed, no bitmap changes (F7). */
class RerouteEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void allReduceRunsOverTheNewRouteAfterALinkOfItsTreeFails() throws Exception {
        Report r = run(dir, "reroute.conf", fatTree(4, """
                jobs = [{
                  name = rr, kind = allreduce, members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 32768, type = int32, op = sum, chunk = 256, window = 2, seed = 9 }
                  completion-timeout = 20ms
                }]
                # down before the first packet: what is in flight at a failure is issue 7's (B5) to settle
                faults = [ { at = 0ms, kind = link-down, link = [agg-1-1, core-1] } ]
                """));
        Report.JobReport ina = r.jobs().get(0);
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().mismatches() + " " + ina.problems().unfinished()
                        + ina.outcome().missing());
        assertTrue(ina.outcome().verified());
        // the bitmaps are the VAT's as before the failure (F7): the same A-BMs drive the new route
        assertTrue(
                ina.outcome().note().contains("agg-1-1=[1111000000000000]"),
                ina.outcome().note());
        assertTrue(
                r.links().stream()
                        .anyMatch(l -> l.from().equals("agg-1-1")
                                && l.to().startsWith("core-")
                                && !l.to().equals("core-1")
                                && l.packets() > 0),
                "pod 1's traffic took another core link");
        assertEquals("rr", ina.name());
    }

    @Test
    void aFaultPlannedForAfterThePhaseEndedIsNamedNotPassedOver() throws Exception {
        Report r = Scenarios.run(Scenarios.reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t + "\nfaults = [ { at = 60s, kind = link-down, link = [s5, s7] } ]\n"));
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    List.of("link-down at 60000 ms"),
                    j.problems().faultsNotApplied(),
                    j.mode().name());
            assertTrue(
                    j.outcome().note().contains("faults not applied, the phase ended first: [link-down at 60000 ms]"),
                    j.outcome().note());
        }
    }

    @Test
    void aHostCutOffAndBackFinishesItsChunksAndEveryResultVerifies() throws Exception {
        // h1's link is down from the start to 150 ms: the others finish chunks without it, and those
        // results reach h1 before it sent them; it counts them, offers its shares late, and ends
        Report.JobReport j = run(dir, "flap.conf", fatTree(4, """
                jobs = [{
                  name = flap, kind = allreduce, members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = int32, op = sum, chunk = 256, window = 8, seed = 3 }
                  completion-timeout = 20ms
                }]
                faults = [ { at = 0ms, kind = link-down, link = [edge-1-1, h1] }, { at = 150ms, kind = link-up, link = [edge-1-1, h1] } ]
                """)).jobs().get(0);
        assertEquals(List.of(), j.problems().unfinished(), j.outcome().note());
        assertTrue(j.outcome().verified(), j.problems().mismatches().toString());
        assertTrue(
                Set.of("h1").containsAll(j.outcome().missing()),
                "only the cut-off host can be missing: " + j.outcome().missing());
        assertEquals(List.of(), j.problems().faultsNotApplied());
    }
}
