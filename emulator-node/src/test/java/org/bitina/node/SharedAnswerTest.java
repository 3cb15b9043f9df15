package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.SharedRun;
import org.bitina.scenario.Schedule;
import org.junit.jupiter.api.Test;

/** The answer of a shared run: per job, each world's own JCT and slowdown, not the world's end time. */
class SharedAnswerTest {

    @Test
    void eachJobIsAnsweredFromItsOwnJctAndSlowdownInEachWorld() {
        Report r = report(List.of(
                // a mix row's modelledMicros is its end on the world's axis; its link figures are the world's
                row("ar1", "ina", "complete", new SharedRun(Schedule.World.INA, false, 0, 53.3, 53.3, 31.6, 1.69), 400),
                row(
                        "moe",
                        "ina",
                        "complete",
                        new SharedRun(Schedule.World.INA, false, 20, 88.7, 68.7, 62.1, 1.11),
                        400),
                row("ar1", "ina", "complete", new SharedRun(Schedule.World.INA, true, 0, 31.6, 31.6, null, null), 31.6),
                row(
                        "ar1",
                        "ring",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, false, 0, 136, 136, 94.3, 1.44),
                        900),
                row(
                        "moe",
                        "all-to-all",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, false, 20, 147, 127, 127.0, 1.0),
                        900),
                row(
                        "ar1",
                        "ring",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, true, 0, 94.3, 94.3, null, null),
                        94.3)));
        assertEquals(
                List.of(
                        "ar1: ina 53.3 µs (1.69x its time alone), ring 136 µs (1.44x its time alone);"
                                + " ina 2.55x faster in the shared fabric",
                        "moe: ina 68.7 µs (1.11x its time alone), all-to-all 127 µs (1.00x its time alone);"
                                + " ina 1.85x faster in the shared fabric"),
                Answer.sentences(r));
    }

    @Test
    void aWorldThatDidNotCompleteIsNamedAndNotCompared() {
        Report r = report(List.of(
                row("ar1", "ina", "failed", new SharedRun(Schedule.World.INA, false, 0, 70, 70, null, null), 70),
                row("ar2", "ina", "complete", new SharedRun(Schedule.World.INA, false, -1, 0, 0, null, null), 70),
                row(
                        "ar1",
                        "ring",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, false, 0, 136, 136, null, null),
                        136),
                row(
                        "ar2",
                        "ring",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, false, 136, 236, 100, null, null),
                        236)));
        assertEquals(
                List.of(
                        "ar1: ina failed after 70.0 µs, ring 136 µs",
                        "ar2: ina never started (it waited for a job that did not complete), ring 100 µs"),
                Answer.sentences(r));
    }

    @Test
    void aJobRefusedByAdmissionSaysWhichBaselineRanInItsPlace() {
        Report r = report(List.of(
                row("ar1", "ring", "complete", new SharedRun(Schedule.World.INA, false, 0, 120, 120, 100.0, 1.2), 120),
                row(
                        "ar1",
                        "ring",
                        "complete",
                        new SharedRun(Schedule.World.BASELINE, false, 0, 120, 120, 100.0, 1.2),
                        120)));
        assertEquals(
                List.of("ar1: ring (ina world) 120 µs (1.20x its time alone), ring 120 µs (1.20x its time alone);"
                        + " the ina world (ring) 1.00x faster in the shared fabric"),
                Answer.sentences(r));
    }

    private static Report report(List<Report.JobReport> rows) {
        return new Report(
                "s.conf", "virtual", List.of(), rows, List.of(), List.of(), List.of(), Map.of(), null, List.of(),
                List.of(), List.of(), List.of(), List.of(), Map.of());
    }

    private static Report.JobReport row(String job, String mode, String status, SharedRun s, double modelled) {
        return Report.JobReport.builder(job, "allreduce", Mode.of(mode))
                .outcome(new Report.JobReport.Outcome(Status.of(status), true, List.of(), "complete", true, null, null))
                .timing(new Report.JobReport.Timing(0, modelled, null, null, List.of(), null, null))
                .traffic(new Report.JobReport.Traffic(0, 0, 1 << 16, 1 << 20, 0, 0, 0, 0, null))
                .shared(s)
                .build();
    }
}
