package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReliableMulticastEndToEndTest {
    @TempDir
    Path dir;

    private Report run(String job, String faults, Path trace) throws IOException, ScenarioException {
        return run(job, faults, trace, "20ms");
    }

    private Report run(String job, String faults, Path trace, String timeout) throws IOException, ScenarioException {
        Scenario s = write(dir, "rm.conf", """
                topology { generator { kind = leaf-spine, spines = 2, leaves = 3, hosts-per-leaf = 3 } }
                jobs = [{
                  name = cp, kind = reliable-multicast, source = h1, receivers = all
                  %s
                  completion-timeout = %s
                  baselines = [unicast-ack]
                }]
                %s
                """.formatted(job, timeout, faults));
        return trace == null ? Scenarios.run(s) : Scenarios.run(s, trace);
    }

    @Test
    void withAggregationTheSourceGetsOneAckPerWindowPerRoundWithoutItOnePerReceiver() throws Exception {
        // a roomy timer: exact ACK counts must not depend on how fast a cold JVM answers
        Report r = run(
                "data { bytes = 64KiB, packet = 4000, window = 4, seed = 1 }, ack { per = window, tree = preconfigured }",
                "",
                null,
                "2s");
        Report.JobReport ina = mode(r, "ina");
        Report.JobReport uni = mode(r, "unicast-ack");
        long windows = ina.stats().get("windows");
        assertEquals(5, windows);
        assertEquals(Status.COMPLETE, ina.outcome().status());
        assertTrue(ina.outcome().verified() && uni.outcome().verified());
        assertEquals(0, ina.counts().retransmissionRounds());
        assertEquals(windows, ina.stats().get("ackPacketsIntoSource"), "one aggregated ACK per window and round");
        assertEquals(
                windows * 8, uni.stats().get("ackPacketsIntoSource"), "one ACK per receiver per window: the implosion");
        assertEquals(windows, ina.traffic().packetsIntoRoot(), "one ACK frame reaches the source host per window");
    }

    @ParameterizedTest(name = "{0}% loss")
    @ValueSource(ints = {1, 5, 20})
    void everyLiveReceiverVerifiesUnderLoss(int percent) throws Exception {
        Report r = run(
                "data { bytes = 32000, packet = 4000, window = 4, seed = 2 }, ack { per = packet, tree = composed }, max-rounds = 60",
                "faults = [ { kind = loss, rate = " + percent + "% } ]",
                null);
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().unfinished() + j.outcome().missing());
            assertTrue(j.outcome().verified(), j.mode() + " " + j.problems().mismatches());
        }
    }

    @Test
    void duplicatesAreNeverHandedToTheApplication() throws Exception {
        Report r = run(
                "data { bytes = 32000, packet = 4000, window = 8, seed = 3 }, ack { per = packet, tree = self-installed }",
                "faults = [ { kind = duplicate, rate = 30% } ]",
                null);
        Report.JobReport ina = mode(r, "ina");
        assertTrue(ina.outcome().verified(), ina.problems().mismatches().toString());
        assertTrue(ina.stats().get("duplicatesSuppressed") > 0, "duplicated copies arrived and were suppressed");
        assertEquals(
                8L * 32000, ina.stats().get("deliveredBytes"), "each packet delivered once to each of 8 receivers");
    }

    @Test
    void selfInstalledTreesTakeEveryEcmpCopyAsABranchWithItsOwnUpstream() throws Exception {
        // h1's data reach each far leaf through both spines, each copy with other receivers'
        // bits: one C-BM per copy, each aggregated on its own and sent to the spine it came from
        // (one entry per key took the first copy's C-BM and the last copy's upstream: the other
        // copy's ACKs went up one by one, and the aggregate to the wrong spine)
        Path trace = dir.resolve("ecmp.jsonl");
        Report r = Scenarios.run(write(dir, "ecmp.conf", """
                topology { generator { kind = leaf-spine, spines = 2, leaves = 3, hosts-per-leaf = 6 } }
                jobs = [{
                  name = cp, kind = reliable-multicast, source = h1, receivers = all, completion-timeout = 1s
                  data { bytes = 32000, packet = 4000, window = 4, seed = 7 }, ack { per = window, tree = self-installed }
                }]
                """), trace);
        Report.JobReport ina = mode(r, "ina");
        assertEquals(
                Status.COMPLETE,
                ina.outcome().status(),
                ina.problems().unfinished().toString());
        assertTrue(ina.outcome().verified());
        assertEquals(0, ina.counts().timeouts());
        Map<String, String> installedFrom = new HashMap<>();
        Set<String> installs = new TreeSet<>();
        Set<String> aggregatesUp = new TreeSet<>();
        for (JsonNode e : events(trace)) {
            String node = e.get("node").asText();
            if (e.get("seq").asLong() != 0 || !(node.equals("leaf-2") || node.equals("leaf-3"))) {
                continue;
            }
            if (e.get("event").asText().equals("install")) {
                installs.add(node + " " + e.get("bitmap").asText());
            } else if (e.get("event").asText().equals("forward")
                    && e.get("dir").asText().equals("agg")) {
                aggregatesUp.add(node + " " + e.get("bitmap").asText());
            }
        }
        assertEquals(4, installs.size(), "two copies, two branches, at each far leaf: " + installs);
        assertEquals(installs, aggregatesUp, "one aggregate per branch goes up, no single ACK");
    }

    @Test
    void aStragglingSourceAndReceiverDelayTheRunInModelledTime() throws Exception {
        // before, straggler faults on multicast nodes were dropped without a word
        Report r = run(
                "data { bytes = 16000, packet = 4000, window = 2, seed = 6 }, ack { per = window, tree = composed }",
                "faults = [ { kind = straggler, node = h1, delay = 300ms }, { kind = straggler, node = h5, delay = 200ms } ]",
                null,
                "1s");
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.mode() + " " + j.problems().unfinished());
            assertTrue(j.outcome().verified(), j.mode().name());
            // two windows, each sent 300 ms late and acknowledged by h5 200 ms late
            assertTrue(
                    j.timing().modeledMicros() >= 2 * 500_000,
                    j.mode() + " modelled " + j.timing().modeledMicros());
            // under the virtual clock the delays are modelled, not waited out
            assertTrue(
                    j.timing().wallMillis() < 2 * 500,
                    j.mode() + " wall " + j.timing().wallMillis());
        }
    }

    @Test
    void aDeadReceiverIsReportedUnreachableAndTheRunEnds() throws Exception {
        Report r = run(
                "data { bytes = 16000, packet = 4000, window = 2, seed = 4 }, ack { per = window, tree = composed }, max-rounds = 3",
                "faults = [ { kind = silent, node = h5 } ]",
                null);
        Report.JobReport ina = mode(r, "ina");
        assertEquals(Status.PARTIAL, ina.outcome().status());
        assertEquals(List.of("h5"), ina.outcome().missing());
        assertTrue(
                ina.outcome().verified(),
                "every live receiver holds the block: " + ina.problems().mismatches()
                        + ina.problems().unfinished());
        assertEquals(2, ina.counts().retransmissionRounds(), "three rounds for the first window, then h5 is left out");
        assertTrue(r.allAsExpected());
    }

    @Test
    void retransmissionsReachOnlyTheMissSet() throws Exception {
        Path trace = dir.resolve("t.jsonl");
        Report r = run(
                "data { bytes = 16000, packet = 4000, window = 4, seed = 5 }, ack { per = packet, tree = composed }, max-rounds = 40",
                "faults = [ { kind = loss, link = [leaf-3, h7], rate = 50% }, { kind = loss, link = [leaf-2, h4], rate = 30% } ]",
                trace);
        assertTrue(mode(r, "ina").outcome().verified());
        long retransmissions = 0;
        for (JsonNode e : events(trace)) {
            if (e.get("job").asText().equals("cp")
                    && e.get("mode").asText().equals("ina")
                    && e.get("node").asText().equals("h1")
                    && e.get("event").asText().equals("send")
                    && !e.get("bitmap").asText().equals("[11111111]")) {
                retransmissions++;
                String bm = e.get("bitmap").asText();
                // bits: h2..h9 in order; only h4 (bit 3) and h7 (bit 6) lose data on their links
                for (int i = 1; i < bm.length() - 1; i++) {
                    if (bm.charAt(i) == '1') {
                        assertTrue(i == 3 || i == 6, "a retransmission went to a receiver that lost nothing: " + bm);
                    }
                }
            }
        }
        assertTrue(retransmissions > 0, "the lossy links forced retransmissions");
    }
}
