package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 46 item 6: a repeated run's draws. Draw 0 is the file as written; every other draw moves
 * every seed the file's jobs and traffic read (data, MoE gating, multicast data, arrivals) and
 * the links' loss seed, and nothing else.
 */
class RepeatDrawsTest {
    private static final Pattern SEED = Pattern.compile("seed=(-?\\d+)");

    private static Scenario load(String file, int draw) throws ScenarioException {
        return ScenarioLoader.load(
                Path.of("..", "topology-configs", file), Runtime.getRuntime().maxMemory(), Overrides.NONE, draw);
    }

    /** What the scenario's jobs and traffic say, every seed in it. */
    private static String said(Scenario s) {
        // identity hashes (BitSpace@1a2b) differ between any two loads
        return (s.jobs().toString() + s.traffic()).replaceAll("@[0-9a-f]+", "@");
    }

    private static List<Long> seeds(String said) {
        List<Long> out = new ArrayList<>();
        Matcher m = SEED.matcher(said);
        while (m.find()) {
            out.add(Long.parseLong(m.group(1)));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "paper-fig1-allreduce.conf",
                "fat-tree-k8-moe.conf",
                "shrinking-miss-set.conf",
                "shared-fabric.conf",
                "fat-tree-k4-bier-inc.conf",
                "fat-tree-k4-all-gather.conf"
            })
    void aDrawMovesEverySeedAndNothingElse(String file) throws ScenarioException {
        Scenario asWritten = ScenarioLoader.load(Path.of("..", "topology-configs", file));
        Scenario zero = load(file, 0);
        Scenario two = load(file, 2);
        Scenario three = load(file, 3);
        assertEquals(said(asWritten), said(zero), "draw 0 is the file as written");
        assertEquals(Seeds.LINKS, zero.repeat().linkSeed());
        List<Long> written = seeds(said(zero));
        assertTrue(!written.isEmpty(), "the jobs of " + file + " carry their seeds: " + said(zero));
        List<Long> moved = seeds(said(two));
        List<Long> movedAgain = seeds(said(three));
        assertEquals(written.size(), moved.size());
        for (int i = 0; i < written.size(); i++) {
            assertNotEquals(written.get(i), moved.get(i), "seed " + i + " of " + file + " moved by draw 2");
            assertNotEquals(moved.get(i), movedAgain.get(i), "draws 2 and 3 differ in seed " + i);
        }
        assertNotEquals(zero.repeat().linkSeed(), two.repeat().linkSeed());
        assertNotEquals(two.repeat().linkSeed(), three.repeat().linkSeed());
        assertEquals(
                SEED.matcher(said(zero)).replaceAll("seed=_"),
                SEED.matcher(said(two)).replaceAll("seed=_"),
                "a draw changes the seeds only");
        assertEquals(said(two), said(load(file, 2)), "a draw is the same draw each time it is loaded");
    }

    @Test
    void theFileSaysHowManyRunsAndBadCountsAreRefusedAtTheirLine(@TempDir Path dir)
            throws IOException, ScenarioException {
        String base = Files.readString(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"));
        Path ok = dir.resolve("ok.conf");
        Files.writeString(ok, base + "\nrepeat { runs = 7 }\n");
        assertEquals(7, ScenarioLoader.load(ok).repeat().runs());
        assertEquals(
                1,
                ScenarioLoader.load(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"))
                        .repeat()
                        .runs());
        Path zero = dir.resolve("zero.conf");
        Files.writeString(zero, base + "\nrepeat { runs = 0 }\n");
        ScenarioException e =
                org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class, () -> ScenarioLoader.load(zero));
        assertTrue(e.getMessage().contains("repeat.runs"), e.getMessage());
        Path typo = dir.resolve("typo.conf");
        Files.writeString(typo, base + "\nrepeat { run = 3 }\n");
        e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class, () -> ScenarioLoader.load(typo));
        assertTrue(e.getMessage().contains("run"), e.getMessage());
    }

    @Test
    void aScenarioSaysWhetherItDrawsPacketsAtRandom() throws ScenarioException {
        assertNull(ScenarioLoader.load(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"))
                .randomDrops());
        assertNotNull(ScenarioLoader.load(Path.of("..", "topology-configs", "shrinking-miss-set.conf"))
                .randomDrops());
        Scenario lossy = ScenarioLoader.load(
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"),
                Runtime.getRuntime().maxMemory(),
                Overrides.parse(List.of("topology.link-defaults.loss=1%")));
        assertTrue(lossy.randomDrops().startsWith("loss on "), lossy.randomDrops());
    }

    @Test
    void drawZeroIsTheSeedItselfAndOthersSpreadOut() {
        assertEquals(42, Seeds.forDraw(42, 0));
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int d = 0; d < 1000; d++) {
            seen.add(Seeds.forDraw(1, d));
            seen.add(Seeds.forDraw(2, d));
        }
        assertEquals(2000, seen.size(), "no two of 1000 draws of two seeds meet");
    }
}
