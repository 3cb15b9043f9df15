package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finite egress buffers (T3) on a shared fabric: a buffer small enough to overflow drops packets
 * as {@code queue full}, counted per link, never holds more than it may, and the jobs still
 * recover every drop and verify; the same report twice.
 */
class BufferRunTest {
    @TempDir
    Path dir;

    /** Two AllReduce jobs over interleaved hosts of a k=4 fat-tree, sharing every uplink, with {@code buffer}. */
    private static String shared(String buffer) {
        return fatTree(4, "topology.link-defaults { " + buffer + " }\n" + """
                schedule = shared
                alone = false
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                  baselines = [ring]
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                  baselines = [ring]
                }]
                """);
    }

    /** The fat-tree generator names its hosts h1, h2, ...; its switches edge-, agg-, core-. */
    private static boolean fromSwitch(LinkReport l) {
        return !l.from().matches("h\\d+");
    }

    @Test
    void aSmallBufferDropsQueueFullPacketsThatTheJobsRecoverTheSameTwice() throws IOException, ScenarioException {
        long buffer = 16 * 1024;
        var s = write(dir, "small.conf", shared("buffer = 16KiB"));
        Report first = run(s);
        assertEquals(4, first.jobs().size(), "two jobs in two worlds");
        for (Report.JobReport j : first.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
        long drops = first.links().stream().mapToLong(LinkReport::queueDrops).sum();
        assertTrue(drops > 0, "16 KiB holds sixteen packets behind the wire: the two jobs' aggregates overflow it");
        for (LinkReport l : first.links()) {
            if (fromSwitch(l)) {
                assertTrue(l.maxQueueBytes() <= buffer, l.from() + " -> " + l.to() + " held " + l.maxQueueBytes());
            } else {
                assertEquals(0, l.queueDrops(), "a host's NIC waits, it does not drop its own packets: " + l);
            }
            assertTrue(l.queueDrops() <= l.lost(), "a queue drop is a packet lost on the link: " + l);
        }
        assertTrue(
                first.jobs().stream()
                        .anyMatch(j ->
                                j.recovery().retransmissions() + j.recovery().resultResends() > 0),
                "the drops were recovered by retransmission");
        assertSameRun(first, run(s), "the run with queue drops twice");
    }

    @Test
    void anUnlimitedBufferDropsNothingAndItsQueuesGrowPastTheSmallOne() throws IOException, ScenarioException {
        Report r = run(write(dir, "unlimited.conf", shared("latency = 1us")));
        assertEquals(0, r.links().stream().mapToLong(LinkReport::queueDrops).sum());
        long deepest =
                r.links().stream().mapToLong(LinkReport::maxQueueBytes).max().orElse(0);
        assertTrue(deepest > 16 * 1024, "the switches queue more than 16 KiB when nothing bounds them: " + deepest);
        r.jobs()
                .forEach(
                        j -> assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode()));
    }
}
