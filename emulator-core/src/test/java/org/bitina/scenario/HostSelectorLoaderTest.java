package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.bitina.job.Mode;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.allreduce.Partitions;
import org.bitina.usecase.moe.MoeSpec;
import org.bitina.usecase.multicast.MulticastSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the loader reads hosts it takes selectors, mixed with names, and puts a bad one at its line. */
class HostSelectorLoaderTest {
    @TempDir
    Path dir;

    private static final String K4 = "topology { generator { kind = fat-tree, k = 4 } }\n";

    private Scenario load(String content) throws IOException, ScenarioException {
        Path p = dir.resolve("ok.conf");
        Files.writeString(p, content);
        return ScenarioLoader.load(p, Long.MAX_VALUE, Overrides.NONE);
    }

    private List<String> problems(String content) throws IOException {
        Path p = dir.resolve("bad.conf");
        Files.writeString(p, content);
        ScenarioException e =
                assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p, Long.MAX_VALUE, Overrides.NONE));
        return e.problems().stream().map(Problem::toString).toList();
    }

    private void assertHas(List<String> problems, int line, String expected) {
        String start = dir.resolve("bad.conf") + ":" + line + ": ";
        assertTrue(
                problems.stream().anyMatch(p -> p.startsWith(start) && p.contains(expected)),
                () -> "expected '" + start + "..." + expected + "' in\n" + String.join("\n", problems));
    }

    private static List<String> hosts(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "h" + i).toList();
    }

    @Test
    void membersMixSelectorsAndNamesInTheOrderWritten() throws Exception {
        Scenario s = load(K4 + """
                jobs = [{ name = a, kind = allreduce, members = ["pod:2", "h1..h2", h16, "rack:edge-3-1"]
                          tree { mode = auto, root = core-1 }, data { elements = 64 } }
                        { name = b, kind = bier-inc, members = "pod:1-2", data { elements = 64 } }]
                """);
        List<String> a = new ArrayList<>(hosts(5, 8));
        a.addAll(List.of("h1", "h2", "h16", "h9", "h10"));
        assertEquals(a, s.jobs().get(0).common().members());
        assertEquals(hosts(1, 8), s.jobs().get(1).common().members());
    }

    @Test
    void aBadSelectorIsAProblemAtItsLine() throws IOException {
        List<String> p = problems(K4 + """
                jobs = [{ name = a, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = ["pod:9"] }
                { name = b, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = ["h1..h4", h3] }
                { name = c, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = ["h4..h1"] }
                { name = d, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = ["rack:agg-1-1"] }
                { name = e, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = ["edge-1-1..edge-1-2"] }
                { name = f, kind = allreduce, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  members = [h1, "rack:h2"] }]
                """);
        assertHas(p, 3, "a job member: selector 'pod:9': pod 9 is not a pod of the topology (pods: [1, 2, 3, 4])");
        assertHas(p, 5, "job member 'h3' is listed twice");
        assertHas(p, 7, "a job member: selector 'h4..h1' is a reversed range (4 > 1)");
        assertHas(p, 9, "a job member: selector 'rack:agg-1-1' selects no host");
        assertHas(p, 11, "a job member: selector 'edge-1-1..edge-1-2': 'edge-1-1' is a switch; hosts are needed here");
        assertHas(p, 13, "a job member: selector 'rack:h2': 'h2' is a host; rack: names a switch");
    }

    @Test
    void receiversSourcesExpertsPartitionsAndMembershipTakeSelectors() throws Exception {
        Scenario s = load(K4 + """
                jobs = [{ name = m, kind = reliable-multicast, source = h1, receivers = ["pod:1", "h16"] }
                  { name = moe, kind = moe, sources = ["rack:edge-1-1"], moe { top-k = 2 }
                    experts = [{ prefix = e, hosts = ["h9..h10", "rack:edge-4-2"] }, h5] }
                  { name = p, kind = allreduce, members = "pod:1-2", partitions = ["pod:1", ["h5..h6", "rack:edge-2-2"]]
                    tree { mode = auto, root = core-1 }, data { elements = 64 } }
                  { name = el, kind = allreduce, members = "pod:1", iterations = 2, membership = [{ at-iteration = 2, join = ["h5..h6"] }]
                    tree { mode = auto, root = core-1 }, data { elements = 64 } }]
                """);
        assertEquals(
                List.of("h2", "h3", "h4", "h16"),
                ((MulticastSpec) s.jobs().get(0)).common().members(),
                "the source is left out");
        MoeSpec moe = (MoeSpec) s.jobs().get(1);
        assertEquals(List.of("h1", "h2"), moe.sources());
        assertEquals(
                List.of(
                        new MoeSpec.Expert("e1", "h9"),
                        new MoeSpec.Expert("e2", "h10"),
                        new MoeSpec.Expert("e3", "h15"),
                        new MoeSpec.Expert("e4", "h16"),
                        new MoeSpec.Expert("h5", "h5")),
                moe.experts());
        AllReduceSpec p = (AllReduceSpec) s.jobs().get(2);
        assertEquals(
                List.of(new Partitions.Partition("p1", hosts(1, 4)), new Partitions.Partition("p2", hosts(5, 8))),
                p.partitions().explicit());
        assertEquals(
                List.of("h5", "h6"),
                ((AllReduceSpec) s.jobs().get(3)).elastic().changes().get(0).join());
    }

    @Test
    void whatAJobExpectsMissingTakesSelectors() throws Exception {
        Scenario s = load(K4 + """
                jobs = [{ name = a, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  baselines = [ring], expect { ina = partial, missing = ["rack:edge-2-1"], ring = { status = partial, missing = ["h5..h6"] } } }]
                faults = [{ kind = silent, node = "rack:edge-2-1" }]
                """);
        var expect = s.jobs().get(0).common().expect();
        assertEquals(Set.of("h5", "h6"), expect.modes().get(Mode.INA).missing());
        assertEquals(Set.of("h5", "h6"), expect.modes().get(Mode.of("ring")).missing());
    }

    @Test
    void aMissingListNamingAHostTwiceIsAnError() throws Exception {
        List<String> p = problems(K4 + """
                jobs = [{ name = a, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data { elements = 64 }
                  expect { ina = partial, missing = ["h5", "rack:edge-2-1"] } }]
                """);
        assertTrue(p.stream().anyMatch(x -> x.contains("h5") && x.contains("twice")), p.toString());
    }

    @Test
    void aStragglerOrSilentFaultOnASelectorIsOneFaultPerHostAndOtherKindsNameOneNode() throws Exception {
        String job =
                "jobs = [{ name = a, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data { elements = 64 } }]\n";
        Scenario s = load(
                K4 + job
                        + "faults = [{ kind = silent, node = \"rack:edge-2-1\" }, { kind = straggler, node = \"h1..h2\", delay = 1us }]\n");
        assertEquals(
                List.of("h5", "h6", "h1", "h2"),
                s.faults().stream().map(FaultSpec::node).toList());
        assertEquals(
                List.of(
                        FaultSpec.Kind.SILENT,
                        FaultSpec.Kind.SILENT,
                        FaultSpec.Kind.STRAGGLER,
                        FaultSpec.Kind.STRAGGLER),
                s.faults().stream().map(FaultSpec::kind).toList());
        List<String> p = problems(K4 + job
                + "faults = [\n{ kind = switch-crash, node = \"pod:1\" }\n{ kind = silent, node = \"pod:0\" }\n]\n");
        assertHas(
                p,
                4,
                "a switch-crash fault names one node; host selectors ('pod:1') are for straggler and silent faults");
        assertHas(p, 5, "a fault's node: selector 'pod:0': pod 0 is not a pod");
    }

    @Test
    void theK8MoeFileSelectsTheExpertsItOnceListedByHand() throws Exception {
        Scenario s = ScenarioLoader.load(
                Path.of("..", "topology-configs", "fat-tree-k8-moe.conf"), Long.MAX_VALUE, Overrides.NONE);
        List<MoeSpec.Expert> byHand = new ArrayList<>();
        // 8 experts per pod, on the second half of each pod's 16 hosts
        for (int pod = 0; pod < 8; pod++) {
            for (int i = 0; i < 8; i++) {
                byHand.add(new MoeSpec.Expert("e" + (pod * 8 + i + 1), "h" + (pod * 16 + 9 + i)));
            }
        }
        List<String> sources =
                IntStream.range(0, 8).mapToObj(pod -> "h" + (pod * 16 + 1)).toList();
        for (var j : s.jobs()) {
            assertEquals(byHand, ((MoeSpec) j).experts(), j.name());
            assertEquals(sources, ((MoeSpec) j).sources(), j.name());
        }
    }
}
