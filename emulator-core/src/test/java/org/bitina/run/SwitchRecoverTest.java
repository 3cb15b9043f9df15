package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Problem;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The switch-recover fault (issue 15): a crashed switch comes back empty within the phase and
 * rejoins at the reconfiguration it triggers, `topology-configs/fat-tree-k4-switch-recover.conf`.
 */
class SwitchRecoverTest {
    private static final String FILE = "fat-tree-k4-switch-recover.conf";

    @TempDir
    Path dir;

    @Test
    void theCutOffWorkersJoinAgainWhenTheirEdgeSwitchReturnsAndTheMulticastReachesThemThroughIt() throws Exception {
        Report r = Scenarios.run(Scenarios.reference(FILE));
        Report.JobReport ar = r.jobs().get(0);
        // h5 and h6 were cut off (not awaited): the plan expects partial, missing at most them
        assertEquals("partial", ar.outcome().expected());
        assertEquals(14, ar.plan().endpoints());
        // back in the tree, they offered what they had no result for: everything folded in, nothing left partial
        assertEquals(
                Status.COMPLETE,
                ar.outcome().status(),
                ar.problems().partialChunks() + " " + ar.problems().unfinished() + " "
                        + ar.problems().mismatches());
        assertTrue(ar.outcome().verified() && ar.outcome().asExpected(), ar.toString());
        String back = ar.outcome()
                .note()
                .substring(ar.outcome().note().indexOf("VAT rebuilt at 120.0 us after edge-2-1 came back"));
        assertTrue(back.startsWith("VAT rebuilt at 120.0 us after edge-2-1 came back: root core-1, A-BMs {"), back);
        assertTrue(back.contains("edge-2-1=[0000110000000000]") && back.contains("cut off: []"), back);
        String last = ar.outcome().note().substring(ar.outcome().note().indexOf("after agg-1-1 came back"));
        assertTrue(last.contains("agg-1-1=[1111000000000000]"), "pod 1 aggregates at agg-1-1 again: " + last);
        // a data-driven tree: the returned switch got its BIFT back and carries the data to h5 and h6 again
        Report.JobReport push = r.jobs().get(1);
        assertEquals(
                Status.COMPLETE,
                push.outcome().status(),
                push.problems().unfinished() + " " + push.problems().mismatches());
        assertTrue(push.outcome().verified() && push.outcome().asExpected(), push.toString());
    }

    @Test
    void aSwitchRecoverNeedsTheSwitchToBeDown() throws Exception {
        ScenarioException e = assertThrows(
                ScenarioException.class,
                () -> Scenarios.reference(
                        dir,
                        FILE,
                        t -> t.replace(
                                        "{ at = 120us, kind = switch-recover, node = edge-2-1 }",
                                        "{ at = 50us, kind = switch-recover, node = edge-2-1 }")
                                .replace(
                                        "{ at = 140us, kind = switch-recover, node = agg-1-1 }",
                                        "{ at = 140us, kind = switch-recover, node = h3 }")));
        List<String> p = e.problems().stream().map(Problem::toString).toList();
        assertTrue(
                p.stream().anyMatch(x -> x.contains(":35: switch-recover of 'edge-2-1' at 50us: it is not down then")),
                String.join("\n", p));
        assertTrue(
                p.stream().anyMatch(x -> x.contains(":36: switch-recover names 'h3', which is a host")),
                String.join("\n", p));
    }
}
