package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.Problem;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 end to end on the actors (seed 000 section 7): a k=4 fat-tree job over pod partitions beside
 * the same job as one tree, a silent worker, the report's trees, and what a file may not ask.
 */
class PartitionsRunTest {
    @TempDir
    Path dir;

    private static String job(String name, String partitions) {
        return """
                { name = %s, kind = allreduce, tenant = 1, members = all
                  %s
                  tree { mode = auto, root = core-1 }
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 8, seed = 3 }
                  completion-timeout = 1ms }
                """.formatted(name, partitions);
    }

    @Test
    void podPartitionsEndLikeOneTreeWithTheSilentWorkerNamedInItsPodAndShorterHeaders() throws Exception {
        Report r = Scenarios.run(
                dir,
                "pods.conf",
                Scenarios.fatTree(
                        4,
                        "jobs = [" + job("one", "") + ", " + job("pods", "partitions = by-pod")
                                + "]\nfaults = [{ at = 0ms, kind = silent, node = h6 }, { at = 0ms, kind = straggler, node = h3, delay = 5ms, chunks = [2, 3] }]"));
        Report.JobReport one = r.jobs().get(0);
        Report.JobReport pods = r.jobs().get(1);
        for (Report.JobReport j : r.jobs()) {
            assertTrue(j.outcome().asExpected() && j.outcome().verified(), j.toString());
            assertEquals(Status.PARTIAL, j.outcome().status(), j.name());
            // h3's chunks 2 and 3 came after every timer: folded in late at the root (across the second stage for the
            // pods)
            assertEquals(List.of("h6"), j.outcome().missing(), j.name());
            assertTrue(
                    j.counts().lateContributions() >= 2,
                    j.name() + ": " + j.counts().lateContributions());
            assertEquals(
                    16, j.problems().partialChunks().size() / 15, j.name() + ": every chunk of the 15 that answer");
        }
        assertNull(one.plan().trees(), "one tree: no trees part");
        List<Report.TreeReport> trees = pods.plan().trees();
        assertEquals(
                List.of("second-stage", "pod-1", "pod-2", "pod-3", "pod-4"),
                trees.stream().map(Report.TreeReport::tree).toList());
        Report.TreeReport stage = trees.get(0);
        assertEquals("core-1", stage.root());
        assertEquals(4, stage.bits());
        assertEquals(List.of("agg-1-1", "agg-2-1", "agg-3-1", "agg-4-1"), stage.members());
        assertEquals(
                4L * 16 + 2,
                stage.packetsIntoRoot(),
                "one stage contribution per pod and chunk, and h3's two late ones");
        assertEquals(
                4L * (16 + 2),
                stage.bridged(),
                "each pod root sent each chunk's result down, and the two better ones again");
        Report.TreeReport pod2 = trees.get(2);
        assertEquals("agg-2-1", pod2.root());
        assertEquals(List.of("h5", "h6", "h7", "h8"), pod2.members());
        assertEquals(List.of("h6"), pod2.missing());
        assertTrue(
                pod2.timeouts() >= 16L,
                "pod 2's tree waited out a timer for every chunk (h6 is silent): " + pod2.timeouts());
        assertEquals(16L, pod2.bridged());
        assertEquals(List.of(), trees.get(1).missing());
        assertEquals(
                16L + 2,
                trees.get(1).bridged(),
                "pod 1 sent each chunk up, and h3's two late contributions after them");
        // the same packets into the same root, and fewer header bytes: 4-bit pod spaces instead of the job's 16 bits
        assertEquals(one.traffic().packetsIntoRoot(), pods.traffic().packetsIntoRoot());
        assertTrue(
                pods.traffic().headerBytes() < one.traffic().headerBytes(),
                one.traffic().headerBytes() + " vs " + pods.traffic().headerBytes());
        assertTrue(
                pods.outcome().note().startsWith("second stage at core-1 over 4 partitions"),
                pods.outcome().note());
    }

    private List<String> problems(String jobs, String faults) throws Exception {
        ScenarioException e = assertThrows(
                ScenarioException.class,
                () -> Scenarios.write(
                        dir, "bad.conf", Scenarios.fatTree(4, "jobs = [" + jobs + "]\nfaults = [" + faults + "]")));
        return e.problems().stream().map(Problem::toString).toList();
    }

    private void assertHas(List<String> problems, int line, String message) {
        String expected = dir.resolve("bad.conf") + ":" + line + ": " + message;
        assertTrue(
                problems.stream().anyMatch(p -> p.startsWith(expected)),
                () -> "expected '" + expected + "' in\n" + String.join("\n", problems));
    }

    @Test
    void badPartitionsAreNamedAtTheirLines() throws Exception {
        // line 1 is the topology; job n (from 0) starts on line 2 + 5n, its partitions key on the line after
        List<String> p = problems(
                String.join(
                        ", ",
                        job("a", "partitions = by-rack"),
                        job("b", "partitions = [[h1, h2, h99], [h3, h3]]"),
                        job("c", "partitions = [[h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15]]"),
                        job("d", "partitions = [[h1], []]")),
                "");
        assertHas(p, 3, "partitions must be by-pod or a list of member lists, got 'by-rack'");
        assertHas(p, 8, "'h99' in partition p1 is not a member of the job");
        assertHas(p, 8, "'h3' is listed twice in partition p2");
        assertHas(p, 13, "partitions needs at least two partitions, got 1");
        assertHas(p, 18, "partition p2 must be a non-empty list of members");
    }

    @Test
    void partitionsNeedAnAutomaticTreeUnderASwitchAndNoSwitchCrash() throws Exception {
        List<String> p = problems(
                job("a", "partitions = [[h1, h2], [h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15]]"),
                "{ at = 1ms, kind = switch-crash, node = agg-1-1 }");
        assertHas(p, 3, "members in no partition: [h16]");
        List<String> crash =
                problems(job("a", "partitions = by-pod"), "{ at = 1ms, kind = switch-crash, node = agg-1-1 }");
        assertTrue(
                crash.stream()
                        .anyMatch(x -> x.contains(
                                "switch-crash of agg-1-1 with job 'a' over partitions: VAT repair over partition "
                                        + "trees is not built")),
                String.join("\n", crash));
        List<String> host = problems(
                job("a", "partitions = by-pod")
                        .replace("root = core-1", "root = h16")
                        .replace("members = all", "members = [h1, h2, h3, h4, h5, h6, h7, h8]"),
                "");
        assertTrue(
                host.stream()
                        .anyMatch(x -> x.contains(
                                "with partitions, tree.root is the second stage's root and must be a switch, not "
                                        + "host 'h16'")),
                String.join("\n", host));
    }
}
