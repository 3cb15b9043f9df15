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
                .outcome(new Report.JobReport.Outcome(Status.COMPLETE, true, List.of(), "complete", true, null, null))
                .timing(new Report.JobReport.Timing(17, 1.0, null, null, List.of(), null, null))
                .traffic(new Report.JobReport.Traffic(1, 0, 1, 1, 1, 1, 0, 0, null))
                .plan(new Report.JobReport.Plan("s1", 4, 4, null, null, null))
                .build();
        return new Report(
                "s.conf",
                clock,
                List.of(),
                List.of(j),
                List.of(),
                List.of(),
                List.of(),
                Map.of("s1", "m0"),
                setup,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of());
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
        assertEquals(Status.COMPLETE, r.jobs().get(0).outcome().status());
    }
}
