package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.Schedule;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecases.PhasePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T2, "admission happens at a job's start against what is free then": two strict AllReduce jobs
 * that each fill every switch's pool. The second is admitted when it starts after the first has
 * completed (its grants went back), and refused, running its ring, when it starts while the first
 * runs; the decision before the run, which cannot know the first's end, would refuse it both times.
 */
class AdmissionAtStartRunTest {
    @TempDir
    Path dir;

    /** A pool of 8 entries; each job declares two windows of 4 chunks: 8. */
    private static String twoStrict(String secondStart) {
        return fatTree(4, """
                topology.switch-defaults { state-entries = 8 }
                schedule = shared
                worlds = [ina]
                alone = true
                jobs = [{
                  name = first, kind = allreduce, tenant = 1
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 4, seed = 5 }
                }, {
                  name = second, kind = allreduce, tenant = 2
                  start = %s
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 4, seed = 6 }
                }]
                """.formatted(secondStart));
    }

    private static Report.JobReport row(Report r, String job, boolean alone) {
        return r.jobs().stream()
                .filter(j ->
                        j.name().equals(job) && j.shared() != null && j.shared().alone() == alone)
                .findFirst()
                .orElseThrow();
    }

    /** What admission decided for {@code job} before the run, from the schedule alone. */
    private static Phase beforeTheRun(Scenario s, String job) {
        List<Phase> world = PhasePlanner.world(s, Routing.compute(s.topology()), Schedule.World.INA);
        return world.stream()
                .filter(p -> p.job().name().equals(job))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aStrictJobThatDoesNotFitBesideTheFirstFitsWhenItStartsAfterTheFirstHasEnded()
            throws IOException, ScenarioException {
        Scenario s = write(dir, "late.conf", twoStrict("500us"));
        assertFalse(
                beforeTheRun(s, "second").admission().admitted(),
                "before the run the first counts as running at 500 us: refused");
        Report r = run(s);
        r.jobs()
                .forEach(
                        j -> assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode()));
        Report.JobReport first = row(r, "first", false);
        Report.JobReport second = row(r, "second", false);
        assertTrue(
                second.shared().startMicros() > first.shared().endMicros(),
                "the premise: the first has ended when the second starts: " + first.shared() + " " + second.shared());
        assertEquals("ina", second.mode().name(), "admitted at its start: the first's grants are back");
        assertTrue(second.plan().admission().admitted());
        second.pool().switches().forEach(sw -> assertEquals(8, sw.granted(), sw.node() + ": its whole declaration"));
        assertEquals("ina", row(r, "second", true).mode().name(), "alone, as in the mix");
    }

    @Test
    void aStrictJobThatStartsWhileTheFirstHoldsThePoolIsRefusedThenAndRunsItsRing()
            throws IOException, ScenarioException {
        Report r = run(write(dir, "early.conf", twoStrict("5us")));
        r.jobs()
                .forEach(
                        j -> assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode()));
        Report.JobReport first = row(r, "first", false);
        Report.JobReport second = row(r, "second", false);
        assertTrue(second.shared().startMicros() < first.shared().endMicros(), "the premise: they overlap");
        assertEquals("ina", first.mode().name());
        assertEquals("ring", second.mode().name(), "refused at its start: its host baseline runs instead");
        assertFalse(second.plan().admission().admitted());
        assertEquals(
                "switch core-1 has room for 0 aggregation entries; the job needs 8",
                second.plan().admission().reason());
        assertEquals("ring", row(r, "second", true).mode().name(), "alone it runs what it ran in the mix");
    }
}
