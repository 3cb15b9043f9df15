package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.security.AttackSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attack suite (`topology-configs/attacks/`): each file's attacks are counted drops with
 * their reasons, every honest job still ends verified (complete, or exactly as its file's
 * {@code expect} says), and no switch holds more state than the job reserved.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AttackSuiteTest {
    private RunSession session;

    @BeforeAll
    void start() {
        session = new RunSession(Duration.ofMinutes(2));
    }

    @AfterAll
    void stop() {
        session.close();
    }

    /** The files of hostile endpoints; {@code malicious-switch.conf} is a fault of the fabric, tested below. */
    static Stream<Path> files() throws Exception {
        return Files.list(Scenarios.CONFIGS.resolve("attacks"))
                .filter(p -> p.toString().endsWith(".conf"))
                .filter(p -> !p.getFileName().toString().equals(MALICIOUS))
                .sorted()
                .toList()
                .stream();
    }

    private static final String MALICIOUS = "malicious-switch.conf";

    /**
     * S6: a switch corrupting every sum it sends up. The workers' checksums catch it, the host ring
     * reduces the chunks again, the job ends complete and verified, and the audit names the switch.
     * Without detection the corrupted sums would be taken (and fail the oracle); without the fallback
     * the workers would never finish; without the audit no suspect, or another, would be named.
     */
    @org.junit.jupiter.api.Test
    void aMaliciousSwitchIsCaughtReducedAroundAndNamed() throws Exception {
        Scenario s = ScenarioLoader.load(Scenarios.CONFIGS.resolve("attacks").resolve(MALICIOUS));
        Report r = session.run(s, new RunProgress());
        Report.JobReport ina = r.jobs().get(0);
        assertEquals("ina", ina.mode().name());
        assertEquals(Status.COMPLETE, ina.outcome().status(), ina.toString());
        assertTrue(ina.outcome().verified() && ina.outcome().asExpected(), ina.toString());
        assertEquals(List.of(), ina.problems().mismatches());
        int chunks = ina.plan().chunks();
        assertEquals(new Report.ValueSecurity("on", "on", chunks, chunks, List.of("agg-1-1")), ina.security());
        assertTrue(
                ina.outcome().note().contains("suspect agg-1-1"), ina.outcome().note());
        Report.JobReport ring = r.jobs().get(1);
        assertTrue(
                ring.outcome().verified()
                        && ring.outcome().asExpected()
                        && ring.security().failedChunks() == 0,
                ring.toString());
    }

    @ParameterizedTest
    @MethodSource("files")
    void everyAttackIsACountedDropWithItsReasonAndTheHonestJobStillVerifies(Path file) throws Exception {
        Scenario s = ScenarioLoader.load(file);
        assertFalse(s.attacks().isEmpty(), file + " has attacks");
        Report r = session.run(s, new RunProgress());
        for (Report.JobReport j : r.jobs()) {
            // complete, or what the file's expect says exactly (a flooded port's own worker loses its share)
            assertEquals(j.outcome().expected(), j.outcome().status().label(), file + " " + j);
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), file + " " + j);
        }
        Map<String, Long> drops = new TreeMap<>();
        r.switches().forEach(w -> w.drops().forEach((k, v) -> drops.merge(k, v, Long::sum)));
        r.hosts().forEach(h -> h.drops().forEach((k, v) -> drops.merge(k, v, Long::sum)));
        for (AttackSpec a : s.attacks()) {
            List<String> reasons = a.kind() == AttackSpec.Kind.AMPLIFY
                    ? List.of("bits of endpoints that are not the job's members", "which is not the job's sender")
                    : List.of(a.kind().dropReason());
            assertTrue(
                    drops.keySet().stream().anyMatch(k -> reasons.stream().anyMatch(k::contains)),
                    file + ": " + a.kind().configName() + " left no drop with its reason in " + drops);
        }
        long sent = s.attacks().stream().mapToLong(AttackSpec::count).sum();
        // an honest worker's retransmission that meets the aggregation still holding it (the flood delayed its
        // result past the timer) is a duplicate, dropped, and so is one the root meets just after sending the result
        // down (its resend hold): honest traffic that loses nothing, not an attack packet
        long dropped = drops.entrySet().stream()
                .filter(d -> !d.getKey().startsWith("duplicate retransmission")
                        && !d.getKey().startsWith("retransmission answered by the result sent down just before"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        if (s.attacks().stream().noneMatch(a -> a.kind() == AttackSpec.Kind.RATE_FLOOD)) {
            // each attack packet is dropped once, and honest traffic loses nothing
            assertEquals(sent, dropped, file + ": " + drops);
        } else {
            // the rate limit also drops the honest worker's packets that share the flooded port (they are
            // retransmitted)
            assertTrue(dropped >= sent, file + ": " + drops);
            // the flood packets that passed the bucket went on to their next check: no more than the burst and
            // what the rate refilled over the whole phase's modelled time
            double micros = r.jobs().stream()
                    .mapToDouble(j -> j.timing().modeledMicros())
                    .max()
                    .orElse(0);
            long passed = drops.getOrDefault("sequence out of range", 0L);
            long bound = s.security().rate().burst()
                    + (long) Math.ceil(s.security().rate().perSecond() * micros * 1e-6);
            assertTrue(
                    drops.getOrDefault("rate", 0L) > 0 && passed <= bound && passed + drops.get("rate") >= sent,
                    file + ": " + passed + " passed the limit of " + bound + "; " + drops);
        }
        // S5: whatever the attack sent, no switch held more aggregation entries than the honest job reserved
        int reserved = r.jobs().stream()
                .filter(j -> j.plan().admission() != null)
                .mapToInt(j -> j.plan().admission().entries())
                .max()
                .orElse(0);
        r.switches()
                .forEach(w -> assertTrue(
                        w.peakStateEntries() <= reserved,
                        file + ": " + w.name() + " held " + w.peakStateEntries() + " entries, more than the " + reserved
                                + " reserved"));
    }
}
