package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is what the schema generates; the schema's sections are what the loader
 * checks; every documented key is taken where the schema says, by every kind it names; and a
 * reader that reads a key the schema does not list fails.
 */
class ConfigSchemaTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    private static final String NODES = "switches = [s1, s2, s3], hosts = [h1, h2, h3, h4]\n"
            + "links = [[s1, s2], [s1, s3], [s2, h1], [s2, h2], [s3, h3], [s3, h4]]";
    private static final String TOPOLOGY = "topology { " + NODES + " }\n";
    private static final String AR =
            "name = j, kind = allreduce, members = [h1, h2], tree { mode = auto, root = s1 }, data { elements = 64 }";
    private static final String MOE = "name = j, kind = moe, sources = [h1], experts = [h2, h3]";

    /**
     * Where each section's keys go in a scenario: %s is the keys, %k the kind (of a section with
     * kinds). A section with only keys the file names (the VAT's nodes, bit positions) has none.
     */
    private static final Map<ConfigSchema.Section, String> WHERE = new LinkedHashMap<>();

    static {
        WHERE.put(ScenarioKeys.TOPOLOGY, "topology { %s }\n");
        WHERE.put(ScenarioKeys.GENERATOR, "topology { generator { kind = %k\n%s } }\n");
        WHERE.put(ScenarioKeys.LINK, "topology { " + NODES + "\nlink-defaults { %s } }\n");
        WHERE.put(ScenarioKeys.LINK_OBJECT, "topology { switches = [s1], hosts = [h1], links = [{ %s }] }\n");
        WHERE.put(ScenarioKeys.SWITCH, "topology { " + NODES + "\nswitch-defaults { %s } }\n");
        WHERE.put(ScenarioKeys.CLUSTER, TOPOLOGY + "cluster { %s }\n");
        WHERE.put(ScenarioKeys.SECURITY, TOPOLOGY + "security { %s }\n");
        WHERE.put(ScenarioKeys.RATE_LIMIT, TOPOLOGY + "security { rate-limit { %s } }\n");
        WHERE.put(ScenarioKeys.REPEAT, TOPOLOGY + "repeat { %s }\n");
        WHERE.put(ScenarioKeys.FAULT, TOPOLOGY + "faults = [{ kind = %k\n%s }]\n");
        WHERE.put(ScenarioKeys.ATTACK, TOPOLOGY + "jobs = [{ " + AR + " }]\nattacks = [{ kind = %k\n%s }]\n");
        WHERE.put(ScenarioKeys.TRAFFIC, TOPOLOGY + "schedule = shared\ntraffic = [{ %s }]\n");
        WHERE.put(ScenarioKeys.CONGESTION, TOPOLOGY + "congestion { %s }\n");
        WHERE.put(section("jobs[]"), TOPOLOGY + "jobs = [{ kind = %k\n%s }]\n");
        WHERE.put(section("jobs[].data"), TOPOLOGY + "jobs = [{ name = j, kind = %k, data { %s } }]\n");
        WHERE.put(
                section("jobs[].tree"),
                TOPOLOGY
                        + "jobs = [{ name = j, kind = allreduce, members = [h1, h2], data { elements = 64 }, tree { %s } }]\n");
        WHERE.put(section("jobs[].encoding"), TOPOLOGY + "jobs = [{ " + AR + ", encoding { %s } }]\n");
        WHERE.put(section("jobs[].security"), TOPOLOGY + "jobs = [{ " + AR + ", security { %s } }]\n");
        WHERE.put(
                section("jobs[].membership[]"),
                TOPOLOGY + "jobs = [{ " + AR + ", iterations = 3, membership = [{ %s }] }]\n");
        WHERE.put(section("jobs[].expect"), TOPOLOGY + "jobs = [{ " + AR + ", expect { ina = partial\n%s } }]\n");
        WHERE.put(section("jobs[].expect.<mode>"), TOPOLOGY + "jobs = [{ " + AR + ", expect { ina { %s } } }]\n");
        WHERE.put(section("jobs[].recovery"), TOPOLOGY + "jobs = [{ " + AR + ", recovery { %s } }]\n");
        WHERE.put(
                section("jobs[].experts[]"),
                TOPOLOGY + "jobs = [{ name = j, kind = moe, sources = [h1], moe {}, experts = [{ %s }] }]\n");
        WHERE.put(section("jobs[].moe"), TOPOLOGY + "jobs = [{ " + MOE + ", moe { %s } }]\n");
        WHERE.put(section("jobs[].moe.pinned[]"), TOPOLOGY + "jobs = [{ " + MOE + ", moe { pinned = [{ %s }] } }]\n");
        WHERE.put(section("jobs[].moe.routing"), TOPOLOGY + "jobs = [{ " + MOE + ", moe { routing { %s } } }]\n");
        WHERE.put(
                section("jobs[].ack"),
                TOPOLOGY
                        + "jobs = [{ name = j, kind = reliable-multicast, source = h1, receivers = [h2], ack { %s } }]\n");
    }

    /** A job section by its path: each kind's reader brings its own. */
    private static ConfigSchema.Section section(String path) {
        return ConfigSchema.all().stream()
                .filter(x -> x.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no section " + path));
    }

    @Test
    void theGeneratedReferenceIsCurrent() throws IOException {
        String generated = ConfigSchema.markdown();
        if (Boolean.getBoolean("bitina.regenerate")) {
            Files.writeString(DOC, generated);
        }
        assertEquals(
                generated,
                Files.readString(DOC),
                "docs/configuration.md is stale: regenerate it with "
                        + "mvn -pl emulator-core test -Dtest=ConfigSchemaTest -Dbitina.regenerate=true");
    }

    @Test
    void everyKeyIsDocumentedOnceWithATypeAnExampleAndAMeaning() {
        for (ConfigSchema.Section s : ConfigSchema.all()) {
            Set<String> seen = new HashSet<>();
            for (ConfigSchema.Key k : s.keys()) {
                assertTrue(seen.add(k.name()), s.path() + "." + k.name() + " twice");
                assertTrue(
                        !k.type().isBlank()
                                && !k.example().isBlank()
                                && !k.doc().isBlank()
                                && !k.defaultValue().isBlank(),
                        s.path() + "." + k.name());
            }
        }
    }

    @Test
    void aKeyTheSchemaLacksIsRefusedAtItsLineAsUnknown() throws IOException {
        Path f = Files.createTempFile("schema", ".conf");
        Files.writeString(f, """
                topology { generator { kind = paper-fig1 }, pod = {} }
                cluster { jvms = 1, placment = by-pod }
                """);
        ScenarioException e = Assertions.assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f));
        String m = e.getMessage();
        assertTrue(m.contains(":1:") && m.contains("pod"), m);
        assertTrue(m.contains(":2:") && m.contains("placment"), m);
        Files.delete(f);
    }

    @Test
    void everyExampleIsHoconThatSetsItsKey() {
        for (ConfigSchema.Section s : ConfigSchema.all()) {
            for (ConfigSchema.Key k : s.keys()) {
                String where = s.path() + "." + k.name() + ": " + k.example();
                var c = Assertions.assertDoesNotThrow(() -> ConfigFactory.parseString(k.example()), where);
                if (!k.placeholder()) {
                    assertTrue(c.root().containsKey(k.name()), where);
                }
            }
        }
    }

    /**
     * The generated files: for each section and each kind its keys name, a scenario holding every
     * documented example of the keys that kind takes. Nothing in them may be refused as unknown
     * or as another kind's; and a key the schema lacks, put in the same place, must be (so the
     * place is one the loader reads).
     */
    @Test
    void everyDocumentedKeyIsTakenWhereTheSchemaSaysByEveryKindItNames() throws IOException {
        Set<ConfigSchema.Section> placed = new HashSet<>(WHERE.keySet());
        for (ConfigSchema.Section s : ConfigSchema.all()) {
            if (s == ScenarioKeys.ROOT || s.names().isEmpty()) {
                continue; // the top level's keys are the sections; a section of chosen names has no fixed key
            }
            assertTrue(placed.remove(s), s.path() + " has no place in this test");
            for (String kind : kinds(s)) {
                List<String> examples = new ArrayList<>();
                for (ConfigSchema.Key k : s.keys()) {
                    if ((kind == null || k.takenBy(kind))
                            && !(kind != null && k.name().equals("kind"))) {
                        examples.add(k.example());
                    }
                }
                String file = WHERE.get(s).replace("%k", kind == null ? "" : kind);
                String what = s.path() + (kind == null ? "" : " (" + kind + ")");
                List<String> refused = problems(file.replace("%s", String.join("\n", examples))).stream()
                        .filter(p -> p.contains("unknown key") || p.contains("' is for "))
                        .toList();
                assertEquals(List.of(), refused, what);
                if (s.keys().stream().anyMatch(ConfigSchema.Key::placeholder)) {
                    continue; // there any other key is a name the file chooses (expect's modes)
                }
                List<String> bogus =
                        problems(file.replace("%s", String.join("\n", examples) + "\nzz-no-such-key = 1")).stream()
                                .filter(p -> p.contains("unknown key 'zz-no-such-key'"))
                                .toList();
                assertEquals(1, bogus.size(), what + ": a key the schema lacks is not refused here");
            }
        }
        assertEquals(Set.of(), placed);
    }

    /** The kinds a section's keys name, or one null for a section without kinds. */
    private static List<String> kinds(ConfigSchema.Section s) {
        List<String> kinds = new ArrayList<>();
        s.keys()
                .forEach(k -> k.kindList().forEach(x -> {
                    if (!kinds.contains(x)) {
                        kinds.add(x);
                    }
                }));
        if (s.path().equals(JobKeys.JOB_PATH)
                || s == ScenarioKeys.FAULT
                || s == ScenarioKeys.ATTACK
                || s == ScenarioKeys.GENERATOR) {
            // the kinds whose keys are all "all" take part too (silent faults, replay attacks, paper-fig1)
            for (String k : s.keys().stream()
                    .filter(k -> k.name().equals("kind"))
                    .findFirst()
                    .orElseThrow()
                    .type()
                    .split("\\|")) {
                if (!kinds.contains(k.strip())) {
                    kinds.add(k.strip());
                }
            }
        }
        if (kinds.isEmpty()) {
            kinds.add(null);
        }
        return kinds;
    }

    private static List<String> problems(String content) throws IOException {
        Path f = Files.createTempFile("schema", ".conf");
        try {
            Files.writeString(f, content);
            ScenarioLoader.load(f, Long.MAX_VALUE, Overrides.NONE);
            return List.of();
        } catch (ScenarioException e) {
            return e.problems().stream().map(Problem::toString).toList();
        } finally {
            Files.delete(f);
        }
    }

    @Test
    void aDefaultsKeyThatNoJobTakesIsRefused() throws IOException {
        List<String> p = problems(TOPOLOGY + "defaults {\n  completion-timout = 1ms\n}\n");
        assertTrue(
                p.stream().anyMatch(x -> x.contains(":4: unknown key 'completion-timout' in defaults (job keys)")),
                p.toString());
    }

    @Test
    void everyShippedScenarioLoads() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("..", "topology-configs"))) {
            List<Path> all = files.filter(f -> f.toString().endsWith(".conf") && !f.endsWith("defaults.conf"))
                    .sorted()
                    .toList();
            assertTrue(all.size() > 20, all.toString());
            for (Path f : all) {
                Assertions.assertDoesNotThrow(
                        () -> ScenarioLoader.load(f, Long.MAX_VALUE, Overrides.NONE), f.toString());
            }
        }
    }

    @Test
    void aReaderThatReadsAKeyTheSchemaDoesNotListFails() {
        ConfigReader r =
                ConfigReader.of(ConfigFactory.parseString("per = packet"), "ack.", new Problems(Path.of("x.conf")));
        r.checkKeys(section("jobs[].ack"), "ack");
        assertEquals("packet", r.name("per", null));
        IllegalStateException e = Assertions.assertThrows(IllegalStateException.class, () -> r.name("rounds", null));
        assertTrue(e.getMessage().contains("'ack.rounds', which ConfigSchema does not list"), e.getMessage());
    }
}
