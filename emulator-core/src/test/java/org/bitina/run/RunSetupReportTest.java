package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;

/** A run reports what its setup cost (issue 17), and those wall-clock figures stay out of the determinism comparison. */
class RunSetupReportTest {
    private static Report report(String clock, Report.Setup setup) {
        Report.JobReport j = Report.JobReport.builder("j", "allreduce", Mode.INA)
                .status(Status.COMPLETE)
                .verified(true)
                .wallMillis(17)
                .modeledMicros(1.0)
                .packetsIntoRoot(1)
                .maxLinkBytes(1)
                .totalLinkBytes(1)
                .headerBytes(1)
                .expected("complete")
                .asExpected(true)
                .root("s1")
                .chunks(4)
                .endpoints(4)
                .packets(1)
                .build();
        return new Report(
                "s.conf", clock, List.of(), List.of(j), List.of(), List.of(), List.of(), Map.of("s1", "m0"), setup);
    }

    @Test
    void reportsDifferingOnlyInTheirSetupFiguresCompareEqualAndOtherDifferencesAreNamed() {
        assertNull(RunComparison.firstDifference(
                report("virtual", new Report.Setup(3, 40, 1 << 20)), report("virtual", new Report.Setup(300, 4, 7))));
        String diff = RunComparison.firstDifference(
                report("virtual", new Report.Setup(3, 40, 1 << 20)), report("real", null));
        assertNotNull(diff);
        assertTrue(diff.contains("clock"), diff);
    }

    @Test
    void aRunReportsItsRoutingAndPlanningTimesAndTheHeapInUse() throws Exception {
        Report r = Scenarios.run(Scenarios.reference("paper-fig1-allreduce.conf"));
        assertNotNull(r.setup(), "the report has setup { routingMillis, planningMillis, heapBytes }");
        assertTrue(
                r.setup().routingMillis() >= 0 && r.setup().planningMillis() >= 0,
                r.setup().toString());
        assertTrue(r.setup().heapBytes() > 0, r.setup().toString());
        assertEquals(Status.COMPLETE, r.jobs().get(0).status());
    }
}
