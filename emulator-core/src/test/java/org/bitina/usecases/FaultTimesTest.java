package org.bitina.usecases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Validation warns of a fault planned after every phase could end; no shipped file has one. */
class FaultTimesTest {
    private static final Path CONFIGS = Path.of("..", "topology-configs");

    @TempDir
    Path dir;

    private Scenario fig1(String faults) throws IOException, ScenarioException {
        String text = Files.readString(CONFIGS.resolve("paper-fig1-allreduce.conf"))
                .replace(
                        "include \"defaults\"",
                        "include file(\"" + CONFIGS.resolve("defaults.conf").toAbsolutePath() + "\")");
        Path f = dir.resolve("fig1.conf");
        Files.writeString(f, text + "\nfaults = [ " + faults + " ]\n");
        return ScenarioLoader.load(f);
    }

    @Test
    void aCrashAtTenSecondsIsLaterThanAnyPhaseOfFig1CouldEnd() throws IOException, ScenarioException {
        List<FaultTimes.Late> late = FaultTimes.late(fig1(
                "{ at = 20us, kind = link-down, link = [w1, s1] }," + " { at = 10s, kind = switch-crash, node = s1 }"));
        assertEquals(1, late.size(), late.toString());
        assertEquals(1, late.get(0).index());
        assertTrue(late.get(0).latestEnd() < 10_000_000_000L);
        assertTrue(
                late.get(0).describe().startsWith("warning: faults[1] (switch-crash at 10.0 s)"),
                late.get(0).describe());
    }

    @Test
    void aCrashAtTwentyMicrosecondsLandsInsideThePhase() throws IOException, ScenarioException {
        assertEquals(List.of(), FaultTimes.late(fig1("{ at = 20us, kind = switch-crash, node = s1 }")));
    }

    @Test
    void aCrashAtFiveMillisecondsLandsAfterTheCleanPhasesOfFig1() throws IOException, ScenarioException {
        // fig1's phases last about 100 us when nothing waits: a fault written in ms comes too late
        assertEquals(
                1,
                FaultTimes.late(fig1("{ at = 5ms, kind = switch-crash, node = s1 }"))
                        .size());
    }

    @Test
    void everyShippedFilesFaultsLandInsideTheirPhases() throws IOException, ScenarioException {
        List<Path> files;
        try (Stream<Path> all = Files.walk(CONFIGS)) {
            files = all.filter(p -> p.toString().endsWith(".conf"))
                    .filter(p -> !p.getFileName().toString().equals("defaults.conf"))
                    .sorted()
                    .toList();
        }
        List<String> late = new ArrayList<>();
        int withFaults = 0;
        for (Path f : files) {
            Scenario s = ScenarioLoader.load(f);
            withFaults += s.faults().isEmpty() ? 0 : 1;
            FaultTimes.late(s).forEach(l -> late.add(f.getFileName() + ": " + l.describe()));
        }
        assertTrue(withFaults >= 5, "the shipped files plan faults: " + withFaults);
        assertEquals(List.of(), late);
    }
}
