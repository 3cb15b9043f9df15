package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bitina.topology.TopologyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A BIER-INC AllReduce (seed 001) end to end: one data-driven tree per member, verified. */
class BierIncEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void bierIncAllReduceVerifiesBesideTheRing() throws Exception {
        Path conf = dir.resolve("inc.conf");
        Files.writeString(conf, """
                topology { generator { kind = paper-fig1 } }
                jobs = [{
                  name = inc, kind = bier-inc, members = [w1, w2, w3, w4, w5]
                  data { elements = 2560, type = int32, op = sum, chunk = 256, window = 4, seed = 6 }
                  completion-timeout = 200ms
                  baselines = [ring]
                }]
                """);
        Report r = ScenarioRunner.run(TopologyLoader.load(conf), ScenarioRunner.Options.defaults(), new RunProgress());
        Report.JobReport inc = r.jobs().get(0);
        assertEquals("bier-inc", inc.kind());
        assertEquals("complete", inc.status(), inc.mismatches() + " " + inc.unfinished() + inc.missing());
        assertTrue(inc.verified());
        assertEquals("complete", r.jobs().get(1).status());
    }

    @Test
    void onAFatTreeEveryBranchOfEveryTreeReducesWithoutTimeoutsOrLatePackets() throws Exception {
        // with ECMP one node gets a BFIR's packet in several copies, from one upstream or several;
        // each copy's bits are a branch of their own, reduced and sent back on their own path
        Path conf = dir.resolve("ft.conf");
        Files.writeString(conf, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{
                  name = inc, kind = bier-inc, members = all
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 4, seed = 4 }
                  completion-timeout = 2s
                }]
                """);
        Report.JobReport inc = ScenarioRunner.run(TopologyLoader.load(conf), ScenarioRunner.Options.defaults(), new RunProgress())
                .jobs().get(0);
        assertEquals("complete", inc.status(), inc.mismatches() + " " + inc.missing());
        assertTrue(inc.verified());
        assertEquals(0, inc.timeouts(), "every reduction completed by bitstring match");
        assertEquals(0, inc.lateContributions());
        assertEquals(0, inc.drops());
    }
}
