package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A workload's console keeps to its answer (issue 42 item 8: workload-moe.conf printed 311 lines,
 * a 112-row job table, its shared table and a line per job's source uplink): per world and
 * iteration the iteration time, compute and exposed communication, and the job rows only with
 * {@code --verbose}.
 */
class WorkloadConsoleTest {
    private static final String FILE =
            Path.of("..", "topology-configs", "workload-dense.conf").toString();

    @Test
    void theJobTableIsBehindVerbose() {
        CliTest.Result r = CliTest.cli("run", FILE);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("iteration 1 ina: "), r.out());
        assertTrue(r.out().contains("iteration 2 baseline: "), r.out());
        assertTrue(
                r.out().matches("(?s).*\\n\\d+ job rows \\(each collective .*, every one as expected: --verbose.*"),
                r.out());
        assertFalse(r.out().lines().anyMatch(l -> l.startsWith("job ")), r.out());
        assertTrue(r.out().lines().count() < 25, r.out().lines().count() + " lines:\n" + r.out());

        CliTest.Result v = CliTest.cli("run", "--verbose", FILE);
        assertEquals(0, v.code(), v.err());
        assertTrue(v.out().lines().anyMatch(l -> l.startsWith("job ")), v.out());
        assertFalse(v.out().contains("--verbose prints them"), v.out());
    }
}
