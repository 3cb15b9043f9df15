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
}
