package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** S5 end to end: `topology-configs/admission-fallback.conf` admits what fits and runs the rest on its host baseline. */
class AdmissionRunTest {

    @Test
    void whatFitsRunsInTheNetworkWithinItsReservationAndWhatDoesNotRunsItsBaselineVerified() throws Exception {
        Scenario s = Scenarios.reference("admission-fallback.conf");
        Report r = Scenarios.run(s);
        List<String> rows =
                r.jobs().stream().map(j -> j.name() + "/" + j.mode()).toList();
        assertEquals(
                List.of("small/ina", "big/ring", "bulk/unicast-ack"),
                rows,
                "refused INA phases do not run; their fallbacks do");
        for (Report.JobReport j : r.jobs()) {
            assertTrue(j.outcome().verified() && j.outcome().status().equals(Status.COMPLETE), j.toString());
            assertNotNull(j.plan().admission(), j.name());
        }
        Report.JobReport small = r.jobs().get(0);
        assertTrue(small.plan().admission().admitted());
        assertEquals(8, small.plan().admission().entries(), "two windows of 4 chunks");
        assertEquals(0, small.plan().admission().refused());
        Report.JobReport big = r.jobs().get(1);
        assertEquals(
                new Report.Admission(
                        false, 32, "switch leaf-2 has room for 12 aggregation entries; the job needs 32", Mode.INA, 0),
                big.plan().admission());
        Report.JobReport bulk = r.jobs().get(2);
        assertEquals("ina", bulk.plan().admission().fallbackFor().name());
        assertTrue(
                bulk.plan().admission().reason().startsWith("switch leaf-2 "),
                bulk.plan().admission().reason());
        // the admitted job held no more than it reserved anywhere (only it aggregated in the network)
        r.switches().forEach(w -> assertTrue(w.peakStateEntries() <= 8, w.toString()));
    }

    @Test
    void withRoomEverywhereEveryJobRunsInTheNetworkAndItsBaselinesAreUntouched(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.reference(
                dir,
                "admission-fallback.conf",
                t -> t.replace("leaf-2 { state-entries = 12 }", "leaf-2 { state-entries = 32 }"));
        Report r = Scenarios.run(s);
        assertEquals(
                List.of("small/ina", "big/ina", "bulk/ina"),
                r.jobs().stream().map(j -> j.name() + "/" + j.mode()).toList());
        r.jobs().forEach(j -> {
            assertTrue(j.plan().admission().admitted() && j.outcome().verified(), j.toString());
            assertNull(j.plan().admission().fallbackFor());
        });
    }

    @Test
    void onlyTheSwitchesThatMayHoldTheJobsStateDecide() throws Exception {
        // big's members all under leaf-1: its VAT never reaches leaf-2, whose 12 entries then do not matter
        Scenario s = ScenarioLoader.load(
                Scenarios.CONFIGS.resolve("admission-fallback.conf"),
                Runtime.getRuntime().maxMemory(),
                Overrides.parse(List.of("jobs.big.members=[h1, h2, h3, h4]")));
        Report r = Scenarios.run(s);
        Report.JobReport big = r.jobs().stream()
                .filter(j -> j.name().equals("big"))
                .findFirst()
                .orElseThrow();
        assertEquals("ina", big.mode().name());
        assertTrue(big.plan().admission().admitted() && big.outcome().verified(), big.toString());
    }

    @Test
    void switchOverridesNameSwitchesOnly(@TempDir Path dir) {
        ScenarioException e = Assertions.assertThrows(
                ScenarioException.class,
                () -> Scenarios.reference(
                        dir,
                        "admission-fallback.conf",
                        t -> t.replace(
                                "leaf-2 { state-entries = 12 }", "h1 { state-entries = 12 }, leaf-1 { entries = 3 }")));
        String all = e.problems().toString();
        assertTrue(all.contains("switch-overrides names 'h1', which is not a switch"), all);
        assertTrue(all.contains("entries"), all);
    }
}
