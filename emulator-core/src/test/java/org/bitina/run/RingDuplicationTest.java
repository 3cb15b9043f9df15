package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L2: the ring at 20 % duplication on every link sends exactly the packets it sends without (the
 * same data sends, the same acknowledgements, nothing retransmitted), and drops exactly the
 * duplicates the network made: every copy a member receives beyond the first of a packet, counted
 * independently from the trace's deliveries, is one {@code duplicatesDropped} counts.
 */
class RingDuplicationTest {
    @TempDir
    Path dir;

    private Report ring(String name, String faults, Path trace) throws Exception {
        Path sub = dir.resolve(name);
        sub.toFile().mkdirs();
        return Scenarios.run(
                Scenarios.reference(
                        sub,
                        "fat-tree-k4-allreduce.conf",
                        t -> t.replace("baselines = [ring, ps]", "baselines = [ring]")
                                        .replaceAll("(?s)faults = \\[.*\\]", "")
                                + "\nfaults = " + faults + "\n"),
                trace);
    }

    /** The ring's deliveries at its members, and how many of them repeat one already delivered there. */
    private static long[] deliveries(Path trace) throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        long all = 0;
        long repeats = 0;
        for (JsonNode e : Scenarios.events(trace)) {
            if (!e.path("mode").asText().equals("ring")
                    || !e.path("event").asText().equals("deliver")
                    || !e.path("node").asText().startsWith("h")) {
                continue;
            }
            all++;
            // a packet at a member: its chunk, direction and bitmap (a ring member hears each once)
            String id = e.path("node").asText() + "/" + e.path("seq").asLong() + "/"
                    + e.path("dir").asText() + "/" + e.path("bitmap").asText();
            if (seen.merge(id, 1, Integer::sum) > 1) {
                repeats++;
            }
        }
        return new long[] {all, repeats};
    }

    @Test
    void twentyPercentDuplicationCostsTheRingExactlyTheDuplicatesDroppedAndCounted() throws Exception {
        Path cleanTrace = dir.resolve("clean.jsonl");
        Path dupTrace = dir.resolve("dup.jsonl");
        Report.JobReport clean = Scenarios.mode(ring("clean", "[]", cleanTrace), "ring");
        Report.JobReport dup =
                Scenarios.mode(ring("dup", "[{ at = 0us, kind = duplicate, rate = 20% }]", dupTrace), "ring");
        assertEquals(
                Status.COMPLETE,
                dup.outcome().status(),
                dup.problems().mismatches().toString());
        assertTrue(dup.outcome().verified());
        for (String k : List.of("dataSends", "acks")) {
            assertEquals(clean.stats().get(k), dup.stats().get(k), k + ": the same packets as without duplication");
        }
        assertEquals(0L, dup.recovery().retransmissions(), "a duplicate never looks like a loss");
        long[] c = deliveries(cleanTrace);
        long[] d = deliveries(dupTrace);
        assertEquals(0, c[1], "without duplication no packet reaches a member twice");
        assertEquals(0L, clean.stats().get("duplicatesDropped"));
        assertTrue(d[1] > 0.1 * c[0], "20 % duplication a link makes many duplicates: " + d[1]);
        assertEquals(d[1], dup.stats().get("duplicatesDropped"), "every duplicate delivered, and only those, dropped");
    }
}
