package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * schedule = shared (T1): jobs of two tenants at the same time on one fabric, each verified, the
 * slowdown computed from the mix and the job alone, the same report twice; {@code after} and
 * {@code start} place a job on the modelled axis; the two-tenants file keeps S1 while both run.
 */
class SharedFabricRunTest {
    @TempDir
    Path dir;

    /** Two AllReduce jobs over interleaved hosts of a k=4 fat-tree: every edge uplink and core link carries both. */
    private static String interleaved(String schedule, String bStart) {
        return fatTree(4, schedule + "\n" + """
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                  baselines = [ring]
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                  baselines = [ring]
                  """ + bStart + """
                }]
                """);
    }

    private static Report.JobReport row(Report r, String job, String world, boolean alone) {
        return r.jobs().stream()
                .filter(j -> j.name().equals(job)
                        && j.shared() != null
                        && j.shared().world().configName().equals(world)
                        && j.shared().alone() == alone)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row " + job + " " + world + " alone=" + alone));
    }

    @Test
    void twoJobsSharingTheFabricBothVerifyAndAreSlowedDownByEachOtherTheSameTwice()
            throws IOException, ScenarioException {
        Scenario s = write(dir, "shared.conf", interleaved("schedule = shared\nworlds = [ina, baseline]", ""));
        Report first = run(s);
        assertEquals(8, first.jobs().size(), "per world: the mix of two, and each alone");
        for (Report.JobReport j : first.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
        double most = 0;
        for (String world : List.of("ina", "baseline")) {
            for (String job : List.of("a", "b")) {
                SharedRun mixed = row(first, job, world, false).shared();
                SharedRun alone = row(first, job, world, true).shared();
                assertEquals(
                        world.equals("ina") ? "ina" : "ring",
                        row(first, job, world, false).mode().name());
                assertEquals(mixed.endMicros() - mixed.startMicros(), mixed.jctMicros(), 1e-9);
                assertEquals(alone.jctMicros(), mixed.aloneMicros(), 1e-9);
                double expected = new BigDecimal(mixed.jctMicros() / alone.jctMicros())
                        .round(new MathContext(3))
                        .doubleValue();
                assertEquals(expected, mixed.slowdown(), 1e-12, job + " " + world);
                assertNull(alone.slowdown(), "an alone row is the reference, it has no slowdown");
                most = Math.max(most, mixed.slowdown());
            }
        }
        assertTrue(most > 1, "sharing every uplink slows at least one job down: " + most);
        assertSameRun(first, run(s), "the shared run twice");
    }

    @Test
    void aJobAfterAnotherStartsWhereItEndsAndAStartIsItsModelledTime() throws IOException, ScenarioException {
        Report after = run(write(
                dir, "after.conf", interleaved("schedule = shared\nworlds = [ina]\nalone = false", "after = [a]")));
        SharedRun a = row(after, "a", "ina", false).shared();
        SharedRun b = row(after, "b", "ina", false).shared();
        // the window in which a's last endpoint completed ends at most one lookahead (1 us + 1 ns) later
        assertTrue(b.startMicros() >= a.endMicros() && b.startMicros() <= a.endMicros() + 1.001, a + " " + b);
        assertTrue(row(after, "b", "ina", false).outcome().verified());
        Report later = run(write(
                dir, "start.conf", interleaved("schedule = shared\nworlds = [ina]\nalone = false", "start = 7us")));
        assertEquals(7.0, row(later, "b", "ina", false).shared().startMicros(), 1e-9);
        assertTrue(row(later, "b", "ina", false).shared().endMicros() > 7.0);
    }

    @Test
    void twoTenantsWithTheSameBitsAtOnceBothVerifyAndTheForeignFramesAreDroppedAtIngress() throws ScenarioException {
        Report r = run(reference("two-tenants.conf"));
        assertEquals(2, r.jobs().size());
        for (Report.JobReport j : r.jobs()) {
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(),
                    j.name() + ": " + j.problems().mismatches() + j.outcome().note());
            assertEquals(0.0, j.shared().startMicros());
        }
        // both ran at once: each began before the other ended
        assertTrue(
                r.jobs().get(0).shared().endMicros() > r.jobs().get(1).shared().startMicros());
        // the NIC of h3 is where those frames enter the network: it holds no tables of tenant 2's job 1
        HostReport h3 = r.hosts().stream()
                .filter(h -> h.name().equals("h3"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no drops at h3: " + r.hosts()));
        long unknown = h3.drops().entrySet().stream()
                .filter(e -> e.getKey().startsWith("unknown job"))
                .mapToLong(e -> e.getValue())
                .sum();
        assertTrue(unknown > 0, "h3's frames under tenant 2 naming job 1 are dropped, counted: " + h3.drops());
        r.switches().forEach(s -> assertTrue(s.drops().isEmpty(), "none got past h3: " + s));
    }

    @Test
    void bierIncReliableMulticastAndAllReduceShareTheFabricEachVerifiedInBothWorlds()
            throws IOException, ScenarioException {
        Report r = run(write(dir, "kinds.conf", fatTree(4, """
                schedule = shared
                alone = false
                jobs = [{
                  name = inc, kind = bier-inc, tenant = 1
                  members = all
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 16, seed = 5 }
                  completion-timeout = 200ms
                }, {
                  name = bulk, kind = reliable-multicast, tenant = 2, start = 5us
                  source = h1
                  receivers = all
                  data { bytes = 64KiB, packet = 4000, window = 8, seed = 5 }
                  ack { per = packet, tree = composed }
                  completion-timeout = 1ms
                }, {
                  name = ar, kind = allreduce, tenant = 3, after = [inc]
                  members = all
                  tree { mode = auto, root = core-2 }
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 16, seed = 6 }
                }]
                """)));
        assertEquals(6, r.jobs().size(), "three jobs in two worlds");
        for (Report.JobReport j : r.jobs()) {
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
        }
        // a job without baselines runs its kind's fallback in the baseline world
        assertEquals("ring", row(r, "inc", "baseline", false).mode().name());
        assertEquals("unicast-ack", row(r, "bulk", "baseline", false).mode().name());
        assertEquals(5.0, row(r, "bulk", "ina", false).shared().startMicros(), 1e-9);
        assertTrue(row(r, "ar", "ina", false).shared().startMicros()
                >= row(r, "inc", "ina", false).shared().endMicros());
    }

    @Test
    void aSharedFileThatCannotRunSaysWhyAtItsKeys() throws IOException {
        ScenarioException seq =
                assertThrows(ScenarioException.class, () -> write(dir, "seq.conf", interleaved("", "start = 5us")));
        assertTrue(seq.getMessage().contains("start and after are for schedule = shared"), seq.getMessage());
        ScenarioException circle = assertThrows(
                ScenarioException.class,
                () -> write(dir, "circle.conf", interleaved("schedule = shared", "after = [b]")));
        assertTrue(circle.getMessage().contains("cannot start after itself"), circle.getMessage());
        ScenarioException real = assertThrows(
                ScenarioException.class,
                () -> write(dir, "real.conf", interleaved("schedule = shared\nclock = real", "")));
        assertTrue(real.getMessage().contains("needs clock = virtual"), real.getMessage());
        assertNotNull(real);
    }
}
