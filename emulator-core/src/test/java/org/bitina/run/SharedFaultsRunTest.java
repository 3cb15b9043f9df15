package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 3: network faults under {@code schedule = shared} hit the one fabric, so every job
 * and flow on it meets them: each INA job repairs its own tree, the baselines and the traffic
 * resend, a host cut off is named in its own job's row. A job alone (the slowdown's reference)
 * runs on the healthy fabric.
 */
class SharedFaultsRunTest {
    @TempDir
    Path dir;

    private static List<Report.JobReport> rows(Report r, String world, boolean alone) {
        return r.jobs().stream()
                .filter(j -> j.shared().world().configName().equals(world)
                        && j.shared().alone() == alone)
                .toList();
    }

    /** The file's text up to its fault plan (its cluster line after the plan is the default). */
    private static String withoutFaults(String file) {
        return file.substring(0, file.indexOf("faults = ["));
    }

    @Test
    void aSpineCrashUnderTwoTenantsRebuildsEachJobsTreeAndEveryJobVerifiesTheSameTwice() throws Exception {
        Report r = run(reference("shared-spine-crash.conf"));
        for (Report.JobReport j : r.jobs()) {
            assertEquals(Status.COMPLETE, j.outcome().status(), j.name() + " " + j.mode() + " " + j.outcome());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
        for (Report.JobReport j : rows(r, "ina", false)) {
            // each tenant's tree is rebuilt on its own: the root both had is gone
            assertTrue(
                    j.outcome().note().contains("VAT rebuilt at 20.0 us after core-1 crashed: root core-2"),
                    j.name() + ": " + j.outcome().note());
            assertTrue(j.recovery().retransmissions() > 0, j.name() + " resent what the crash lost");
        }
        for (String world : List.of("ina", "baseline")) {
            for (Report.JobReport j : rows(r, world, false)) {
                assertEquals(
                        List.of("link-down", "switch-crash", "link-up"),
                        j.timing().faults().stream().map(Report.FaultMark::kind).toList(),
                        "every job of the mix meets every fault: " + j.name() + " " + world);
                assertTrue(j.shared().slowdown() > 1, j.name() + " " + world + ": " + j.shared());
            }
            for (Report.JobReport j : rows(r, world, true)) {
                assertEquals(List.of(), j.timing().faults(), "a job alone runs on the healthy fabric");
                assertFalse(j.outcome().note().contains("rebuilt"), j.outcome().note());
                assertEquals(0, j.recovery().retransmissions(), j.name() + " alone loses nothing");
            }
        }
        for (TrafficReport t : r.traffic()) {
            assertEquals(t.flows(), t.finished(), "every flow recovers around the crash: " + t);
            assertEquals(t.alone() ? 0 : 1, Long.signum(t.retransmissions()), t.toString());
        }
        // the references are the healthy fabric's: the same as a run of the file without its faults
        Report healthy = run(reference(dir, "shared-spine-crash.conf", SharedFaultsRunTest::withoutFaults));
        for (String world : List.of("ina", "baseline")) {
            List<Report.JobReport> a = rows(r, world, true);
            List<Report.JobReport> b = rows(healthy, world, true);
            for (int k = 0; k < a.size(); k++) {
                assertEquals(
                        b.get(k).shared().jctMicros(),
                        a.get(k).shared().jctMicros(),
                        a.get(k).name());
            }
        }
        assertSameRun(r, run(reference("shared-spine-crash.conf")), "the spine crash twice");
    }

    @Test
    void aLeafCrashUnderTwoTenantsCutsOffEachJobsOwnHostAndEachRowNamesIt() throws Exception {
        Report r = run(reference(
                dir,
                "shared-spine-crash.conf",
                f -> withoutFaults(f).replace("worlds = [ina, baseline]\nalone = true", "worlds = [ina]\nalone = false")
                        + "faults = [{ at = 30us, kind = switch-crash, node = edge-1-1 }]\n"));
        List<Report.JobReport> mix = rows(r, "ina", false);
        assertEquals(2, mix.size());
        for (Report.JobReport j : mix) {
            // edge-1-1 holds h1 (tenant 1) and h2 (tenant 2): each job loses exactly its own
            List<String> lost = j.name().equals("ar1") ? List.of("h1") : List.of("h2");
            assertEquals(Status.PARTIAL, j.outcome().status(), j.name());
            assertEquals(lost, j.outcome().missing(), j.name());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.outcome());
            assertTrue(
                    j.outcome().note().contains("cut off: " + lost), j.outcome().note());
        }
        TrafficReport t = r.traffic().get(0);
        // a flow whose last packets got through just before the crash, whose ACKs did not, is both finished (its
        // bytes all arrived) and given up (its sender never heard): every unfinished flow is named, not the converse
        assertTrue(t.flows() - t.finished() <= t.gaveUp().size(), "a flow is finished or named: " + t);
        assertFalse(t.gaveUp().isEmpty(), "flows to and from the cut-off hosts cannot finish");
        for (String g : t.gaveUp()) {
            assertTrue(g.matches(".* h[12]->.*|.*->h[12]: .*"), "only the cut-off hosts' flows give up: " + g);
        }
    }
}
