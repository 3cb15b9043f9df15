package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.mode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.usecase.moe.ExpertRouting;
import org.bitina.usecase.moe.ExpertRoutingTest;
import org.bitina.usecase.moe.MoeReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 4: {@code moe { routing { zipf = S } }} and {@code routing { trace = FILE }} end to
 * end: the experts take the tokens the law or the trace gives them (the row's
 * {@code expertTokens.NAME}), capacity drops the hot experts' surplus, and the combine verifies.
 */
class MoeRoutingRunTest {
    @TempDir
    Path dir;

    private static final int TOKENS = 512;

    private static String moe(String routing, String capacity) {
        return fatTree(4, """
                jobs = [{
                  name = m, kind = moe, tenant = 1
                  sources = [h1, h2, h3, h4]
                  experts = [{ prefix = e, hosts = ["h9..h16"] }]
                  moe { top-k = 2, hidden = 64, tokens-per-source = %d, capacity-factor = %s, seed = 5, %s }
                  baselines = [all-to-all]
                }]
                """.formatted(TOKENS, capacity, routing));
    }

    private static long[] taken(Report.JobReport j, String what) {
        long[] c = new long[8];
        for (int e = 0; e < 8; e++) {
            c[e] = j.stats().getOrDefault(what + ".e" + (e + 1), -1L);
        }
        return c;
    }

    private static void assertVerified(Report r) {
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().mismatches());
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(), j.mode().name());
        }
    }

    @Test
    void zipfRoutingLoadsTheExpertsByTheLawAndTheCombineVerifies() throws Exception {
        // capacity 8: every expert could take every token, so nothing is dropped and the counts are the draws
        Report r = Scenarios.run(dir, "zipf.conf", moe("routing { zipf = 1.2 }", "8.0"));
        assertVerified(r);
        for (String m : List.of("ina", "all-to-all")) {
            long[] c = taken(mode(r, m), "expertTokens");
            double x2 = ExpertRoutingTest.chiSquare(c, new ExpertRouting.Zipf(1.2, 5).popularity(8), 2, 4L * TOKENS);
            assertTrue(x2 < ExpertRoutingTest.CHI2_7_999, m + ": chi-square " + x2 + " " + Arrays.toString(c));
            MoeReport k = (MoeReport) mode(r, m).kindReport();
            assertEquals("e1", k.busiestExpert());
            assertEquals(c[0], k.busiestTokens());
            assertEquals(2L * 4 * TOKENS, k.expertTokens(), "every pair taken");
            assertEquals(0, k.droppedPairs());
        }
        // the uniform router's counts on the same jobs are far from the law
        Report u = Scenarios.run(dir, "uniform.conf", moe("routing = uniform", "8.0"));
        double x2 = ExpertRoutingTest.chiSquare(
                taken(mode(u, "ina"), "expertTokens"), new ExpertRouting.Zipf(1.2, 5).popularity(8), 2, 4L * TOKENS);
        assertTrue(x2 > ExpertRoutingTest.CHI2_7_999, "uniform is not Zipf: " + x2);
    }

    @Test
    void underZipfCapacityDropsTheHotExpertsSurplusAndSaysSo() throws Exception {
        Report r = Scenarios.run(dir, "tight.conf", moe("routing { zipf = 1.2 }", "1.0"));
        assertVerified(r);
        Report.JobReport ina = mode(r, "ina");
        long[] taken = taken(ina, "expertTokens");
        long[] dropped = taken(ina, "expertDropped");
        // capacity per expert and source: ceil(1.0 * 512 * 2 / 8) = 128, so at most 512 over the 4 sources
        for (int e = 0; e < 8; e++) {
            assertTrue(taken[e] <= 4 * 128, "e" + (e + 1) + " over capacity: " + taken[e]);
        }
        assertEquals(4 * 128, taken[0], "the hottest expert is full at every source");
        assertTrue(dropped[0] > 0 && dropped[7] == 0, "drops at the hot end only: " + Arrays.toString(dropped));
        MoeReport k = (MoeReport) ina.kindReport();
        assertEquals(Arrays.stream(dropped).sum(), k.droppedPairs());
        assertEquals(2L * 4 * TOKENS, k.expertTokens() + k.droppedPairs(), "every pair taken or dropped");
    }

    @Test
    void aTraceRoutesEachTokenAsItSaysAndABadOneIsRefusedByLine() throws Exception {
        List<String> lines = new ArrayList<>(List.of("# source,token,experts"));
        long[] want = new long[8];
        for (int s = 1; s <= 4; s++) {
            for (int t = 0; t < TOKENS; t++) {
                // a skew no router makes: e8 in every token, the other expert by token
                int other = 1 + (t * 7 + s) % 7;
                lines.add("h" + s + "," + t + ",e8 e" + other);
                want[7]++;
                want[other - 1]++;
            }
        }
        Files.write(dir.resolve("routes.csv"), lines);
        Report r = Scenarios.run(dir, "trace.conf", moe("routing { trace = routes.csv }", "8.0"));
        assertVerified(r);
        assertEquals(Arrays.toString(want), Arrays.toString(taken(mode(r, "ina"), "expertTokens")));
        assertTrue(((MoeReport) mode(r, "ina").kindReport()).routing().equals("trace routes.csv"));

        lines.set(3, "h1,2,e8 e9");
        lines.set(5, "h1,4,e8");
        lines.remove(7);
        Files.write(dir.resolve("routes.csv"), lines);
        Files.writeString(dir.resolve("bad.conf"), moe("routing { trace = routes.csv }", "8.0"));
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(dir.resolve("bad.conf")));
        String all = e.getMessage() + " " + e.problems();
        assertTrue(all.contains("routes.csv:4: unknown expert 'e9'"), all);
        assertTrue(all.contains("routes.csv:6: token 4 of source h1 names 1 experts; top-k is 2"), all);
        assertTrue(all.contains("routes.csv: no line for token 6 of source h1"), all);
    }
}
