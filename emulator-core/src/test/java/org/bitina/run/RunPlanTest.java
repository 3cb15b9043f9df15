package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.time.WindowBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's plan is a value made before any actor: its phases, how they group on the fabric, its lookahead, its refusals. */
class RunPlanTest {
    @TempDir
    Path dir;

    private static final String SHARED = Scenarios.fatTree(4, """
            schedule = shared
            worlds = [ina]
            jobs = [{
              name = a, kind = allreduce, tenant = 1
              members = [h1, h3, h5, h7]
              tree { mode = auto, root = core-1 }
              data { elements = 1024, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
            }, {
              name = b, kind = allreduce, tenant = 2
              members = [h2, h4, h6, h8]
              tree { mode = auto, root = core-1 }
              data { elements = 1024, type = float32, op = sum, chunk = 256, window = 4, seed = 4 }
            }]
            """);

    @Test
    void aSequentialRunIsOneGroupPerPlannedPhaseWithTheSmallestLinkLatencyAsLookahead() throws Exception {
        Scenario s = Scenarios.reference("paper-fig1-allreduce.conf");
        RunPlan plan = RunPlan.of(s);
        assertNull(plan.refused());
        assertEquals(plan.phases().size(), plan.groups().size());
        for (int i = 0; i < plan.phases().size(); i++) {
            PhaseGroup g = plan.groups().get(i);
            assertEquals(
                    List.of(plan.phases().get(i)),
                    g.jobs().stream().map(PhaseGroup.Entry::phase).toList());
            assertTrue(!g.shared(), "sequential");
        }
        long minLatency = s.topology().links().stream()
                .mapToLong(l -> l.spec().latencyNanos())
                .min()
                .orElseThrow();
        assertEquals(WindowBarrier.lookahead(minLatency), plan.lookahead());
        assertTrue(plan.setup().routingMillis() >= 0 && plan.setup().planningMillis() >= 0);
    }

    @Test
    void aSharedRunGroupsTheMixAndEachJobAloneAndTheRealClockRefusesIt() throws Exception {
        Scenario s = Scenarios.write(dir, "shared.conf", SHARED);
        RunPlan plan = RunPlan.of(s);
        assertNull(plan.refused());
        List<String> labels = plan.groups().stream().map(PhaseGroup::label).toList();
        assertEquals(
                List.of(
                        "world ina: jobs a, b shared",
                        "job a mode ina alone (world ina)",
                        "job b mode ina alone (world ina)"),
                labels);

        RunPlan real = RunPlan.of(s.withClock(Clock.REAL));
        assertEquals("schedule = shared needs the virtual clock", real.refused());
        assertEquals(real.phases().size(), real.groups().size(), "each phase alone, and none run");
    }

    @Test
    void twoJobsOfOneTenantUnderOneWireJobAtOnceAreNamedBeforeAnyPacket() throws Exception {
        String one = Scenarios.fatTree(4, """
                jobs = [{
                  name = NAME, kind = allreduce, tenant = 1, id = 5
                  members = [h1, h3]
                  tree { mode = auto, root = core-1 }
                  data { elements = 256, type = float32, op = sum, chunk = 256, window = 1, seed = 3 }
                }]
                """);
        RunPlan a = RunPlan.of(Scenarios.write(dir, "a.conf", one.replace("NAME", "a")));
        RunPlan b = RunPlan.of(Scenarios.write(dir, "b.conf", one.replace("NAME", "b")));
        assertNull(RunPlan.clash(a.groups()));
        PhaseGroup both = new PhaseGroup(
                List.of(
                        new PhaseGroup.Entry(a.phases().get(0), 0, List.of()),
                        new PhaseGroup.Entry(b.phases().get(0), 0, List.of())),
                null,
                false);
        assertEquals("wire job 5 of tenant 1 is both job a (ina)'s and job b (ina)'s", RunPlan.clash(List.of(both)));
    }
}
