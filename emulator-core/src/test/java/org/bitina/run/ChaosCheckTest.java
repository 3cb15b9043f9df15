package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.chaos.ChaosPlans;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;

/** The chaos suite's invariants catch what they are for (a checker that passes everything would prove nothing). */
class ChaosCheckTest {
    private static final ChaosPlans.Plan LOSSY = new ChaosPlans.Plan(1, "", false);
    private static final ChaosPlans.Plan LOSSLESS = new ChaosPlans.Plan(1, "", true);
    private static final Pattern FAULT = Pattern.compile(
            "kind = (loss|duplicate|reorder|link-down|link-up|switch-crash|straggler|silent)(, rate = (\\d+)%)?");
    private static final ChaosPlans.Plan RECOVERABLE = new ChaosPlans.Plan(1, "", false, true);

    private static Report report(
            String status,
            boolean verified,
            List<String> missing,
            List<String> mismatches,
            List<String> unfinished,
            List<Report.PartialChunk> partial,
            String note,
            List<String> dropped) {
        return report(status, verified, missing, mismatches, unfinished, partial, note, dropped, List.of());
    }

    /** As above, with what the endpoints gave up on (the row's recovery, never its mismatches). */
    private static Report report(
            String status,
            boolean verified,
            List<String> missing,
            List<String> mismatches,
            List<String> unfinished,
            List<Report.PartialChunk> partial,
            String note,
            List<String> dropped,
            List<String> gaveUp) {
        Report.JobReport j = Report.JobReport.builder("j", "allreduce", Mode.INA)
                .outcome(new Report.JobReport.Outcome(
                        Status.of(status), verified, missing, "complete", false, note, null))
                .problems(new Report.JobReport.Problems(partial, mismatches, unfinished, dropped, List.of(), null))
                .timing(new Report.JobReport.Timing(1, 1.0, null, null, List.of(), null, null))
                .traffic(new Report.JobReport.Traffic(1, 0, 1, 1, 1, 1, 0, 0, null))
                .plan(new Report.JobReport.Plan("s1", 4, 4, null, null, null))
                .recovery(new Report.Recovery(0, 0, 0, gaveUp))
                .build();
        return withRow(j);
    }

    private static Report withRow(Report.JobReport j) {
        return new Report(
                "s.conf",
                "virtual",
                List.of(),
                List.of(j),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                null,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of());
    }

    @Test
    void anHonestEndKeepsEveryInvariant() {
        assertEquals(
                List.of(),
                ChaosCheck.violations(
                        LOSSY, report("complete", true, List.of(), List.of(), List.of(), List.of(), null, List.of())));
        assertEquals(
                List.of(),
                ChaosCheck.violations(
                        LOSSY,
                        report(
                                "partial",
                                true,
                                List.of("h2"),
                                List.of(),
                                List.of(),
                                List.of(new Report.PartialChunk("h1", 3, List.of("h2"))),
                                null,
                                List.of())));
        assertEquals(
                List.of(),
                ChaosCheck.violations(
                        LOSSY,
                        report(
                                "failed",
                                false,
                                List.of("h2"),
                                List.of(),
                                List.of("h2"),
                                List.of(),
                                "stalled: nothing left to happen",
                                List.of(),
                                List.of("h2: chunk 3: no result after" + " 5 sends"))));
    }

    @Test
    void aWrongResultADeviceFailureAndAnUnnamedLossAreEachCaught() {
        assertTrue(ChaosCheck.violations(
                        LOSSY,
                        report(
                                "failed",
                                false,
                                List.of(),
                                List.of("h1: chunk 2: got 3.0, expected 2.0"),
                                List.of(),
                                List.of(),
                                "x",
                                List.of()))
                .get(0)
                .contains("wrong result"));
        Report.JobReport ok = report("complete", true, List.of(), List.of(), List.of(), List.of(), null, List.of())
                .jobs()
                .get(0);
        // what a device could not handle is its own list, never a phrase looked for among the policy's drops
        assertEquals(
                List.of(),
                ChaosCheck.violations(
                        LOSSY,
                        withRow(ok.toBuilder()
                                .problems(new Report.JobReport.Problems(
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of("h1: token 3 could not handle: over capacity"),
                                        List.of(),
                                        null))
                                .build())));
        assertTrue(ChaosCheck.violations(
                        LOSSY,
                        withRow(ok.toBuilder()
                                .problems(new Report.JobReport.Problems(
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of("s1 could not handle FrameIn: java.lang.IllegalStateException")))
                                .build()))
                .get(0)
                .contains("a device failed"));
        assertTrue(ChaosCheck.violations(
                        LOSSY,
                        withRow(ok.toBuilder()
                                .outcome(new Report.JobReport.Outcome(
                                        Status.COMPLETE,
                                        true,
                                        List.of(),
                                        "complete",
                                        false,
                                        null,
                                        new Ending(
                                                Ending.Cause.CLOCK_STOPPED, "the virtual clock could not go on: [x]")))
                                .build()))
                .get(0)
                .contains("could not go on"));
        assertTrue(ChaosCheck.violations(
                        LOSSY, report("partial", true, List.of(), List.of(), List.of(), List.of(), null, List.of()))
                .get(0)
                .contains("without naming"));
        assertTrue(ChaosCheck.violations(
                        LOSSY, report("failed", false, List.of(), List.of(), List.of(), List.of(), null, List.of()))
                .get(0)
                .contains("without saying"));
        assertTrue(ChaosCheck.violations(
                        LOSSY, report("complete", false, List.of(), List.of(), List.of(), List.of(), null, List.of()))
                .get(0)
                .contains("complete but verified=false"));
    }

    @Test
    void aPlanThatLosesNothingMustEndComplete() {
        assertTrue(ChaosCheck.violations(
                        LOSSLESS,
                        report(
                                "partial",
                                true,
                                List.of("h2"),
                                List.of(),
                                List.of(),
                                List.of(new Report.PartialChunk("h1", 3, List.of("h2"))),
                                null,
                                List.of()))
                .get(0)
                .contains("nothing could be lost"));
    }

    @Test
    void aPlanWithOnlyRecoverableLossMustEndCompleteAndOneWithMoreMayNameWhoIsMissing() {
        Report partial = report(
                "partial",
                true,
                List.of("h2"),
                List.of(),
                List.of(),
                List.of(new Report.PartialChunk("h1", 3, List.of("h2"))),
                null,
                List.of());
        assertTrue(ChaosCheck.violations(RECOVERABLE, partial).get(0).contains("only recoverable loss"));
        assertEquals(List.of(), ChaosCheck.violations(LOSSY, partial));
    }

    @Test
    void theGeneratorMarksAPlanRecoverableExactlyWhenItsFaultsAreDuplicationReorderingAndLossUpToFivePercent() {
        int recoverableLossy = 0;
        for (long seed = 1; seed <= 500; seed++) {
            ChaosPlans.Plan p = ChaosPlans.generate(seed);
            boolean onlyMild = true;
            boolean lossy = false;
            for (String line : p.text().split("\n")) {
                Matcher m = FAULT.matcher(line);
                if (!line.trim().startsWith("{ at =") || !m.find()) {
                    continue;
                }
                switch (m.group(1)) {
                    case "duplicate", "reorder" -> {}
                    case "loss" -> {
                        lossy = true;
                        onlyMild &= Integer.parseInt(m.group(3)) <= ChaosPlans.RECOVERABLE_LOSS;
                    }
                    default -> onlyMild = false;
                }
            }
            assertEquals(onlyMild, p.recoverable(), "seed " + seed + "\n" + p.text());
            assertEquals(onlyMild && !lossy, p.lossless(), "seed " + seed);
            if (onlyMild && lossy) {
                recoverableLossy++;
            }
        }
        assertTrue(recoverableLossy > 10, "the suite holds lossy plans that must complete: " + recoverableLossy);
    }
}
