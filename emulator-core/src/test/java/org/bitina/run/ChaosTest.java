package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bitina.chaos.ChaosPlans;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos suite's quick share: random fault plans over small topologies and all four job
 * kinds, on one ActorSystem; every run must keep {@link ChaosCheck}'s invariants and end in
 * bounded time. Thousands more seeds: {@code ./bench chaos --seeds N}. A failure prints its
 * seed; {@code ./bench chaos --seed S} replays it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChaosTest {
    static final int SEEDS = 300;
    private RunSession session;

    @TempDir
    Path dir;

    @BeforeAll
    void start() {
        session = new RunSession(Duration.ofMinutes(2));
    }

    @AfterAll
    void stop() {
        session.close();
    }

    @Test
    void everyGeneratedPlanIsAValidScenarioAndTheSameSeedGivesTheSameText() throws Exception {
        List<String> invalid = new ArrayList<>();
        for (long seed = 1; seed <= 2000; seed++) {
            ChaosPlans.Plan plan = ChaosPlans.generate(seed);
            Path file = dir.resolve("valid-" + seed + ".conf");
            Files.writeString(file, plan.text());
            try {
                ScenarioLoader.load(file);
            } catch (ScenarioException e) {
                invalid.add("seed " + seed + ": " + e.getMessage());
            }
            assertTrue(plan.text().equals(ChaosPlans.generate(seed).text()));
        }
        assertTrue(invalid.isEmpty(), String.join("\n", invalid.subList(0, Math.min(10, invalid.size()))));
    }

    @Test
    void randomFaultPlansEndVerifiedOrNamedNeverWrongNeverHung() throws Exception {
        List<String> failures = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            ChaosPlans.Plan plan = ChaosPlans.generate(seed);
            Path file = dir.resolve("chaos-" + seed + ".conf");
            Files.writeString(file, plan.text());
            Scenario s = ScenarioLoader.load(file);
            long start = System.nanoTime();
            Report r = session.run(s, new RunProgress());
            long ms = (System.nanoTime() - start) / 1_000_000;
            List<String> v = new ArrayList<>(ChaosCheck.violations(plan, s, r));
            if (ms > 30_000) {
                v.add("took " + ms + " ms");
            }
            if (!v.isEmpty()) {
                failures.add("seed " + seed + ": " + v + "\n" + plan.text());
            }
        }
        assertTrue(
                failures.isEmpty(),
                failures.size() + " of " + SEEDS + " seeds broke an invariant:\n" + String.join("\n", failures));
    }

    static final int SHARED_SEEDS = 24;

    @Test
    void sharedFabricPlansWithTightPoolsSmallBuffersLossAndTrafficKeepEveryInvariantAndRepeatExactly()
            throws Exception {
        List<String> failures = new ArrayList<>();
        int buffered = 0;
        int withTraffic = 0;
        int faulted = 0;
        int dcqcn = 0;
        for (long seed = 1; seed <= SHARED_SEEDS; seed++) {
            ChaosPlans.Plan plan = ChaosPlans.generateShared(seed);
            assertTrue(plan.text().equals(ChaosPlans.generateShared(seed).text()), "the same seed, the same text");
            buffered += plan.text().contains("buffer = ") ? 1 : 0;
            withTraffic += plan.text().contains("traffic = ") ? 1 : 0;
            faulted +=
                    plan.text().contains("kind = switch-crash") || plan.text().contains("kind = link-down") ? 1 : 0;
            dcqcn += plan.text().contains("control = dcqcn") ? 1 : 0;
            Path file = dir.resolve("shared-" + seed + ".conf");
            Files.writeString(file, plan.text());
            Scenario s = ScenarioLoader.load(file);
            Report r = session.run(s, new RunProgress());
            List<String> v = new ArrayList<>(ChaosCheck.violations(plan, s, r));
            if (r.jobs().stream().noneMatch(j -> j.shared() != null)) {
                v.add("no row ran shared: " + r.jobs().get(0).outcome().note());
            }
            String diff = RunComparison.firstDifference(r, session.run(s, new RunProgress()));
            if (diff != null) {
                v.add("a second run differs at " + diff);
            }
            if (!v.isEmpty()) {
                failures.add("shared seed " + seed + ": " + v + "\n" + plan.text());
            }
        }
        assertTrue(buffered > 0, "some plans have finite buffers");
        assertTrue(withTraffic > 0, "some plans have background traffic");
        assertTrue(faulted > 0, "some plans crash a spine or take a link down under both tenants");
        assertTrue(dcqcn > 0, "some plans run DCQCN");
        assertTrue(
                failures.isEmpty(),
                failures.size() + " of " + SHARED_SEEDS + " shared seeds broke an invariant:\n"
                        + String.join("\n", failures));
    }
}
