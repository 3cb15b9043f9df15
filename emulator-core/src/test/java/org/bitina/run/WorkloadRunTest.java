package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads on the fabric (W1, W3; docs/workloads.md "Running a workload"): the shipped files run
 * every collective as a verified job in each world, and the iterations the scheduler reports agree
 * with the rows' own modelled starts and ends and with the ranks' timelines.
 */
class WorkloadRunTest {
    @TempDir
    Path dir;

    /**
     * What every workload report must hold, recomputed here from its parts: each collective's row
     * is complete and verified, and on every rank of its group its span starts and ends where the
     * row does; each iteration's time, compute and exposed communication are those of the ranks'
     * timelines; the speedup is baseline over ina. Returns the ina speedup of the last iteration.
     */
    static double consistent(Report r, int iterations) {
        assertFalse(r.jobs().isEmpty());
        Map<String, Integer> spansPerJob = new HashMap<>();
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
            assertNotNull(j.shared(), "a workload's collectives share the fabric");
            for (RankTimeline t : r.rankTimelines()) {
                if (!t.world().equals(j.shared().world())) {
                    continue;
                }
                for (RankTimeline.Span s : t.spans()) {
                    if (j.name().equals(s.job())) {
                        assertEquals(j.shared().startMicros(), s.startMicros(), 1e-9, j.name());
                        assertEquals(j.shared().endMicros(), s.endMicros(), 1e-9, j.name());
                        spansPerJob.merge(j.shared().world() + "/" + j.name(), 1, Integer::sum);
                    }
                }
            }
        }
        for (Report.JobReport j : r.jobs()) {
            assertTrue(
                    spansPerJob.getOrDefault(j.shared().world() + "/" + j.name(), 0) >= 2,
                    j.name() + " is on the timelines of at least two ranks");
        }
        Double speedup = null;
        for (String world : List.of("ina", "baseline")) {
            List<IterationReport> its = r.iterations().stream()
                    .filter(i -> i.world().configName().equals(world))
                    .toList();
            assertEquals(iterations, its.size(), world);
            List<RankTimeline> ranks = r.rankTimelines().stream()
                    .filter(t -> t.world().configName().equals(world))
                    .toList();
            double[] before = new double[ranks.size()];
            double lastEnd = 0;
            for (IterationReport it : its) {
                double end = 0;
                double compute = 0;
                double exposed = 0;
                for (int k = 0; k < ranks.size(); k++) {
                    double rankEnd = before[k];
                    double busy = 0;
                    for (RankTimeline.Span s : ranks.get(k).spans()) {
                        if (s.iteration() == it.index()) {
                            rankEnd = Math.max(rankEnd, s.endMicros());
                            busy += s.type().equals("COMPUTE") ? s.endMicros() - s.startMicros() : 0;
                        }
                    }
                    end = Math.max(end, rankEnd);
                    compute = Math.max(compute, busy);
                    exposed = Math.max(exposed, rankEnd - before[k] - busy);
                    before[k] = rankEnd;
                }
                assertEquals(end - lastEnd, it.iterationMicros(), 1e-6, world + " iteration " + it.index());
                assertEquals(compute, it.computeMicros(), 1e-6);
                assertEquals(exposed, it.exposedCommMicros(), 1e-6);
                double exposedByType = it.collectives().values().stream()
                        .mapToDouble(IterationReport.Collectives::exposedMicros)
                        .sum();
                assertEquals(it.exposedCommMicros(), exposedByType, 1e-6, "the exposed time, split by type");
                lastEnd = end;
            }
        }
        for (IterationReport ina : r.iterations()) {
            if (ina.world() == Schedule.World.INA) {
                IterationReport base = r.iterations().stream()
                        .filter(b -> b.world() == Schedule.World.BASELINE && b.index() == ina.index())
                        .findFirst()
                        .orElseThrow();
                double expected = new BigDecimal(base.iterationMicros() / ina.iterationMicros())
                        .round(new MathContext(3))
                        .doubleValue();
                assertEquals(expected, ina.speedup(), 1e-12);
                speedup = ina.speedup();
            }
        }
        assertNotNull(speedup);
        return speedup;
    }

    @Test
    void theDenseWorkloadRunsEveryAllReduceVerifiedAndItsIterationsAgreeWithTheRows() throws ScenarioException {
        Report r = run(reference("workload-dense.conf"));
        double speedup = consistent(r, 2);
        // 2 MiB of gradients in 512 KiB buckets: 4 AllReduces per iteration, 2 iterations, 2 worlds
        assertEquals(16, r.jobs().size());
        assertTrue(r.jobs().stream().allMatch(j -> j.kind().equals("allreduce")));
        // the in-network AllReduce moves each gradient byte up and down once, the ring twice: measured faster
        assertTrue(speedup > 1, "ina against ring rings: " + speedup);
    }

    /**
     * Issue 45 item 3 for workloads: a spine crash and a link down hit the fabric every collective of
     * the iteration runs on; the collectives whose tree the crash touched rebuild it, every row
     * verifies, and the iteration takes at least as long as on the healthy fabric.
     */
    @Test
    void theDenseWorkloadUnderASpineCrashAndALinkDownVerifiesEveryCollective() throws Exception {
        Report healthy = run(reference("workload-dense.conf"));
        Report r = run(reference(
                dir,
                "workload-dense.conf",
                f -> f + "faults = [{ at = 20us, kind = switch-crash, node = core-1 },"
                        + " { at = 40us, kind = link-down, link = [edge-1-1, agg-1-1] }]\n"));
        consistent(r, 2);
        for (Report.JobReport j : r.jobs()) {
            assertEquals(2, j.timing().faults().size(), j.name() + " meets both faults");
        }
        assertTrue(
                r.jobs().stream()
                        .anyMatch(j -> j.outcome().note().contains("VAT rebuilt at 20.0 us after core-1 crashed")),
                "a collective whose tree had core-1 rebuilds it");
        for (IterationReport it : r.iterations()) {
            IterationReport before = healthy.iterations().stream()
                    .filter(h -> h.world() == it.world() && h.index() == it.index())
                    .findFirst()
                    .orElseThrow();
            assertTrue(it.iterationMicros() >= before.iterationMicros(), it + " against " + before);
        }
    }

    /**
     * Issue 45 item 4 for workloads: {@code workload.model.moe.routing { zipf = S }} routes every
     * all-to-all's tokens by the law (e1, the group's first rank's expert, the hottest), each one
     * verified; a trace is refused, a model's tokens being made up.
     */
    @Test
    void theMoeWorkloadsAllToAllsRouteByZipfWhenTheModelSaysSo() throws Exception {
        Report r = run(reference(
                dir, "workload-moe.conf", f -> f.replace("every = 2 }", "every = 2, routing { zipf = 1.2 } }")));
        consistent(r, 2);
        List<Report.JobReport> moe =
                r.jobs().stream().filter(j -> j.kind().equals("moe")).toList();
        assertFalse(moe.isEmpty());
        for (Report.JobReport j : moe) {
            org.bitina.usecase.moe.MoeReport k = (org.bitina.usecase.moe.MoeReport) j.kindReport();
            assertEquals("zipf(s = 1.2)", k.routing(), j.name());
            assertEquals("e1", k.busiestExpert(), j.name() + ": " + j.stats());
        }
        ScenarioException trace = assertThrows(
                ScenarioException.class,
                () -> reference(
                        dir,
                        "workload-moe.conf",
                        f -> f.replace("every = 2 }", "every = 2, routing { trace = routes.csv } }")));
        assertTrue(trace.getMessage().contains("a trace is for a moe job's own tokens"), trace.getMessage());
    }

    @Test
    void theMoeWorkloadRunsItsAllToAllsAndAllReducesVerifiedTheSameTwice() throws ScenarioException {
        Report r = run(reference("workload-moe.conf"));
        consistent(r, 2);
        assertTrue(r.jobs().stream().anyMatch(j -> j.kind().equals("moe")));
        assertTrue(r.jobs().stream().anyMatch(j -> j.kind().equals("allreduce")));
        assertTrue(r.iterations().get(0).collectives().containsKey("ALL_TO_ALL"));
        assertSameRun(r, run(reference("workload-moe.conf")), "the MoE workload twice");
    }

    @Test
    void tensorParallelismAllReducesActivationsOverNeighbouringHostsAndGradientsOverTheRest()
            throws IOException, ScenarioException {
        // k=4: 16 ranks, tp = 2 innermost (ranks 2d and 2d+1 on neighbouring hosts), dp = 8
        Report r = run(write(dir, "tp.conf", fatTree(4, """
                workload {
                  model { layers = 2, hidden = 64, ffn = 256, vocab = 512, seq = 128, micro-batch = 1, dtype = bf16 }
                  parallel { dp = 8, tp = 2 }
                  gpu { tflops = 10 }
                  iterations = 1
                  bucket = 64KiB
                }
                """)));
        consistent(r, 1);
        long t = 128; // tokens per micro-batch
        long h = 64;
        long f = 256;
        long v = 512;
        int layers = 2;
        // per block two activation AllReduces forward and two backward, of T h bf16 elements, in each of 8 TP groups
        int tpPerGroup = 4 * layers;
        long tpBytes = 2 * t * h;
        // each rank holds half of every matrix: embedding, head, attention and MLP of each block, in bf16
        long gradients = 2 * (2 * v * h + layers * (4 * h * h + 3 * h * f)) / 2;
        long buckets = (gradients + (64 << 10) - 1) / (64 << 10);
        assertEquals(3, buckets, "196608 bytes of gradients in 64 KiB buckets");
        for (String world : List.of("ina", "baseline")) {
            List<Report.JobReport> rows = r.jobs().stream()
                    .filter(j -> j.shared().world().configName().equals(world))
                    .toList();
            assertEquals(8 * tpPerGroup + 2 * buckets, rows.size(), world);
            assertEquals(
                    8 * tpPerGroup,
                    rows.stream().filter(j -> j.plan().endpoints() == 2).count(),
                    "TP over pairs");
            assertEquals(
                    2 * buckets,
                    rows.stream().filter(j -> j.plan().endpoints() == 8).count(),
                    "DP over the rest");
            IterationReport it = r.iterations().stream()
                    .filter(i -> i.world().configName().equals(world))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    8 * tpPerGroup * tpBytes + 2 * gradients,
                    it.collectives().get("ALL_REDUCE").bytes());
            for (RankTimeline rank : r.rankTimelines()) {
                if (!rank.world().configName().equals(world)) {
                    continue;
                }
                List<RankTimeline.Span> ar = rank.spans().stream()
                        .filter(s -> s.type().equals("ALL_REDUCE"))
                        .toList();
                int d = rank.rank() / 2;
                assertEquals(
                        tpPerGroup,
                        ar.stream().filter(s -> s.step().endsWith(" tp" + d)).count(),
                        s(rank));
                assertEquals(
                        buckets,
                        ar.stream()
                                .filter(s -> s.step().endsWith(" dp" + rank.rank() % 2))
                                .count(),
                        s(rank));
            }
        }
    }

    private static String s(RankTimeline t) {
        return t.world() + " rank " + t.rank() + ": " + t.spans();
    }

    @Test
    void aWorkloadBesideJobsOrUnderTheRealClockIsRefused() {
        String workload = """
                workload {
                  model { layers = 1, hidden = 64, ffn = 128, vocab = 256, seq = 64 }
                  parallel { dp = 4 }
                  gpu { tflops = 10 }
                }
                """;
        ScenarioException both =
                assertThrows(ScenarioException.class, () -> write(dir, "both.conf", fatTree(4, workload + """
                        jobs = [{ name = a, kind = allreduce, members = [h1, h2], tree { mode = auto, root = core-1 },
                                  data { elements = 64 } }]
                        """)));
        assertTrue(both.getMessage().contains("lists no jobs"), both.getMessage());
        ScenarioException real = assertThrows(
                ScenarioException.class, () -> write(dir, "real.conf", fatTree(4, workload + "clock = real\n")));
        assertTrue(real.getMessage().contains("clock = virtual"), real.getMessage());
    }

    @Test
    void aSmallWorkloadWithoutOverlapExposesMoreCommunicationThanWithIt() throws IOException, ScenarioException {
        String base = """
                workload {
                  model { layers = 1, hidden = 64, ffn = 256, vocab = 512, seq = 128 }
                  parallel { dp = 4 }
                  gpu { tflops = 10 }
                  bucket = 32KiB
                  overlap = %s
                }
                worlds = [ina]
                """;
        Report on = run(write(dir, "on.conf", fatTree(4, base.formatted("true"))));
        Report off = run(write(dir, "off.conf", fatTree(4, base.formatted("false"))));
        IterationReport a = on.iterations().get(0);
        IterationReport b = off.iterations().get(0);
        assertEquals(a.computeMicros(), b.computeMicros(), 1e-9, "the same compute either way");
        assertTrue(b.exposedCommMicros() > a.exposedCommMicros(), a + " " + b);
        assertTrue(b.iterationMicros() > a.iterationMicros());
        on.jobs().forEach(j -> assertTrue(j.outcome().verified(), j.name()));
        off.jobs().forEach(j -> assertTrue(j.outcome().verified(), j.name()));
    }
}
