package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.run.Ending;
import org.bitina.run.Report;
import org.junit.jupiter.api.Test;

/** The console's units, column widths, colour and progress estimate, as pure formatting. */
class ConsoleFormatTest {

    @Test
    void bytesArePrintedInPowersOf1024WithThreeSignificantDigits() {
        assertEquals("0 B", Units.bytes(0));
        assertEquals("1023 B", Units.bytes(1023));
        assertEquals("1.00 KiB", Units.bytes(1024));
        assertEquals("807 KiB", Units.bytes(826112));
        assertEquals("5.23 MiB", Units.bytes(5485568));
        assertEquals("1.33 GiB", Units.bytes(1429024128L));
        assertEquals("1.00 MiB", Units.bytes(1024 * 1024 - 1), "1023.999 KiB reads as the next unit, not 1024 KiB");
    }

    @Test
    void timesArePrintedInNanosecondsToSecondsWithThreeSignificantDigits() {
        assertEquals("999 ns", Units.nanos(999));
        assertEquals("80.3 µs", Units.micros(80.3));
        assertEquals("118 µs", Units.micros(117.5));
        assertEquals("1.23 s", Units.millis(1234));
        assertEquals("380 ms", Units.millis(380));
        assertEquals("1.00 ms", Units.micros(999.99), "999.99 µs reads as 1.00 ms, not 1000 µs");
        assertEquals("3600 s", Units.millis(3_600_000), "seconds stay the largest unit");
    }

    @Test
    void everyColumnIsAsWideAsItsWidestCellSoLongModeNamesKeepTheColumnsAligned() {
        ConsoleTable t = new ConsoleTable(
                List.of("job", "mode", "bytes"),
                List.of(ConsoleTable.Align.LEFT, ConsoleTable.Align.LEFT, ConsoleTable.Align.RIGHT));
        t.add(List.of(
                ConsoleTable.Cell.plain("a-very-long-job-name"),
                ConsoleTable.Cell.plain("ina"),
                ConsoleTable.Cell.plain("1 B")));
        t.add(List.of(
                ConsoleTable.Cell.plain("j"),
                ConsoleTable.Cell.plain("unicast-ack"),
                ConsoleTable.Cell.plain("1.33 GiB")));
        List<String> lines = t.lines(false);
        assertEquals(
                List.of(
                        "job                   mode            bytes",
                        "a-very-long-job-name  ina               1 B",
                        "j                     unicast-ack  1.33 GiB"),
                lines);
    }

    @Test
    void colourWrapsTheCellAfterPaddingAndIsOffWhenAskedSo() {
        ConsoleTable t =
                new ConsoleTable(List.of("status", "n"), List.of(ConsoleTable.Align.LEFT, ConsoleTable.Align.RIGHT));
        t.add(List.of(new ConsoleTable.Cell("ok", s -> "<" + s + ">"), ConsoleTable.Cell.plain("12")));
        assertEquals("<ok>      12", t.lines(true).get(1), "the escape codes do not count in the width");
        assertEquals("ok      12", t.lines(false).get(1));
    }

    @Test
    void theSummaryHasHumanUnitsALegendAndNoEscapeCodesWithoutColour() {
        Report r = new Report(
                "s.conf",
                "virtual",
                List.of("float32 sum: within n * 2^-24 * sum|x|"),
                List.of(
                        job("fig1", "ina", "complete", "complete", true),
                        job("fig1", "unicast-ack", "failed", "complete", false)),
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
        String plain = print(r, false);
        assertEquals(
                "fig1: ina finished in 80.3 µs; no baseline completed verified to compare with",
                plain.lines().findFirst().orElseThrow(),
                "the answer first");
        // then the clock, the table and the rest
        List<String> lines = plain.lines().skip(1).toList();
        assertTrue(lines.get(1).startsWith("job   mode         status    expected     verified"), lines.get(1));
        int modelled = lines.get(1).indexOf("modelled") + "modelled".length();
        assertEquals(
                "80.3 µs",
                lines.get(2).substring(modelled - "80.3 µs".length(), modelled),
                "right-aligned under its header");
        assertTrue(lines.get(2).contains("1.33 GiB") && lines.get(2).contains("807 KiB"), lines.get(2));
        assertTrue(
                lines.get(3).contains("complete NO"),
                "the expected column marks a phase that is not as expected: " + lines.get(3));
        assertTrue(
                lines.get(4).startsWith("(ina: in-network aggregation")
                        && lines.get(4).contains("pkts in:"),
                "the legend under the table");
        assertTrue(plain.contains("tolerance: float32 sum"), plain);
        assertFalse(plain.contains("\u001B["), "no escape codes when not a terminal");
        String coloured = print(r, true);
        assertTrue(coloured.contains("\u001B["), "colour on a terminal");
        assertEquals(plain.lines().count(), coloured.lines().count());
    }

    @Test
    void whyAPhaseEndedEarlyIsPrintedFromItsCauseAndAPhaseThatDidNotRunIsNotSaidToHaveEnded() {
        Report.JobReport stalled = job("w", "ina", "failed", "complete", false).toBuilder()
                .outcome(new Report.JobReport.Outcome(
                        Status.FAILED,
                        false,
                        List.of(),
                        "complete",
                        false,
                        "A-BMs [0011]; stalled: nothing left to happen",
                        new Ending(Ending.Cause.NOTHING_LEFT, "nothing left to happen at 3.0 us")))
                .build();
        Report.JobReport notRun = job("w", "ring", "failed", "complete", false).toBuilder()
                .outcome(new Report.JobReport.Outcome(
                        Status.FAILED,
                        false,
                        List.of(),
                        "complete",
                        false,
                        "not run: member m2 lost; stalled: words in a note are never parsed",
                        new Ending(Ending.Cause.NOT_RUN, "member m2 lost")))
                .build();
        String out = print(report(stalled, notRun), false);
        assertEquals(1, out.lines().filter(l -> l.startsWith("    ended: ")).count(), out);
        assertTrue(out.contains("    ended: nothing left to happen at 3.0 us"), out);
    }

    @Test
    void whatARowDroppedIsSaidByItsOwnFirstEntryNotByAnotherKindsExample() {
        String gaveUp = "h1: chunk 0 to h7: no acknowledgement after 10 sends; nothing more is sent to it";
        Report.JobReport ring = job("w", "ring", "complete", "complete", true).toBuilder()
                .problems(new Report.JobReport.Problems(
                        List.of(), List.of(), List.of(), List.of(gaveUp), List.of(), null))
                .build();
        String out = print(report(ring), false);
        assertTrue(out.contains("w ring: 1 dropped by policy, e.g. " + gaveUp), out);
        assertFalse(out.contains("expert capacity"), "a ring has no experts: " + out);
    }

    @Test
    void theBestBaselineLineGivesTheRatioAsTheAnswerSentenceDoes() {
        Report.JobReport ina = job("ft8", "ina", "complete", "complete", true)
                .withSpeedup(Map.of(Mode.of("ring"), 16.3, Mode.of("ps"), 40.0));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Summary.comparison(report(ina), ina, new PrintStream(b, true, StandardCharsets.UTF_8));
        assertEquals("ft8: ina vs best baseline (ring): 16.3x faster\n", b.toString(StandardCharsets.UTF_8));
        assertTrue(
                Answer.ratio(16.3).equals("16.3x faster") && Answer.ratio(0.8).equals("1.25x slower"));
    }

    /**
     * Under loss the comparison says what recovery cost each side, with the policy's first timeout
     * (issue 42 item 4: the ring's 311 ms was a timer constant, and nothing said so).
     */
    @Test
    void underLossTheComparisonSaysHowManyTimeoutsEachSideWaitedOut() {
        Report.JobReport ina = Report.JobReport.builder("ft8", "allreduce", Mode.INA)
                .outcome(new Report.JobReport.Outcome(Status.COMPLETE, true, List.of(), null, false, null, null))
                .timing(new Report.JobReport.Timing(0, 1880, null, null, List.of(), null, null))
                .recovery(new Report.Recovery(117856, 4108, 1820, List.of(), 57.6, 16))
                .speedup(Map.of(Mode.of("ring"), 2.64))
                .build();
        Report.JobReport ring = Report.JobReport.builder("ft8", "allreduce", Mode.of("ring"))
                .outcome(new Report.JobReport.Outcome(Status.COMPLETE, true, List.of(), null, false, null, null))
                .timing(new Report.JobReport.Timing(0, 4950, null, null, List.of(), null, null))
                .recovery(new Report.Recovery(14267, 0, 4390, List.of(), 302, 10))
                .build();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Summary.comparison(report(ina, ring), ina, new PrintStream(b, true, StandardCharsets.UTF_8));
        assertEquals(
                "ft8: ina vs best baseline (ring): 2.64x faster\n"
                        + "    under loss: ring waited out 14267 timeouts of 302 µs or more, 4.39 ms of its 4.95 ms lost"
                        + " to recovery; ina waited out 117856 timeouts of 57.6 µs or more, 1.82 ms of its 1.88 ms lost"
                        + " to recovery\n",
                b.toString(StandardCharsets.UTF_8));
        assertEquals("; first timeout 302 µs, doubling, at most 10 sends", Summary.policy(ring.recovery()));
    }

    /**
     * Without a terminal (a log, a pipe) a long run says every so often that it is alive and where
     * it is (issue 46 item 5: a 40 s run piped to a file printed nothing between phases); on a
     * terminal the bar does that instead.
     */
    @Test
    void withoutATerminalALineComesEverySoOftenAndNoneOnATerminal() throws InterruptedException {
        for (boolean terminal : new boolean[] {false, true}) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (ProgressBar bar = new ProgressBar(
                    new org.bitina.run.RunProgress(),
                    new PrintStream(b, true, StandardCharsets.UTF_8),
                    terminal,
                    200_000_000L)) {
                Thread.sleep(1200);
            }
            List<String> beats = b.toString(StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> l.startsWith("... "))
                    .toList();
            if (terminal) {
                assertEquals(List.of(), beats);
            } else {
                assertTrue(beats.size() >= 2, b.toString(StandardCharsets.UTF_8));
                assertTrue(
                        beats.get(0).matches("\\.\\.\\. \\d+s: phase 0/0 starting, 0 ns modelled, 0 events/s"),
                        beats.get(0));
            }
        }
    }

    private static Report report(Report.JobReport... jobs) {
        return new Report(
                "s.conf",
                "virtual",
                List.of(),
                List.of(jobs),
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
    void theEtaIsThePhasesPaceSoFarOverWhatIsLeft() {
        assertEquals("", ProgressBar.eta(1_000_000_000L, 0, 100), "nothing to go by before the first result");
        assertEquals("ETA 3.0s", ProgressBar.eta(1_000_000_000L, 25, 100));
        assertEquals("ETA 2m30s", ProgressBar.eta(50_000_000_000L, 25, 100));
        assertEquals("", ProgressBar.eta(1_000_000_000L, 100, 100));
    }

    private static String print(Report r, boolean colour) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Summary.print(r, new PrintStream(b, true, StandardCharsets.UTF_8), colour);
        return b.toString(StandardCharsets.UTF_8);
    }

    private static Report.JobReport job(String name, String mode, String status, String expected, boolean asExpected) {
        return Report.JobReport.builder(name, "allreduce", Mode.of(mode))
                .outcome(new Report.JobReport.Outcome(
                        Status.of(status), true, List.of(), expected, asExpected, null, null))
                .timing(new Report.JobReport.Timing(1234, 80.3, null, null, List.of(), null, null))
                .traffic(new Report.JobReport.Traffic(512, 0, 826112, 1429024128L, 0, 0, 0, 0, null))
                .plan(new Report.JobReport.Plan("s6", 256, 4, null, null, null))
                .build();
    }
}
