package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's endpoint-set encoding is what its packets carry on every link (H2), and what the header bytes count (H3). */
class EncodingEndToEndTest {
    @TempDir
    Path dir;

    private Report.JobReport run(String encoding) throws IOException, ScenarioException {
        return Scenarios.run(dir, "enc.conf", fatTree(4, """
                jobs = [{
                  name = e, kind = allreduce, members = all, encoding = %s
                  tree { mode = auto, root = core-1 }
                  data { elements = 1024, type = int32, op = sum, chunk = 256, window = 4, seed = 1 }
                }]
                """.formatted(encoding)))
                .jobs()
                .get(0);
    }

    @Test
    void everyEncodingVerifiesAndCostsWhatItShould() throws Exception {
        Map<String, Report.JobReport> byEncoding = new LinkedHashMap<>();
        for (String e : new String[] {"flat", "node-list", "{ kind = hierarchical, block = 4 }"}) {
            Report.JobReport j = run(e);
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    e + " " + j.problems().mismatches());
            assertTrue(j.outcome().verified(), e);
            assertTrue(j.outcome().note().contains("endpoint sets"), j.outcome().note());
            byEncoding.put(e, j);
        }
        long flat = byEncoding.get("flat").traffic().headerBytes();
        long list = byEncoding.get("node-list").traffic().headerBytes();
        long packets = byEncoding.get("flat").traffic().packets();
        assertEquals(
                packets,
                byEncoding.get("node-list").traffic().packets(),
                "the same packets, only their endpoint sets differ");
        // 16 endpoints: a flat bitmap is 2 bytes on every packet; a node list of 4-bit ids is
        // 1 byte for one or two members and 8 bytes for the full set the results carry
        assertTrue(list != flat, "header bytes depend on the encoding: flat " + flat + ", node list " + list);
    }
}
