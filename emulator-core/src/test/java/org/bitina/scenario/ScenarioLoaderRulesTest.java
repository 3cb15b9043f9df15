package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.bitina.job.Expect;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The loader's rules: one key set per job kind, typed sections, every problem at once, includes that must exist. */
class ScenarioLoaderRulesTest {
    @TempDir
    Path dir;

    private static final String TOPOLOGY = """
            topology {
              switches = [s1, s2]
              hosts = [a, b, c]
              links = [ [s1, s2], [s1, a], [s1, b], [s2, c] ]
            }
            """;

    private static final String ALLREDUCE = """
            { name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 10 } }
            """.strip();

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        return p;
    }

    private List<String> problems(String content) throws IOException {
        Path p = write("bad.conf", content);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        return e.problems().stream().map(Problem::toString).toList();
    }

    private String at(int line) {
        return dir.resolve("bad.conf") + ":" + line + ": ";
    }

    private static void assertHas(List<String> problems, String expected) {
        assertTrue(
                problems.stream().anyMatch(p -> p.startsWith(expected)),
                () -> "expected '" + expected + "' in\n" + String.join("\n", problems));
    }

    @Test
    void allreduceJobRejectsKeysOfOtherKindsWithTheirLinesAndItsKeyList() throws IOException {
        List<String> p = problems(TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree { mode = auto, root = s1 }
                  data { elements = 10 }
                  experts = [a]
                  receivers = all
                  max-rounds = 3
                }]
                """);
        String keys =
                "(allreduce keys: admission, after, baselines, bit-space, completion-timeout, congestion, data, encoding, expect, id, iterations, kind, members, membership, name, partitions, recovery, security, start, tenant, tree)";
        assertEquals(
                List.of(
                        at(10) + "key 'experts' is for moe jobs, not for an allreduce job " + keys,
                        at(11) + "key 'receivers' is for reliable-multicast jobs, not for an allreduce job " + keys,
                        at(12)
                                + "key 'max-rounds' is for reliable-multicast and broadcast jobs, not for an allreduce job "
                                + keys),
                p);
    }

    /**
     * Issue 45 item 3: a shared fabric takes link, switch and loss faults; a member loss and a
     * malicious switch are refused, each at the faults' line with why.
     */
    @Test
    void underTheSharedScheduleNetworkFaultsLoadAndAMemberLossOrAMaliciousSwitchIsRefusedWithWhy()
            throws IOException, ScenarioException {
        String shared = TOPOLOGY + "schedule = shared\nworlds = [ina]\njobs = [" + ALLREDUCE + "]\n";
        Path ok = write("ok.conf", shared + """
                faults = [
                  { at = 1us, kind = link-down, link = [s1, s2] }
                  { at = 2us, kind = switch-crash, node = s2 }
                  { at = 3us, kind = loss, rate = 0.01 }
                ]
                """);
        assertEquals(3, ScenarioLoader.load(ok).faults().size());
        List<String> p = problems(shared + """
                faults = [
                  { at = 1us, kind = member-loss, member = 1 }
                  { at = 2us, kind = malicious-switch, node = s1 }
                ]
                """);
        assertEquals(
                List.of(
                        at(9) + "a member-loss fault under schedule = shared: losing a cluster member ends the"
                                + " phase, and with it every job of the mix (run it under schedule = sequential)",
                        at(9) + "a malicious-switch fault under schedule = shared: a malicious switch (S6)"
                                + " corrupts one AllReduce job's sums, checked by its sequential phase (run it under"
                                + " schedule = sequential)"),
                p);
    }

    /** Issue 42 item 13: refused at its line before anything runs, not run as rows that all fail. */
    @Test
    void anElasticJobUnderTheSharedScheduleIsRefusedAtItsLine() throws IOException {
        List<String> p = problems(TOPOLOGY + """
                schedule = shared
                worlds = [ina]
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree { mode = auto, root = s1 }
                  data { elements = 10 }
                  iterations = 3
                }]
                """);
        assertEquals(
                List.of(at(12) + "an elastic job (iterations, membership) runs under schedule = sequential: a shared"
                        + " world runs one phase per job, an elastic job one per iteration"),
                p);
    }

    @Test
    void maskingAndTheChecksumNeedAnInt32SumAndSayWhyAtTheirLines() throws IOException {
        List<String> p = problems(TOPOLOGY + """
                jobs = [
                  { name = f, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 10 },
                    security { masking = on,
                               checksum = on } }
                  { name = m, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 },
                    data { elements = 10, type = int32, op = max }, security { masking = on } }
                  { name = k, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 },
                    data { elements = 10, type = int32 }, security { masking = maybe, shuffle = on } }
                ]
                """);
        assertHas(
                p,
                at(8)
                        + "masking needs an int32 sum (masks cancel only in a group: int32 wraps mod 2^32), not a float32 sum job");
        assertHas(
                p,
                at(9)
                        + "the checksum needs an int32 sum (it is linear only there: not under float rounding, nor for max, min or "
                        + "product), not a float32 sum job");
        assertHas(
                p,
                at(11)
                        + "masking needs an int32 sum (masks cancel only in a group: int32 wraps mod 2^32), not a int32 max job");
        assertHas(p, at(13) + "security.masking must be on or off, got 'maybe'");
        assertHas(p, at(13) + "unknown key 'shuffle'");
        assertEquals(5, p.size(), p.toString());
    }

    @Test
    void aMaliciousSwitchIsASwitch() throws IOException {
        List<String> p = problems(TOPOLOGY + "jobs = [" + ALLREDUCE
                + "]\nfaults = [ { at = 0ms, kind = malicious-switch, node = a } ]\n");
        assertEquals(List.of(at(7) + "malicious-switch names 'a', which is a host"), p);
    }

    @Test
    void eachKindHasItsOwnKeysSoAMoeJobRejectsATreeAndABierIncJobRejectsOne() throws IOException {
        List<String> p = problems(TOPOLOGY + """
                jobs = [
                  { name = m, kind = moe, sources = [a], experts = [b, c], moe { top-k = 1 },
                    members = [a] }
                  { name = i, kind = bier-inc, members = [a, c], data { elements = 10 },
                    tree { mode = auto, root = s1 } }
                ]
                """);
        assertHas(
                p,
                at(8)
                        + "key 'members' is for allreduce, bier-inc, reduce-scatter, all-gather and broadcast jobs, not for a moe job (moe keys: admission, after, baselines, ");
        assertHas(p, at(10) + "key 'tree' is for allreduce jobs, not for a bier-inc job (bier-inc keys: ");
        assertEquals(2, p.size(), p.toString());
    }

    static Stream<Arguments> wrongTypeSections() {
        return Stream.of(
                Arguments.of("topology = 1\n", 1, "topology must be an object (got a number)"),
                Arguments.of(
                        "topology { switches = [s1], hosts = [a], links = [[s1, a]],\n link-defaults = \"x\" }\n",
                        2,
                        "topology.link-defaults must be an object (got a string)"),
                Arguments.of("topology { generator = 4 }\n", 1, "topology.generator must be an object (got a number)"),
                Arguments.of(
                        "topology { switches = [s1], hosts = [a], links = [[s1, a]],\n pods = [a] }\n",
                        2,
                        "topology.pods must be an object (got a list)"),
                Arguments.of(
                        "topology { switches = s1, hosts = [a], links = [[s1, a]] }\n",
                        1,
                        "topology.switches must be a list (got a string)"),
                Arguments.of(
                        TOPOLOGY
                                + "jobs = [\n  { name = j, kind = allreduce, members = [a], tree { mode = auto, root = s1 },\n"
                                + "    data = 5 } ]\n",
                        8,
                        "data must be an object (got a number)"),
                Arguments.of(
                        TOPOLOGY + "jobs = [\n  { name = j, kind = allreduce, members = [a], data { elements = 1 },\n"
                                + "    tree = \"x\" } ]\n",
                        8,
                        "tree must be an object (got a string)"),
                Arguments.of(
                        TOPOLOGY + "jobs = [\n  \"j1\" ]\n",
                        7,
                        "jobs[0] must be an object { name = ..., kind = ... } (got a string)"),
                Arguments.of(TOPOLOGY + "jobs = { name = j }\n", 6, "jobs must be a list (got an object)"),
                Arguments.of(
                        TOPOLOGY + "jobs = [{ name = m, kind = moe, sources = [a], experts = [b],\n  moe = 3 }]\n",
                        7,
                        "moe must be an object (got a number)"),
                Arguments.of(
                        TOPOLOGY
                                + "jobs = [{ name = r, kind = reliable-multicast, source = a, receivers = [b],\n  ack = [1] }]\n",
                        7,
                        "ack must be an object (got a list)"),
                Arguments.of(TOPOLOGY + "faults = 3\n", 6, "faults must be a list (got a number)"),
                Arguments.of(
                        TOPOLOGY + "faults = [ { kind = silent, node = a },\n  true ]\n",
                        7,
                        "faults[1] must be an object { at = 10ms, kind = ..., ... } (got a boolean)"),
                Arguments.of(TOPOLOGY + "cluster = 3\n", 6, "cluster must be an object (got a number)"),
                Arguments.of(
                        TOPOLOGY + "cluster { jvms = 2, placement = explicit,\n  explicit = [a] }\n",
                        7,
                        "cluster.explicit must be an object (got a list)"),
                Arguments.of(TOPOLOGY + "defaults = 3\n", 6, "defaults must be an object (got a number)"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("wrongTypeSections")
    void sectionOfTheWrongTypeNamesItsKeyWhatItMustBeAndWhatItGot(String content, int line, String message)
            throws IOException {
        assertHas(problems(content), at(line) + message);
    }

    @Test
    void oneLoadReportsEveryProblemOfTheFileAcrossTopologyJobsFaultsAndCluster() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1, s2]
                  hosts = [a, b, c]
                  links = [ [s1, s2], [s1, a], [s1, b],
                            { between = [s2, c], bandwidth = 10Gbit } ]
                  colour = blue
                }
                jobs = [
                  { name = j1, kind = allreduce, members = [a, b, ghost]
                    tree { mode = auto, root = s1 }
                    data { elements = 10, window = many } }
                  { name = j2, kind = reliable-multicast, source = a, receivers = [b]
                    experts = [c] }
                ]
                faults = [ { kind = loss, rate = 150% } ]
                cluster { jvms = 0 }
                """);
        assertEquals(
                List.of(
                        at(5)
                                + "topology.links[3].bandwidth: bad bandwidth \"10Gbit\" (write a number with a unit: bps, Kbps, Mbps, Gbps, Tbps)",
                        at(6)
                                + "unknown key 'colour' in the topology (known: generator, hosts, link-defaults, links, pods, switch-defaults, switch-overrides, switches)",
                        at(9) + "job member 'ghost' is not a node of the topology",
                        at(11) + "data.window must be a whole number, got \"many\"",
                        at(13)
                                + "key 'experts' is for moe jobs, not for a reliable-multicast job (reliable-multicast keys: ack, admission, after, baselines, bit-space, "
                                + "completion-timeout, congestion, data, encoding, expect, id, kind, max-rounds, name, receivers, recovery, source, start, tenant)",
                        at(15) + "faults[0].rate must be at least 0 and below 1 (100%), got \"150%\"",
                        at(16) + "cluster.jvms must be a whole number in 1..64, got 0"),
                p);
    }

    @Test
    void aBrokenTopologyDoesNotHideTheJobsOwnKeysAndValues() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1]
                  hosts = [a, b]
                  links = [ [s1, a], [s1, ghost] ]
                }
                jobs = [{ name = j, kind = allreduce, members = [a, b], tree { mode = auto, root = s1 },
                  data { elements = 10, type = float64 }
                  sources = [a] }]
                faults = [ { kind = straggler, node = a } ]
                """);
        assertEquals(
                List.of(
                        at(4) + "link [s1, ghost] names unknown node 'ghost'",
                        at(7) + "data type must be float32 or int32, got 'float64'",
                        at(8)
                                + "key 'sources' is for moe jobs, not for an allreduce job (allreduce keys: admission, after, baselines, bit-space, completion-timeout, "
                                + "congestion, data, encoding, expect, id, iterations, kind, members, membership, name, partitions, recovery, security, start, tenant, tree)",
                        at(9) + "straggler needs delay = ..."),
                p);
    }

    @Test
    void missingIncludeIsAProblemAtTheLineOfTheInclude() throws IOException {
        List<String> p = problems("# a scenario\ninclude \"nodefaults\"\n" + TOPOLOGY);
        Path looked = dir.resolve("nodefaults.conf");
        assertEquals(
                List.of(at(2) + "include \"nodefaults\": no such file (looked for " + looked
                        + ", nodefaults.json or nodefaults.properties)"),
                p);
    }

    @Test
    void includeRequiredOfAPathRelativeToTheFileNamesThatPathNotTheClasspath() throws IOException {
        List<String> p = problems(TOPOLOGY + "include required(\"shared/links.conf\")\n");
        assertEquals(
                List.of(at(6) + "include required(\"shared/links.conf\"): no such file (looked for "
                        + dir.resolve("shared/links.conf") + ")"),
                p);
        assertFalse(p.get(0).contains("classpath"), p.get(0));
    }

    @Test
    void missingIncludeInsideAnIncludedFileIsBlamedOnThatFile() throws IOException {
        Path inner = write("shared/defaults.conf", "defaults { completion-timeout = 5ms }\ninclude \"gone\"\n");
        List<String> p = problems("include \"shared/defaults\"\n" + TOPOLOGY);
        assertEquals(
                List.of(inner + ":2: include \"gone\": no such file (looked for " + dir.resolve("shared/gone.conf")
                        + ", gone.json or gone.properties)"),
                p);
    }

    @Test
    void includeOfAFileNextToTheScenarioStillWorks() throws IOException {
        write("shared/defaults.conf", "defaults { completion-timeout = 5ms }\n");
        Path good = write("good.conf", "include \"shared/defaults\"\n" + TOPOLOGY + "jobs = [" + ALLREDUCE + "]\n");
        try {
            assertEquals(
                    Duration.ofMillis(5),
                    ScenarioLoader.load(good).jobs().get(0).common().completionTimeout());
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void aNodeNameAnActorPathCannotTakeIsRefusedAtItsLine() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1]
                  hosts = [a, "hé"]
                  links = [ [s1, a], [s1, "hé"] ]
                }
                """);
        assertHas(p, at(3) + "node name 'hé' may hold only letters, digits, '-', '_' and '.'");
    }

    @Test
    void aLeafSpineTooLargeToGenerateIsRefusedBeforeItIsGenerated() throws IOException {
        List<String> p = problems(
                "topology { generator { kind = leaf-spine, spines = 2000000000, leaves = 8, hosts-per-leaf = 4 } }\n");
        assertHas(p, at(1) + "a leaf-spine of 2000000000 spines, 8 leaves and 4 hosts per leaf has 2000000040 nodes");
    }

    @Test
    void timesPastWhatTheSchedulerCanServeAreRefused() throws IOException {
        List<String> p =
                problems(TOPOLOGY + "jobs = [" + ALLREDUCE.replace("data {", "completion-timeout = 10000d, data {")
                        + "]\n" + "faults = [ { at = 1000000000s, kind = link-down, link = [s1, s2] } ]\n");
        assertHas(p, at(6) + "completion-timeout must be at most 24 h, got \"10000d\"");
        assertHas(p, at(7) + "faults[0].at must be at most 24 h, got \"1000000000s\"");
    }

    @Test
    void twoFaultObjectsOnOneLineWithoutACommaAreAnErrorNotOneMergedFault() throws IOException {
        List<String> p = problems(TOPOLOGY + "jobs = [" + ALLREDUCE + "]\n"
                + "faults = [ { at = 1ms, kind = loss, rate = 5% } { at = 2ms, kind = silent, node = a } ]\n");
        assertHas(
                p,
                at(7) + "two objects next to each other on one line merge into one: a comma is missing between them");
    }

    @Test
    void objectsOnSeparateLinesAndASubstitutionMergedWithAnObjectAreFine() throws Exception {
        Path ok = write(
                "ok.conf",
                TOPOLOGY + "defs { d { elements = 10 } }\n"
                        + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data = ${defs.d} { seed = 3 } }]\n"
                        + "faults = [\n  { at = 1ms, kind = loss, rate = 5% }\n  { at = 2ms, kind = silent, node = a }\n]\n");
        assertEquals(2, ScenarioLoader.load(ok).faults().size());
    }

    @Test
    void expectNamesModesTheJobRunsStatusesThatExistAndHostsOfTheTopology() throws IOException {
        List<String> p = problems(TOPOLOGY
                + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                + "  data { elements = 10 }, baselines = [ring]\n"
                + "  expect { ina = partial, rign = failed, ring = broken } }]\n");
        assertHas(p, at(8) + "expect names mode 'rign', which this job does not run (it runs ina, ring)");
        assertHas(p, at(8) + "expect.ring must be complete or partial or failed, got 'broken'");
        assertHas(p, at(8) + "expect: a partial ina names who is missing (missing = [...])");
        List<String> hosts = problems(TOPOLOGY
                + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                + "  data { elements = 10 }, baselines = [ring]\n"
                + "  expect { ina = partial, ring = { status = failed, missing = [s1] }, missing = [zz] } }]\n");
        assertHas(hosts, at(8) + "expect names 's1' missing, which is no host of the topology");
        assertHas(hosts, at(8) + "expect names 'zz' missing, which is no host of the topology");
    }

    @Test
    void anExpectReadsIntoTheJob() throws Exception {
        Path ok = write(
                "expect.conf",
                TOPOLOGY
                        + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                        + "  data { elements = 10 }, baselines = [ring], expect { ina = partial, ring = failed, missing = [c] } }]\n");
        Expect e = ScenarioLoader.load(ok).jobs().get(0).common().expect();
        assertEquals(
                Map.of(
                        Mode.INA,
                        new Expect.Outcome(Status.PARTIAL, Set.of("c")),
                        Mode.of("ring"),
                        new Expect.Outcome(Status.FAILED, null)),
                e.modes());
    }

    @Test
    void aJobWhoseDataCannotFitInTheHeapIsRefusedAtValidationNamingWhatItNeeds() throws IOException {
        Path big = write("big.conf", TOPOLOGY + """
                jobs = [
                  { name = ar, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 268435456 } }
                  { name = mc, kind = reliable-multicast, source = a, receivers = all, data { bytes = 17179869184, packet = 4000 } }
                  { name = moe, kind = moe, sources = [a], experts = [b, c], moe { top-k = 1, hidden = 960, tokens-per-source = 1048576 } }
                  { name = small, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 4096 } }
                ]
                """);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(big, 4L << 30));
        List<String> p = e.problems().stream().map(Problem::toString).toList();
        String file = dir.resolve("big.conf") + ":";
        assertHas(
                p,
                file
                        + "7: job ar needs about 9 GiB for its data and references; the JVM has 4 GiB (BITINA_JAVA_OPTS=-Xmx...)");
        assertHas(p, file + "8: job mc needs about 64 GiB");
        assertHas(p, file + "9: job moe needs about 16 GiB");
        assertEquals(3, p.size(), "the small job fits: " + p);
    }

    @Test
    void explicitBitPositionsAreUniqueInRangeHostsAndGiveEveryMemberOne() throws IOException {
        List<String> p = problems(TOPOLOGY
                + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                + "  data { elements = 10 }\n"
                + "  bit-space { a = 1, b = 1, s2 = 3, ghost = 4, c = 0 } }]\n");
        assertHas(p, at(8) + "bit position 1 is given to both a and b");
        assertHas(p, at(8) + "bit-space names 's2', which is no host of this job's topology");
        assertHas(p, at(8) + "bit-space names 'ghost', which is no host of this job's topology");
        assertHas(p, at(8) + "bit-space.c must be a whole number in 1..");
        assertHas(p, at(8) + "bit-space gives no position to [b, c] (every member needs one)");
    }

    @Test
    void aMoeJobsPositionsAreExactlyOnePerExpert() throws IOException {
        List<String> p = problems(TOPOLOGY + "jobs = [{ name = m, kind = moe, sources = [a], experts = [b, c]\n"
                + "  bit-space { b = 1, c = 3 } }]\n");
        assertHas(p, at(7) + "bit positions must be exactly 1..2 here (one per expert), got [1, 3]");
    }

    @Test
    void attacksNameAKindAMemberHostAndAnAllreduceJobOfTheScenario() throws IOException {
        List<String> p = problems(TOPOLOGY + "jobs = [" + ALLREDUCE + "]\n"
                + "attacks = [\n"
                + "  { at = 1us, kind = teleport, node = a, job = j }\n"
                + "  { at = 1us, kind = replay, node = a, job = nope }\n"
                + "  { at = 1us, kind = spoof-bits, node = a, job = j }\n"
                + "  { at = 1us, kind = non-member-bits, node = a, job = j }\n"
                + "  { at = 1us, kind = spoofed-ack, node = a, job = j, as = [b] }\n"
                + "  { at = 1us, kind = replay, node = a, job = j, count = 5 }\n"
                + "  { at = 1us, kind = rate-flood, node = a, job = j }\n"
                + "]\n"
                + "security { mac = off }\n");
        assertHas(
                p,
                at(8)
                        + "attacks[0].kind must be forged-mac or replay or spoof-bits or non-member-bits or amplify or foreign-job or soft-state-flood or rate-flood or spoofed-ack, got 'teleport'");
        assertHas(p, at(9) + "a replay attack targets an allreduce job; 'nope' is none of this scenario's");
        assertHas(p, at(10) + "spoof-bits needs as = [members of j] whose bits it sets");
        assertHas(
                p,
                at(11)
                        + "non-member-bits needs a host that holds a bit in j without being a member (bit-space = hosts)");
        assertHas(p, at(12) + "a spoofed-ack attack targets a reliable-multicast job; 'j' is none of this scenario's");
        assertHas(
                p,
                at(13)
                        + "key 'count' is for soft-state-flood, rate-flood, not for a replay attack (known: at, job, kind, node)");
        assertHas(
                p,
                at(14)
                        + "rate-flood attacks the rate limit: it needs security { rate-limit { packets-per-second = ..., burst = ... } }");
    }

    @Test
    void aCompletionTimeoutLongerThanTheScenarioAllowsIsRefused() throws IOException {
        List<String> p = problems(TOPOLOGY
                + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                + "  data { elements = 10 }, completion-timeout = 1s }]\n"
                + "security { max-completion-timeout = 100ms }\n");
        assertHas(
                p,
                at(7)
                        + "completion-timeout of 1000 ms is longer than the scenario allows (security.max-completion-timeout = 100 ms)");
        List<String> dflt = problems(TOPOLOGY
                + "jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }\n"
                + "  data { elements = 10 }, completion-timeout = 11s }]\n");
        assertHas(
                dflt,
                at(7)
                        + "completion-timeout of 11000 ms is longer than the scenario allows (security.max-completion-timeout = 10000 ms)");
    }

    @Test
    void aJobIdOutsideTheWireJobRegistrysBlocksIsRefusedAtItsKey() throws IOException {
        List<String> tooBig =
                problems(TOPOLOGY + "jobs = [" + ALLREDUCE.replace("name = j,", "name = j, id = 1000000,") + "]\n");
        assertTrue(tooBig.stream().anyMatch(p -> p.contains("id") && p.contains("999999")), tooBig.toString());
        List<String> elastic = problems(TOPOLOGY + "jobs = ["
                + ALLREDUCE.replace("name = j,", "name = j, id = 10000, iterations = 3,") + "]\n");
        assertTrue(
                elastic.stream().anyMatch(p -> p.contains("an elastic job's id is at most 9999")), elastic.toString());
    }
}
