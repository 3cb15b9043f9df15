package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.bitina.bitmap.EndpointSets;
import org.bitina.topology.Vat;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioLoaderTest {
    @TempDir
    Path dir;

    private static final String SMALL_TOPOLOGY = """
            topology {
              switches = [s1, s2]
              hosts = [a, b, c]
              links = [ [s1, s2], [s1, a], [s1, b], [s2, c] ]
            }
            """;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    /** Loads a bad file and returns its problems as FILE:LINE: message strings. */
    private List<String> problems(String content) throws IOException {
        Path p = write("bad.conf", content);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        return e.problems().stream().map(Problem::toString).toList();
    }

    private static void assertHas(List<String> problems, String prefix, String fragment) {
        assertTrue(
                problems.stream().anyMatch(p -> p.startsWith(prefix) && p.contains(fragment)),
                () -> "expected a problem starting '" + prefix + "' mentioning '" + fragment + "', got " + problems);
    }

    private String file() {
        return dir.resolve("bad.conf").toString() + ":";
    }

    @Test
    void unknownNodeInALink() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1]
                  hosts = [a]
                  links = [ [s1, a],
                            [s1, ghost] ]
                }
                """);
        assertHas(p, file() + "5:", "unknown node 'ghost'");
    }

    @Test
    void duplicateName() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1, a]
                  hosts = [a]
                  links = [ [s1, a] ]
                }
                """);
        assertHas(p, file() + "3:", "duplicate node name 'a'");
    }

    @Test
    void duplicateLinkAndSelfLoop() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1]
                  hosts = [a]
                  links = [ [s1, a], [a, s1],
                    [s1, s1] ]
                }
                """);
        assertHas(p, file() + "4:", "duplicate link [a, s1]");
        assertHas(p, file() + "5:", "connects a node to itself");
    }

    @Test
    void disconnectedGraph() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1, s2]
                  hosts = [a, b]
                  links = [ [s1, a],
                            [s2, b] ]
                }
                """);
        assertHas(p, file() + "4:", "disconnected: s2, b cannot be reached from s1");
    }

    @Test
    void jobMemberThatIsNotAHost() throws IOException {
        List<String> p = problems(SMALL_TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce
                  members = [a, s2,
                    nobody]
                  tree { mode = auto, root = s1 }
                  data { elements = 10 }
                }]
                """);
        assertHas(p, file() + "8:", "job member 's2' is a switch");
        assertHas(p, file() + "9:", "job member 'nobody' is not a node");
    }

    @Test
    void badUnits() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1]
                  hosts = [a]
                  link-defaults {
                    latency = 5 parsecs
                    bandwidth = 100Gbit
                  }
                  links = [ [s1, a] ]
                }
                """);
        assertHas(p, file() + "5:", "bad duration");
        assertHas(p, file() + "6:", "bad bandwidth");
    }

    @Test
    void badNumbers() throws IOException {
        List<String> p = problems("""
                topology {
                  generator { kind = fat-tree,
                    k = 5 }
                }
                """);
        assertHas(p, file() + "3:", "fat-tree k must be an even number");
        List<String> q = problems(SMALL_TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree { mode = auto, root = s1 }
                  data {
                    elements = -3
                    window = many
                    type = float64
                  }
                }]
                """);
        assertHas(q, file() + "10:", "elements must be a whole number in 1..");
        assertHas(q, file() + "11:", "window must be a whole number");
        assertHas(q, file() + "12:", "data type must be float32 or int32");
    }

    @Test
    void chunkLargerThanTheMtu() throws IOException {
        List<String> p = problems(SMALL_TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree { mode = auto, root = s1 }
                  data { elements = 100000,
                         chunk = 4096 }
                }]
                """);
        assertHas(p, file() + "10:", "more than the link's MTU of 4096 bytes");
    }

    @Test
    void vatSwitchMappedToTwoVatNodes() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [r, x, y, z]
                  hosts = [a, b, c]
                  links = [ [r, x], [r, y], [x, z], [y, z], [z, a], [z, b], [x, c] ]
                }
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree {
                    mode = vat, root = r
                    vat {
                      r = [x, y]
                      x = [z, c]
                      y = [z]
                      z = [a, b]
                    }
                  }
                  data { elements = 10 }
                }]
                """);
        assertHas(p, file() + "13:", "switch 'z' is mapped to two VAT nodes");
    }

    @Test
    void vatNeighboursThatAreNotConnected() throws IOException {
        // p and q are joined only through the dual-homed host m, which relays nothing
        List<String> p = problems("""
                topology {
                  switches = [p, q]
                  hosts = [m, a]
                  links = [ [p, m], [m, q], [q, a] ]
                }
                jobs = [{
                  name = j, kind = allreduce, members = [a]
                  tree {
                    mode = vat, root = p
                    vat {
                      p = [q]
                      q = [a]
                    }
                  }
                  data { elements = 10 }
                }]
                """);
        assertHas(p, file() + "11:", "adjacent VAT nodes 'p' and 'q' are not connected");
    }

    @Test
    void vatThatMissesAMember() throws IOException {
        List<String> p = problems(SMALL_TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree {
                    mode = vat, root = s2
                    vat { s2 = [s1], s1 = [a, b] }
                  }
                  data { elements = 10 }
                }]
                """);
        assertHas(p, file() + "10:", "job member 'c' is not a leaf of the VAT");
    }

    @Test
    void syntaxError() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1
                  hosts = [a]
                """);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith(file()), p.toString());
    }

    @Test
    void unknownKeyIsATypoNotSilence() throws IOException {
        List<String> p = problems(SMALL_TOPOLOGY + """
                jobs = [{
                  name = j, kind = allreduce, members = [a, b, c]
                  tree { mode = auto, root = s1 }
                  data { elements = 10 }
                  completion-timout = 5ms
                }]
                """);
        assertHas(p, file() + "10:", "unknown key 'completion-timout'");
    }

    @Test
    void faultsNameRealNodesAndLinks() throws IOException {
        List<String> p = problems(SMALL_TOPOLOGY + """
                faults = [
                  { at = 1ms, kind = link-down, link = [a, c] }
                  { kind = straggler, node = s1, delay = 5ms }
                  { kind = meteor }
                ]
                """);
        assertHas(p, file() + "7:", "no link [a, c]");
        assertHas(p, file() + "8:", "which is a switch");
        assertHas(p, file() + "9:", "unknown fault kind 'meteor'");
    }

    @Test
    void missingFile() {
        ScenarioException e =
                assertThrows(ScenarioException.class, () -> ScenarioLoader.load(dir.resolve("nope.conf")));
        assertTrue(e.getMessage().contains("nope.conf:1: no such file"));
    }

    @Test
    void goodFileLoadsWithDefaultsFromAnInclude() throws IOException {
        write(
                "defaults.conf",
                "topology.link-defaults { latency = 3us, bandwidth = 25Gbps }\ndefaults { completion-timeout = 7ms }\n");
        Path p = write("good.conf", "include \"defaults\"\n" + SMALL_TOPOLOGY + """
                jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 10 } }]
                faults = [ { at = 2ms, kind = loss, rate = 5% } ]
                """);
        Scenario s = assertDoesNotThrowScenario(p);
        assertEquals(3_000, s.topology().links().get(0).spec().latencyNanos());
        assertEquals(25_000_000_000L, s.topology().links().get(0).spec().bandwidthBps());
        AllReduceSpec job = assertInstanceOf(AllReduceSpec.class, s.jobs().get(0));
        assertEquals(Duration.ofMillis(7), job.common().completionTimeout());
        assertEquals(0.05, s.faults().get(0).rate(), 1e-12);
    }

    @Test
    void includeDefaultsWithNoDefaultsFileBesideTakesTheShippedOnes() throws IOException {
        // a scenario copied out of topology-configs/: the shipped defaults.conf (1us, 100Gbps, 50ms) still applies
        Path p = write("copied.conf", "include \"defaults\"\n" + SMALL_TOPOLOGY + """
                jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 10 } }]
                """);
        Scenario s = assertDoesNotThrowScenario(p);
        assertEquals(1_000, s.topology().links().get(0).spec().latencyNanos());
        assertEquals(100_000_000_000L, s.topology().links().get(0).spec().bandwidthBps());
        AllReduceSpec job = assertInstanceOf(AllReduceSpec.class, s.jobs().get(0));
        assertEquals(Duration.ofMillis(50), job.common().completionTimeout());
    }

    @Test
    void includeOfAnotherMissingNameIsStillAProblem() throws IOException {
        Path p = write("other.conf", "include \"my-defaults\"\n" + SMALL_TOPOLOGY + """
                jobs = [{ name = j, kind = allreduce, members = [a, b, c], tree { mode = auto, root = s1 }, data { elements = 10 } }]
                """);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        assertTrue(e.getMessage().contains("other.conf:1:") && e.getMessage().contains("no such file"), e.getMessage());
    }

    private static Scenario assertDoesNotThrowScenario(Path p) {
        try {
            return ScenarioLoader.load(p);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void bierIncCollectivesRootsAndEdgesAreChecked() throws IOException {
        List<String> p = problems("""
                topology {
                  switches = [s1, s2]
                  hosts = [a, b, c]
                  links = [ [s1, s2], [s1, a], [s1, b], [s2, b], [s2, c] ]
                }
                defs { data { elements = 256, type = int32, op = sum, chunk = 256, seed = 1 } }
                jobs = [
                  { name = j1, kind = bier-inc, members = [a, c], data = ${defs.data}, collective = scatter }
                  { name = j2, kind = bier-inc, members = [a, c], data = ${defs.data},
                    collective = reduce }
                  { name = j3, kind = bier-inc, members = [a, c], data = ${defs.data}, collective = broadcast,
                    root = b }
                  { name = j4, kind = bier-inc, members = [a, c], data = ${defs.data},
                    root = a }
                  { name = j5, kind = bier-inc, members = [a, c], data = ${defs.data}, collective = reduce, root = a,
                    baselines = [ps] }
                  { name = j6, kind = bier-inc, members = [a, b], data = ${defs.data},
                    edge = leaf-switches }
                  { name = j7, kind = bier-inc, members = [a, c], data = ${defs.data},
                    edge = spines }
                ]
                """);
        assertHas(p, file() + "8:", "unknown collective 'scatter'");
        assertHas(p, file() + "9:", "a reduce needs a root");
        assertHas(p, file() + "12:", "root 'b' is not a member");
        assertHas(p, file() + "14:", "it takes no root");
        assertHas(p, file() + "16:", "a reduce compares with the ring");
        assertHas(p, file() + "18:", "exactly one switch; b has [s1, s2]");
        assertHas(p, file() + "20:", "unknown edge 'spines'");
    }

    @Test
    void referenceScenariosAreValid() throws IOException {
        Path configs = Path.of("..", "topology-configs");
        try (Stream<Path> files = Files.list(configs)) {
            List<Path> scenarios = files.filter(f -> f.toString().endsWith(".conf") && !f.endsWith("defaults.conf"))
                    .sorted()
                    .toList();
            assertTrue(scenarios.size() >= 4, scenarios.toString());
            for (Path f : scenarios) {
                assertDoesNotThrowScenario(f);
            }
        }
    }

    @Test
    void fig1ScenarioCarriesTheSeedsAbms() {
        Scenario s = assertDoesNotThrowScenario(Path.of("..", "topology-configs", "paper-fig1-allreduce.conf"));
        AllReduceSpec job = (AllReduceSpec) s.jobs().get(0);
        Vat vat = job.tree().vat();
        assertEquals(EndpointSets.parse("[11000000]"), vat.aBm("s1"));
        assertEquals(EndpointSets.parse("[00110000]"), vat.aBm("s7"));
        assertEquals(EndpointSets.parse("[11110000]"), vat.aBm("s6"));
        assertEquals(8, job.common().bitSpace().capacity());
    }
}
