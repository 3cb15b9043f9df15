package org.bitina.run;

import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every reduction over both element types, in INA and both baselines, verified end to end (A3). */
class ReductionMatrixTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "float32, sum",
        "float32, product",
        "float32, max",
        "float32, min",
        "int32, sum",
        "int32, product",
        "int32, max",
        "int32, min"
    })
    void everyOpAndTypeVerifies(String type, String op) throws IOException, ScenarioException {
        Report r = run(dir, "m.conf", """
                topology { generator { kind = paper-fig1 } }
                jobs = [{
                  name = m, kind = allreduce, members = [w1, w2, w3, w4, w5, w6]
                  tree { mode = auto, root = s7 }
                  data { elements = 700, type = %s, op = %s, chunk = 100, window = 3, seed = 3 }
                  baselines = [ring, ps]
                }]
                """.formatted(type, op));
        assertEquals(3, r.jobs().size());
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().mismatches() + j.problems().unfinished());
            assertTrue(j.outcome().verified(), j.mode().name());
        }
    }
}
