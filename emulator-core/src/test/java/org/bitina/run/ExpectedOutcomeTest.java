package org.bitina.run;

import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's own {@code expect}: a mode matches only with the status it names and exactly
 * the endpoints it names missing; the summary's {@code expected} column shows it.
 */
class ExpectedOutcomeTest {
    @TempDir
    Path dir;

    /** Four hosts on one switch; h3 silent; an AllReduce with a ring baseline and this expect. */
    private Report runWith(String expect) throws Exception {
        return run(dir, "e.conf", Scenarios.STAR4 + """
                jobs = [{
                  name = e, kind = allreduce, members = [h1, h2, h3, h4]
                  tree { mode = auto, root = s1 }
                  data { elements = 4096, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 20us
                  baselines = [ring]
                  %s
                }]
                faults = [ { at = 0us, kind = silent, node = h3 } ]
                """.formatted(expect));
    }

    @Test
    void theRightStatusAndExactlyTheRightMissingEndpointMatch() throws Exception {
        // a ring with a silent member cannot finish at all: failed, every member unfinished
        Report r = runWith(
                "expect { ina = partial, ring = { status = failed, missing = [h1, h2, h3, h4] }, missing = [h3] }");
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.PARTIAL, ina.outcome().status());
        assertTrue(ina.outcome().asExpected(), ina.toString());
        assertEquals("partial", ina.outcome().expected());
        Report.JobReport ring = mode(r, "ring");
        assertEquals(Status.FAILED, ring.outcome().status());
        assertTrue(ring.outcome().asExpected(), ring.toString());
        assertTrue(r.allAsExpected());
    }

    @Test
    void anotherMissingEndpointOrAnotherStatusDoesNotMatch() throws Exception {
        Report wrongName = runWith("expect { ina = partial, missing = [h2] }");
        assertEquals(Status.PARTIAL, mode(wrongName, "ina").outcome().status());
        assertFalse(mode(wrongName, "ina").outcome().asExpected(), "h3 is missing, not h2");
        Report tooMany = runWith("expect { ina = partial, missing = [h2, h3] }");
        assertFalse(mode(tooMany, "ina").outcome().asExpected(), "exactly h3, not a superset");
        Report wrongStatus = runWith("expect { ina = { status = failed, missing = [h3] } }");
        assertFalse(mode(wrongStatus, "ina").outcome().asExpected(), "partial is not failed");
        assertFalse(wrongStatus.allAsExpected());
    }
}
