package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A mix row's drops are its own job's (issue 42 item 11): the links of a mix are the world's, and
     * each row held the world's link losses (the other jobs' and the background traffic's as well).
     * In the baseline world no switch drops a frame, so the mix rows' drops are the links' losses of
     * their own frames: together below the world's, which also holds the background traffic's.
     */
    @org.junit.jupiter.api.Test
    void mixRowsCountTheirOwnDrops() throws Exception {
        Report r = Scenarios.run(
                Scenarios.reference(dir, "shared-fabric.conf", t -> t.replace("buffer = 256KiB", "buffer = 16KiB")));
        long world = r.links().stream()
                .filter(l -> l.job().equals("shared") && l.mode().name().equals("baseline"))
                .mapToLong(LinkReport::lost)
                .sum();
        List<Report.JobReport> mix = r.jobs().stream()
                .filter(j -> j.shared() != null
                        && !j.shared().alone()
                        && j.shared().world() == org.bitina.scenario.Schedule.World.BASELINE)
                .toList();
        long rows = mix.stream().mapToLong(j -> j.traffic().drops()).sum();
        assertTrue(world > 0 && rows > 0, "16 KiB buffers drop frames: world " + world + ", rows " + rows);
        assertTrue(rows < world, "the mix rows' drops " + rows + " are their own, below the world's " + world);
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
