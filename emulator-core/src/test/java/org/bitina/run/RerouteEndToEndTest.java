package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bitina.topology.TopologyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A link of the aggregation tree fails mid-run: routing and BIFTs are recomputed, no bitmap changes (F7). */
class RerouteEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void allReduceSurvivesALinkFailureOnItsTree() throws Exception {
        Path conf = dir.resolve("reroute.conf");
        Files.writeString(conf, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{
                  name = rr, kind = allreduce, members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 32768, type = int32, op = sum, chunk = 256, window = 2, seed = 9 }
                  completion-timeout = 20ms
                }]
                faults = [ { at = 3ms, kind = link-down, link = [agg-1-1, core-1] } ]
                """);
        Report r = ScenarioRunner.run(TopologyLoader.load(conf), ScenarioRunner.Options.defaults(), new RunProgress());
        Report.JobReport ina = r.jobs().get(0);
        // what was on the link when it went down is lost: those chunks end partial, naming pod 1's workers; all else completes
        assertTrue(ina.verified(), ina.mismatches() + " " + ina.unfinished());
        assertTrue(ina.unfinished().isEmpty());
        assertTrue(ina.partialChunks().size() < 16 * 128, "most chunks complete over the new route: " + ina.partialChunks().size());
        assertTrue(java.util.List.of("h1", "h2", "h3", "h4").containsAll(ina.missing()), ina.missing().toString());
        assertTrue(r.links().stream().anyMatch(l -> l.from().equals("agg-1-1") && l.to().startsWith("core-") && !l.to().equals("core-1")
                && l.packets() > 0), "pod 1's traffic took another core link");
        assertEquals("rr", ina.name());
    }
}
