package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseLinesTest {
    private static final long S = 1_000_000_000L;

    private static String label(int n) {
        return "job" + n + " ina";
    }

    @Test
    void eachPhaseSaysHowLongTheOneBeforeItTookNotTheTimeSinceTheRunBegan() {
        PhaseLines l = new PhaseLines(0);
        assertEquals(List.of("phase 1/3 job1 ina"), l.upTo(1, 3, PhaseLinesTest::label, 5 * S));
        assertEquals(List.of(), l.upTo(1, 3, PhaseLinesTest::label, 6 * S));
        assertEquals(List.of("phase 2/3 job2 ina (phase 1 took 2.0s)"), l.upTo(2, 3, PhaseLinesTest::label, 7 * S));
    }

    @Test
    void phasesBetweenTwoLooksAndAShortLastPhaseStillGetTheirLines() {
        PhaseLines l = new PhaseLines(0);
        l.upTo(1, 4, PhaseLinesTest::label, S);
        // phases 2 and 3 began between two looks; phase 4 began after the last look
        assertEquals(
                List.of("phase 2/4 job2 ina (phases 1-2 took 2.0s together)", "phase 3/4 job3 ina"),
                l.upTo(3, 4, PhaseLinesTest::label, 3 * S));
        assertEquals(
                List.of("phase 4/4 job4 ina (phase 3 took 1.5s)", "phase 4/4 ended (phase 4 took 0.0s)"),
                l.end(4, 4, PhaseLinesTest::label, 4500 * 1_000_000L));
    }
}
