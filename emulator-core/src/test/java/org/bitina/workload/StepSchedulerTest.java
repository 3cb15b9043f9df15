package org.bitina.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.scenario.StartRule;
import org.junit.jupiter.api.Test;

/**
 * The scheduler against timelines worked out by hand. Two ranks: forward compute (100 ns each),
 * then the gradient AllReduce over both (the fabric takes 80 ns here), and on each rank a last
 * backward compute of 50 ns that overlaps the AllReduce ({@code overlap}) or waits for it.
 */
class StepSchedulerTest {
    static final ProcessGroup BOTH = new ProcessGroup("dp0", List.of(0, 1));

    /** r0: c0 (100) then c2 (50); r1: c1 (100) then c3 (50); the AllReduce after c0 and c1; c2, c3 after it when not overlapped. */
    static StepGraph twoRanks(boolean overlap) {
        List<Step> s = new ArrayList<>();
        s.add(new Step(0, "r0 forward", new Step.Compute(0, 100), List.of(), List.of()));
        s.add(new Step(1, "r1 forward", new Step.Compute(1, 100), List.of(), List.of()));
        s.add(new Step(2, "grad", new Step.Collective(StepType.ALL_REDUCE, BOTH, 4096), List.of(0, 1), List.of()));
        List<Integer> after0 = overlap ? List.of(0) : List.of(0, 2);
        List<Integer> after1 = overlap ? List.of(1) : List.of(1, 2);
        s.add(new Step(3, "r0 backward", new Step.Compute(0, 50), after0, List.of()));
        s.add(new Step(4, "r1 backward", new Step.Compute(1, 50), after1, List.of()));
        return new StepGraph(2, s);
    }

    /** Runs every collective as soon as the scheduler says, taking {@code durations} (by step id) on the fabric. */
    static void drive(StepScheduler s, Map<Integer, Long> durations) {
        Set<String> begun = new HashSet<>();
        while (!s.done()) {
            String next = null;
            long at = StartRule.NOT_YET;
            for (String j : s.jobs()) {
                if (!begun.contains(j) && s.startNanos(j) < at) {
                    next = j;
                    at = s.startNanos(j);
                }
            }
            assertTrue(next != null, "a collective must be ready while the iterations are not done");
            begun.add(next);
            s.begun(next, at);
            s.finished(next, at + durations.get(s.stepOf(next).id()));
        }
    }

    @Test
    void overlappedBackwardHidesPartOfTheAllReduce() {
        StepScheduler s = new StepScheduler(twoRanks(true), 1);
        assertEquals(100, s.startNanos("i1-s2"), "ready when both forwards are done");
        drive(s, Map.of(2, 80L));
        StepScheduler.Iteration it = s.iterationsRun().get(0);
        // c2 runs 100..150 beside the AllReduce 100..180: the rank waits 150..180
        assertEquals(180, it.iterationNanos());
        assertEquals(150, it.computeNanos());
        assertEquals(30, it.exposedCommNanos());
        assertEquals(80, it.nanosByType().get(StepType.ALL_REDUCE));
        assertEquals(4096, it.bytesByType().get(StepType.ALL_REDUCE));
        assertEquals(30, it.exposedByType().get(StepType.ALL_REDUCE));
    }

    @Test
    void withoutOverlapTheWholeAllReduceIsExposed() {
        StepScheduler s = new StepScheduler(twoRanks(false), 1);
        drive(s, Map.of(2, 80L));
        StepScheduler.Iteration it = s.iterationsRun().get(0);
        // 0..100 forward, 100..180 AllReduce, 180..230 backward
        assertEquals(230, it.iterationNanos());
        assertEquals(150, it.computeNanos());
        assertEquals(80, it.exposedCommNanos());
        List<StepScheduler.Span> r0 = s.timeline(0);
        assertEquals(
                List.of(0L, 100L, 180L),
                r0.stream().map(StepScheduler.Span::startNanos).toList());
    }

    @Test
    void theSecondIterationBeginsWhenTheFirstEndedOnEachRank() {
        StepScheduler s = new StepScheduler(twoRanks(true), 2);
        assertEquals(StartRule.NOT_YET, s.startNanos("i2-s2"), "iteration 2 waits for iteration 1");
        drive(s, Map.of(2, 80L));
        List<StepScheduler.Iteration> its = s.iterationsRun();
        assertEquals(2, its.size());
        // iteration 2 starts at 180: forwards 180..280, AllReduce 280..360, backwards 280..330
        assertEquals(180, its.get(1).startNanos());
        assertEquals(360, its.get(1).endNanos());
        assertEquals(180, its.get(1).iterationNanos());
    }

    @Test
    void aCollectiveThatStartsLateShiftsWhatWaitsForIt() {
        StepScheduler s = new StepScheduler(twoRanks(false), 1);
        // the runner could only begin it 7 ns after it was ready (the end of a window)
        s.begun("i1-s2", 107);
        s.finished("i1-s2", 187);
        assertTrue(s.done());
        StepScheduler.Iteration it = s.iterationsRun().get(0);
        assertEquals(237, it.iterationNanos());
        assertEquals(87, it.exposedCommNanos());
    }

    @Test
    void computeOnOneRankRunsOneStepAtATime() {
        // two computes on rank 0 with no dependency between them still run one after the other
        List<Step> steps = List.of(
                new Step(0, "a", new Step.Compute(0, 40), List.of(), List.of()),
                new Step(1, "b", new Step.Compute(0, 60), List.of(), List.of()));
        StepScheduler s = new StepScheduler(new StepGraph(1, steps), 1);
        assertTrue(s.done());
        assertEquals(100, s.iterationsRun().get(0).iterationNanos());
        assertEquals(0, s.iterationsRun().get(0).exposedCommNanos());
    }

    @Test
    void unknownJobsAndEarlyQuestionsAreRefused() {
        StepScheduler s = new StepScheduler(twoRanks(true), 1);
        assertThrows(IllegalArgumentException.class, () -> s.startNanos("i9-s2"));
        assertThrows(IllegalStateException.class, () -> s.finished("i1-s2", 10));
        assertFalse(s.done());
        assertThrows(IllegalStateException.class, s::iterationsRun);
    }
}
