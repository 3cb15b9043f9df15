package org.bitina.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.bitina.job.Mode;
import org.bitina.scenario.Schedule;
import org.bitina.usecase.UseCase;
import org.bitina.usecases.UseCases;
import org.junit.jupiter.api.Test;

/**
 * The protocol is plain, deterministic Java (docs/architecture.md "The protocol in code"): the packages that
 * hold it import nothing from Pekko, read no clock, start no thread and draw no unseeded
 * randomness.
 */
class ArchitectureTest {
    private static final String[] PURE = {
        "org.bitina.bitmap..",
        "org.bitina.wire..",
        "org.bitina.topology..",
        "org.bitina.protocol..",
        "org.bitina.security..",
        "org.bitina.scenario..",
        "org.bitina.usecase..",
        "org.bitina.usecases..",
        "org.bitina.job..",
        "org.bitina.time..",
        "org.bitina.workload..",
        "org.bitina.chaos..",
        "org.bitina.capture.."
    };

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.bitina");

    @Test
    void protocolPackagesImportNothingFromPekko() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.pekko..", "org.bitina.device..", "org.bitina.cluster..", "org.bitina.run..")
                .check(CLASSES);
    }

    @Test
    void protocolPackagesReadNoClockAndStartNoThread() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.Instant")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.Clock")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.lang.Thread")
                // a concurrent map shares references between drivers; it is data, not a thread
                .orShould()
                .dependOnClassesThat(JavaClass.Predicates.resideInAPackage("java.util.concurrent..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.type(ConcurrentHashMap.class))))
                .check(CLASSES);
    }

    @Test
    void protocolPackagesUseOnlySeededRandomness() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .callMethod(Math.class, "random")
                .orShould()
                .callConstructor(Random.class)
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
                .check(CLASSES);
    }

    /** Layers, not a web: no package depends on itself through others (every package its own slice). */
    @Test
    void noPackageCycles() {
        slices().matching("org.bitina.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /**
     * A use case is a plug-in: its package is reached only through the one list of kinds (or by
     * another kind that builds on it), so a new kind touches nothing outside its package but that list. The kinds are the packages of
     * {@link UseCases#ALL}.
     */
    @Test
    void onlyUseCasesNamesAUseCase() {
        List<String> kinds =
                UseCases.ALL.stream().map(u -> u.getClass().getPackageName()).toList();
        // another kind may build on one (a broadcast's in-network phase is a reliable multicast's); nothing else
        String[] everyKind = kinds.stream().map(k -> k + "..").toArray(String[]::new);
        for (String kind : kinds) {
            noClasses()
                    .that()
                    .resideOutsideOfPackages(everyKind)
                    .and()
                    .doNotHaveFullyQualifiedName(UseCases.class.getName())
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(kind + "..")
                    .check(CLASSES);
        }
    }

    /**
     * Nothing outside the use cases' packages tests a kind by name: the writers, the runner and the
     * chaos generator get what differs per kind from its {@code UseCase} (its report part, unit,
     * tolerance, chaos job). ArchUnit does not see string constants, so the main sources of the core
     * and the node are read. The workload's {@code moe} is the model description's MoE section (its
     * layers), not the job kind, and stays.
     */
    @Test
    void noKindNameLiteralOutsideTheUseCases() throws IOException {
        List<String> kinds = UseCases.ALL.stream().map(UseCase::kind).toList();
        List<String> found = literalsOutsideTheUseCases(
                kinds, (where, name) -> name.equals("moe") && where.startsWith("org/bitina/workload/"));
        assertEquals(List.of(), found, "kind names outside the use cases' packages");
    }

    /**
     * A mode is a {@link Mode}: INA is {@link Mode#INA}, each baseline the constant of the use case
     * that declares it ({@code UseCase.baselines()}), so nothing else spells a mode's name to test
     * or build one. The encoding {@code hierarchical} (an endpoint-set encoding, H2) shares a
     * baseline's name and stays where the scenario reads encodings; so does the background traffic
     * pattern {@code all-to-all}.
     */
    @Test
    void noModeNameLiteralOutsideModeAndTheUseCases() throws IOException {
        Set<String> modes = new TreeSet<>(List.of(Mode.INA.name()));
        UseCases.ALL.forEach(u -> u.baselines().forEach(m -> modes.add(m.name())));
        assertTrue(modes.containsAll(List.of("ina", "ring", "ps", "all-to-all", "unicast-ack")), modes.toString());
        List<String> found = literalsOutsideTheUseCases(
                List.copyOf(modes),
                (where, name) -> where.equals("org/bitina/job/Mode.java")
                        || (name.equals("hierarchical") && where.equals("org/bitina/scenario/JobParts.java"))
                        || (name.equals("all-to-all") && where.equals("org/bitina/protocol/TrafficFlows.java")));
        assertEquals(List.of(), found, "mode names outside Mode and the use cases' packages");
    }

    /**
     * A shared run's world is a {@link Schedule.World} (and a links[] row's mode a {@code run.LinkScope}):
     * nothing spells a world's name to test or build one. {@code ina} is also {@link Mode#INA}'s name.
     */
    @Test
    void noWorldNameLiteralOutsideSchedule() throws IOException {
        List<String> worlds = Arrays.stream(Schedule.World.values())
                .map(Schedule.World::configName)
                .toList();
        assertTrue(worlds.containsAll(List.of("ina", "baseline")), worlds.toString());
        List<String> found = literalsOutsideTheUseCases(
                worlds, (where, name) -> name.equals("ina") && where.equals("org/bitina/job/Mode.java"));
        assertEquals(List.of(), found, "world names outside Schedule");
    }

    /**
     * One retransmission rule, one place (issue 42 item 4, issue 43): every mode's sends and backoff
     * are constants of {@code usecase.RecoveryPolicy}; a driver that defines its own count of sends,
     * asks, dispatches, doublings or backoff is named here.
     */
    @Test
    void onlyTheRecoveryPolicyDefinesSendsAndBackoff() throws IOException {
        java.util.regex.Pattern rule =
                java.util.regex.Pattern.compile("static final int \\w*(SENDS|ASKS|DISPATCHES|BACKOFF|DOUBLINGS)\\w* =");
        List<String> found = new ArrayList<>();
        for (Path root : List.of(Path.of("src/main/java"), Path.of("../emulator-node/src/main/java"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    if (f.endsWith(Path.of("org", "bitina", "usecase", "RecoveryPolicy.java"))) {
                        continue;
                    }
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        if (rule.matcher(lines.get(i)).find()) {
                            found.add(root.relativize(f) + ":" + (i + 1) + ": "
                                    + lines.get(i).trim());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), found, "sends or backoff defined outside RecoveryPolicy");
    }

    /**
     * The packages' imports, read from the source, form no circle (issue 43: three Javadoc-only
     * imports of {@code usecases} from {@code job} and {@code usecase} drew a 25-file circle that
     * {@link #noPackageCycles} cannot see, the bytecode keeping no trace of them): each circle found
     * is named with its packages.
     */
    @Test
    void noPackageCyclesInTheSourceImports() throws IOException {
        java.util.Map<String, Set<String>> imports = new java.util.TreeMap<>();
        java.util.regex.Pattern line =
                java.util.regex.Pattern.compile("^import (?:static )?((?:[a-z]\\w*\\.)+)[A-Z].*");
        for (Path root : List.of(Path.of("src/main/java"), Path.of("../emulator-node/src/main/java"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    String from = root.relativize(f.getParent())
                            .toString()
                            .replace('\\', '/')
                            .replace('/', '.');
                    for (String l : Files.readAllLines(f)) {
                        java.util.regex.Matcher m = line.matcher(l);
                        if (m.matches() && m.group(1).startsWith("org.bitina.")) {
                            String to = m.group(1).substring(0, m.group(1).length() - 1);
                            if (!to.equals(from)) {
                                imports.computeIfAbsent(from, k -> new TreeSet<>())
                                        .add(to);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(imports.size() > 10, "the sources were read: " + imports.keySet());
        List<List<String>> circles = new ArrayList<>();
        for (String start : imports.keySet()) {
            // a circle through start: a path back to it over packages after it in order (each circle once)
            java.util.Deque<List<String>> paths = new java.util.ArrayDeque<>();
            paths.push(List.of(start));
            Set<String> seen = new TreeSet<>();
            while (!paths.isEmpty()) {
                List<String> path = paths.pop();
                for (String next : imports.getOrDefault(path.get(path.size() - 1), Set.of())) {
                    if (next.equals(start)) {
                        circles.add(path);
                    } else if (next.compareTo(start) > 0 && seen.add(next)) {
                        List<String> longer = new ArrayList<>(path);
                        longer.add(next);
                        paths.push(longer);
                    }
                }
            }
        }
        assertEquals(List.of(), circles, "packages whose imports go round in a circle");
    }

    /**
     * Each quoted {@code names} element in the main sources of the core and the node outside the
     * use cases' packages (ArchUnit does not see string constants), as {@code file:line: "name"},
     * but for those {@code allowed} (file, name) lets stay.
     */
    private static List<String> literalsOutsideTheUseCases(List<String> names, BiPredicate<String, String> allowed)
            throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : List.of(Path.of("src/main/java"), Path.of("../emulator-node/src/main/java"))) {
            assertTrue(Files.isDirectory(root), root.toAbsolutePath() + " holds the sources this test reads");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    String where = root.relativize(f).toString().replace('\\', '/');
                    if (where.startsWith("org/bitina/usecase/") || where.startsWith("org/bitina/usecases/")) {
                        continue;
                    }
                    List<String> lines = Files.readAllLines(f);
                    for (int n = 0; n < lines.size(); n++) {
                        for (String name : names) {
                            if (lines.get(n).contains("\"" + name + "\"") && !allowed.test(where, name)) {
                                found.add(where + ":" + (n + 1) + ": \"" + name + "\"");
                            }
                        }
                    }
                }
            }
        }
        return found;
    }
}
