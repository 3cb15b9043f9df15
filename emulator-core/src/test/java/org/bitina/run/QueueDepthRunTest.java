package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queue depth over modelled time (T3): with finite buffers the busiest ports of each phase carry
 * their queue's curve in {@code links[].queue}, whose maximum is the port's {@code maxQueueBytes};
 * without a buffer no link carries one.
 */
class QueueDepthRunTest {
    @TempDir
    Path dir;

    private static String shared(String linkDefaults) {
        return fatTree(4, "topology.link-defaults { " + linkDefaults + " }\n" + """
                schedule = shared
                alone = false
                worlds = [ina]
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                }]
                """);
    }

    @Test
    void theBusiestPortsCarryTheirTimeCurveWhoseMaximumIsMaxQueueBytes() throws IOException, ScenarioException {
        Report r = run(write(dir, "buffered.conf", shared("buffer = 64KiB")));
        r.jobs()
                .forEach(
                        j -> assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode()));
        Map<String, List<LinkReport>> phases = r.links().stream()
                .collect(Collectors.groupingBy(l -> l.job() + " " + l.mode(), LinkedHashMap::new, Collectors.toList()));
        assertFalse(phases.isEmpty());
        // the curve as the JSON report has it, per port of the mix
        JsonNode json = RunComparison.comparable(r).get("links");
        int curves = 0;
        for (JsonNode l : json) {
            JsonNode q = l.get("queue");
            if (q == null) {
                continue;
            }
            curves++;
            long max = 0;
            long last = -1;
            for (JsonNode point : q.get("depth")) {
                assertTrue(point.get(0).asLong() > last, "in time order: " + l);
                last = point.get(0).asLong();
                max = Math.max(max, point.get(1).asLong());
            }
            assertEquals(l.get("maxQueueBytes").asLong(), max, "the curve's maximum: " + l);
            assertTrue(max <= 64 * 1024, "never above the buffer: " + l);
        }
        assertTrue(curves > 0, "the aggregates queue at the shared uplinks");
        for (List<LinkReport> links : phases.values()) {
            List<LinkReport> drawn =
                    links.stream().filter(l -> l.queue() != null).toList();
            assertTrue(drawn.size() <= ReportAssembler.QUEUE_CURVES, "bounded: " + drawn.size());
            long shallowestDrawn =
                    drawn.stream().mapToLong(LinkReport::maxQueueBytes).min().orElse(Long.MAX_VALUE);
            for (LinkReport l : links) {
                if (l.queue() == null && !l.from().matches("h\\d+")) {
                    // a host's NIC has no finite buffer and no curve; a switch port left out is no deeper
                    long bound = drawn.size() < ReportAssembler.QUEUE_CURVES ? 0 : shallowestDrawn;
                    assertTrue(l.maxQueueBytes() <= bound, "the deepest switch ports are the ones drawn: " + l);
                }
            }
        }
    }

    @Test
    void withoutABufferNoLinkCarriesATimeCurve() throws IOException, ScenarioException {
        Report r = run(write(dir, "unlimited.conf", shared("latency = 1us")));
        r.links().forEach(l -> assertNull(l.queue(), "no buffer, no curve: " + l));
        assertFalse(RunComparison.comparable(r).toString().contains("\"queue\""), "the JSON has no queue key");
        assertFalse(RunComparison.comparable(r).toString().contains("ecnMarks"), "nor ECN marks: off by default");
    }

    @Test
    void anEcnThresholdMarksAndCountsPacketsThatJoinADeepQueueAndChangesNoTime() throws IOException, ScenarioException {
        Report plain = run(write(dir, "plain.conf", shared("latency = 1us")));
        Report marked = run(write(dir, "ecn.conf", shared("ecn-threshold = 8KiB")));
        long marks = 0;
        for (LinkReport l : marked.links()) {
            if (l.from().matches("h\\d+")) {
                assertNull(l.ecnMarks(), "a host's NIC marks nothing: " + l);
                continue;
            }
            assertTrue(l.ecnMarks() != null && l.ecnMarks() <= l.packets(), l.toString());
            assertTrue(l.maxQueueBytes() > 8 * 1024 || l.ecnMarks() == 0, "only a queue past 8 KiB marks: " + l);
            marks += l.ecnMarks();
        }
        assertTrue(marks > 0, "the two jobs' aggregates queue past 8 KiB at the shared uplinks");
        for (int i = 0; i < plain.jobs().size(); i++) {
            assertEquals(
                    plain.jobs().get(i).timing().modeledMicros(),
                    marked.jobs().get(i).timing().modeledMicros(),
                    "no congestion control: the same times");
        }
    }
}
