package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.junit.jupiter.api.Test;

/** The command line's {@code --set}: applied before validation, so a bad value is a problem like any other. */
class OverridesTest {
    private static final Path FIG1 = Path.of("..", "topology-configs", "paper-fig1-allreduce.conf");
    private static final Path ADMISSION = Path.of("..", "topology-configs", "admission-fallback.conf");

    private static Scenario load(Path file, String... sets) throws ScenarioException {
        return ScenarioLoader.load(file, Runtime.getRuntime().maxMemory(), Overrides.parse(List.of(sets)));
    }

    @Test
    void aSectionKeyChangesThereAJobKeyChangesEveryJobAndJobsNameKeyOneJob() throws Exception {
        Scenario s = load(FIG1, "data.elements=4096", "topology.link-defaults.latency=3us", "clock=real");
        assertEquals(4096, ((AllReduceSpec) s.jobs().get(0)).data().elements());
        assertEquals(
                Duration.ofNanos(3000).toNanos(),
                s.topology().links().get(0).spec().latencyNanos());
        assertEquals(Clock.REAL, s.clock());

        // data.elements is the AllReduce jobs': the multicast job beside them, whose data has bytes, is left alone
        Scenario mixed = load(ADMISSION, "data.elements=2048");
        assertEquals(
                List.of(2048, 2048),
                mixed.jobs().stream()
                        .filter(j -> j instanceof AllReduceSpec)
                        .map(j -> ((AllReduceSpec) j).data().elements())
                        .toList());
        Scenario two = load(ADMISSION, "jobs.big.data.window=2");
        assertEquals(4, ((AllReduceSpec) two.jobs().get(0)).data().window(), "small keeps its window");
        assertEquals(2, ((AllReduceSpec) two.jobs().get(1)).data().window(), "big takes the new one");
    }

    @Test
    void aCountTakesBinaryMultiplesAsNcclTestsSizesDo() throws Exception {
        assertEquals(
                4096,
                ((AllReduceSpec) load(FIG1, "data.elements=4K").jobs().get(0))
                        .data()
                        .elements());
        assertEquals(
                65536,
                ((AllReduceSpec) load(FIG1, "data.elements=64K").jobs().get(0))
                        .data()
                        .elements());
        assertEquals(
                1 << 20,
                ((AllReduceSpec) load(FIG1, "data.elements=1M").jobs().get(0))
                        .data()
                        .elements());
        ScenarioException bad = assertThrows(ScenarioException.class, () -> load(FIG1, "data.elements=4X"));
        assertTrue(
                bad.problems().toString().contains("data.elements must be a whole number, got \"4X\""),
                bad.problems().toString());
        ScenarioException big = assertThrows(ScenarioException.class, () -> load(FIG1, "data.elements=1G"));
        assertTrue(
                big.problems().toString().contains("data.elements must be a whole number in 1..268435456"),
                big.problems().toString());
    }

    @Test
    void aBadValueIsAProblemNamingTheSetAndABadPathOrJobIsOneToo() {
        ScenarioException bad = assertThrows(ScenarioException.class, () -> load(FIG1, "data.elements=0"));
        assertTrue(
                bad.problems().toString().contains("(--set data.elements=0) data.elements must be a whole number"),
                bad.problems().toString());
        ScenarioException nobody = assertThrows(ScenarioException.class, () -> load(FIG1, "jobs.nope.data.elements=4"));
        assertTrue(
                nobody.problems().toString().contains("no job is named 'nope'"),
                nobody.problems().toString());
        assertThrows(IllegalArgumentException.class, () -> Overrides.parse(List.of("data.elements")));
        assertThrows(IllegalArgumentException.class, () -> Overrides.parse(List.of("=3")));
    }
}
