package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.bitina.scenario.Scenario;
import org.bitina.security.AttackSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attack suite under loss (L1 with S2-S6): every file of {@code topology-configs/attacks/}
 * with 1 % and 5 % loss added on every link. The honest jobs still end as without loss, complete
 * (or what the file's {@code expect} says) and verified, and each attack is still a drop counted
 * with its reason: recovery must neither let an attack packet through nor count an honest
 * retransmission as one (a retransmission is flagged, a replay is not).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LossyAttackSuiteTest {
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

    static Stream<Arguments> filesAndRates() throws Exception {
        List<Arguments> out = new ArrayList<>();
        for (Path p : Files.list(Scenarios.CONFIGS.resolve("attacks"))
                .filter(f -> f.toString().endsWith(".conf"))
                .sorted()
                .toList()) {
            for (String rate : List.of("1%", "5%")) {
                out.add(Arguments.of(p.getFileName().toString(), rate));
            }
        }
        return out.stream();
    }

    /** The file with loss at {@code rate} from the start, beside the faults it has. */
    private Scenario lossy(String file, String rate) throws Exception {
        String loss = "{ at = 0us, kind = loss, rate = " + rate + " }";
        return Scenarios.reference(
                dir,
                "attacks/" + file,
                t -> t.contains("\nfaults = [")
                        ? t.replace("\nfaults = [", "\nfaults = [ " + loss + ",")
                        : t + "\nfaults = [ " + loss + " ]\n");
    }

    @ParameterizedTest
    @MethodSource("filesAndRates")
    void underLossEveryAttackIsStillACountedDropAndTheHonestJobsVerify(String file, String rate) throws Exception {
        Files.createDirectories(dir.resolve("attacks"));
        Scenario s = lossy(file, rate);
        Report r = session.run(s, new RunProgress());
        String what = file + " at " + rate + ": ";
        for (Report.JobReport j : r.jobs()) {
            assertEquals(j.outcome().expected(), j.outcome().status().label(), what + j);
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), what + j);
            assertTrue(j.recovery().gaveUp().isEmpty(), what + j.recovery().gaveUp());
        }
        Map<String, Long> drops = new TreeMap<>();
        r.switches().forEach(w -> w.drops().forEach((k, v) -> drops.merge(k, v, Long::sum)));
        r.hosts().forEach(h -> h.drops().forEach((k, v) -> drops.merge(k, v, Long::sum)));
        Map<AttackSpec.Kind, Long> sent = new TreeMap<>();
        s.attacks().forEach(a -> sent.merge(a.kind(), (long) a.count(), Long::sum));
        Set<String> attackReasons = new TreeSet<>();
        for (Map.Entry<AttackSpec.Kind, Long> a : sent.entrySet()) {
            List<String> reasons = a.getKey() == AttackSpec.Kind.AMPLIFY
                    ? List.of("bits of endpoints that are not the job's members", "which is not the job's sender")
                    : List.of(a.getKey().dropReason());
            List<String> keys = drops.keySet().stream()
                    .filter(k -> reasons.stream().anyMatch(k::contains))
                    .toList();
            attackReasons.addAll(keys);
            if (a.getValue() >= 10) {
                // a single attack packet may be lost on its one link before it is checked; ten of them cannot all be
                assertTrue(
                        !keys.isEmpty(), what + a.getKey().configName() + " left no drop with its reason in " + drops);
            }
        }
        if (!sent.containsKey(AttackSpec.Kind.RATE_FLOOD)) {
            // loss only takes attack packets away before they are checked: no honest packet is counted as hostile
            long counted = attackReasons.stream().mapToLong(drops::get).sum();
            long total = sent.values().stream().mapToLong(Long::longValue).sum();
            assertTrue(counted <= total, what + counted + " attack drops for " + total + " sent, " + drops);
        }
    }
}
