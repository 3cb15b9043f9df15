package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The alone rows of a shared run carry their own counters: field by field what the same job
 * reports run alone under {@code schedule = sequential} (issue 42 item 2: they held the mix's
 * counters plus their own, as the devices counted a job's frames under one key across phases).
 */
class AloneRowsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"shared-fabric.conf", "two-tenants.conf"})
    void aloneRowsEqualTheJobRunSequentially(String file) throws Exception {
        // two-tenants.conf runs no alone rows of its own
        Report shared = Scenarios.run(Scenarios.reference(dir, file, t -> t.replace("alone = false", "alone = true")));
        // the same jobs one after the other: the shared schedule's keys and the worlds' background traffic taken out
        Report sequential = Scenarios.run(Scenarios.reference(
                dir,
                file,
                t -> t.replaceAll("(?m)^(schedule|worlds|alone|traffic) = .*$", "")
                        .replaceAll("(?m)^\\s*start = \\S+$", "")));
        List<Report.JobReport> alone = shared.jobs().stream()
                .filter(j -> j.shared() != null && j.shared().alone())
                .toList();
        assertFalse(alone.isEmpty(), file + " has no alone rows");
        for (Report.JobReport a : alone) {
            Report.JobReport q = sequential.jobs().stream()
                    .filter(j -> j.name().equals(a.name()) && j.mode().equals(a.mode()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no sequential row for " + a.name() + " " + a.mode() + " in "
                            + sequential.jobs().stream()
                                    .map(j -> j.name() + " " + j.mode())
                                    .toList()));
            assertEquals(
                    counted(q),
                    counted(a),
                    file + ": " + a.name() + " " + a.mode().name() + " alone");
        }
    }

    /** A row without what only one schedule has: wall time, the shared run's fields, speed-ups, pools. */
    private static ObjectNode counted(Report.JobReport j) {
        ObjectNode row = JSON.valueToTree(j);
        for (String f : List.of(
                "wallMillis",
                "speedup",
                "pool",
                "world",
                "alone",
                "startMicros",
                "endMicros",
                "jctMicros",
                "slowdown",
                "startNanos",
                "endNanos")) {
            row.remove(f);
        }
        return row;
    }
}
