package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A BIER-INC AllReduce (seed 001) end to end: one data-driven tree per member, verified. */
class BierIncEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void bierIncAllReduceVerifiesBesideTheRing() throws Exception {
        Report r = run(dir, "inc.conf", """
                topology { generator { kind = paper-fig1 } }
                jobs = [{
                  name = inc, kind = bier-inc, members = [w1, w2, w3, w4, w5]
                  data { elements = 2560, type = int32, op = sum, chunk = 256, window = 4, seed = 6 }
                  completion-timeout = 200ms
                  baselines = [ring]
                }]
                """);
        Report.JobReport inc = r.jobs().get(0);
        assertEquals("bier-inc", inc.kind());
        assertEquals(
                Status.COMPLETE,
                inc.outcome().status(),
                inc.problems().mismatches() + " " + inc.problems().unfinished()
                        + inc.outcome().missing());
        assertTrue(inc.outcome().verified());
        assertEquals(Status.COMPLETE, r.jobs().get(1).outcome().status());
        // the INC trees the forward packets built: branches on switches only, each below a node, never for the ring
        List<Report.ObservedTree> observed = r.observedTrees();
        assertFalse(observed.isEmpty(), "the INC trees are observed");
        Set<String> switches = Set.of("s1", "s2", "s3", "s4", "s5", "s6", "s7");
        for (Report.ObservedTree t : observed) {
            assertEquals(Mode.INA, t.mode());
            assertEquals("INC", t.mechanism());
            assertTrue(switches.contains(t.node()), t.toString());
            assertTrue(t.installs() > 0 && !t.upstream().equals(t.node()), t.toString());
        }
        // every member's bit reaches some branch of the trees, and only members' bits do
        EndpointSet all = observed.stream()
                .map(t -> (EndpointSet) EndpointSets.parse(t.bits()))
                .reduce(EndpointSet::or)
                .orElseThrow();
        assertEquals("[11111]", all.toString(), "members w1..w5 hold bits 1..5");
    }

    @Test
    void onAFatTreeEveryBranchOfEveryTreeReducesWithoutTimeoutsOrLatePackets() throws Exception {
        // with ECMP one node gets a BFIR's packet in several copies, from one upstream or several;
        // each copy's bits are a branch of their own, reduced and sent back on their own path
        Report.JobReport inc = run(dir, "ft.conf", fatTree(4, """
                jobs = [{
                  name = inc, kind = bier-inc, members = all
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 4, seed = 4 }
                  completion-timeout = 2s
                }]
                """)).jobs().get(0);
        assertEquals(
                Status.COMPLETE,
                inc.outcome().status(),
                inc.problems().mismatches() + " " + inc.outcome().missing());
        assertTrue(inc.outcome().verified());
        assertEquals(0, inc.counts().timeouts(), "every reduction completed by bitstring match");
        assertEquals(0, inc.counts().lateContributions());
        assertEquals(0, inc.traffic().drops());
    }

    @Test
    void reduceAndBroadcastFromARootWithHostsOrLeafSwitchesAsTheEdge() throws Exception {
        Report r = run(dir, "collectives.conf", fatTree(4, """
                defs { data { elements = 4096, type = int32, op = sum, chunk = 256, seed = 8 } }
                jobs = [
                  { name = red, kind = bier-inc, members = all, collective = reduce, root = h5, data = ${defs.data}, completion-timeout = 1s }
                  { name = bc, kind = bier-inc, members = all, collective = broadcast, root = h7, data = ${defs.data}, completion-timeout = 1s }
                  { name = leaf-red, kind = bier-inc, members = all, collective = reduce, root = h5, edge = leaf-switches,
                    data = ${defs.data}, completion-timeout = 1s }
                  { name = leaf-bc, kind = bier-inc, members = all, collective = broadcast, root = h7, edge = leaf-switches,
                    data = ${defs.data}, completion-timeout = 1s }
                ]
                """));
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.problems().mismatches() + " "
                            + j.problems().unfinished());
            assertTrue(j.outcome().verified(), j.name());
            assertEquals(
                    j.name().endsWith("red") ? 1 : 16,
                    j.plan().endpoints(),
                    "a reduce waits at its root, a broadcast at every member");
        }
        // leaves as the edge: one copy per leaf instead of one per host behind it
        assertTrue(
                r.jobs().get(3).traffic().totalLinkBytes()
                        < r.jobs().get(1).traffic().totalLinkBytes(),
                r.jobs().toString());
        assertTrue(
                r.jobs().get(2).traffic().totalLinkBytes()
                        < r.jobs().get(0).traffic().totalLinkBytes(),
                r.jobs().toString());
    }

    @Test
    void reduceAndBroadcastCompareWithNcclsRingChainHostToHost() throws Exception {
        Report r = run(dir, "chain.conf", fatTree(4, """
                defs { data { elements = 4096, type = int32, op = sum, chunk = 256, seed = 8 } }
                jobs = [
                  { name = red, kind = bier-inc, members = all, collective = reduce, root = h5, data = ${defs.data},
                    completion-timeout = 1s, baselines = [ring] }
                  { name = bc, kind = bier-inc, members = all, collective = broadcast, root = h7, data = ${defs.data},
                    completion-timeout = 1s, baselines = [ring] }
                ]
                """));
        assertEquals(4, r.jobs().size(), "each in the network and by the ring");
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + " " + j.problems().mismatches() + " "
                            + j.problems().unfinished());
            assertTrue(j.outcome().verified(), j.name() + " " + j.mode());
            assertEquals(j.name().equals("red") ? 1 : 16, j.plan().endpoints(), "a reduce waits at its root alone");
        }
        Report.JobReport redRing = r.jobs().get(1);
        Report.JobReport bcIna = r.jobs().get(2);
        Report.JobReport bcRing = r.jobs().get(3);
        assertEquals("ring", redRing.mode().toString());
        assertTrue(
                redRing.outcome().note().contains("ring Reduce to h5"),
                redRing.outcome().note());
        assertEquals("ring", bcRing.mode().toString());
        // host to host, each of the 15 hops of the chain crosses the fabric: more bytes than one multicast tree
        assertTrue(
                bcRing.traffic().totalLinkBytes() > bcIna.traffic().totalLinkBytes(),
                bcRing.traffic().totalLinkBytes() + " " + bcIna.traffic().totalLinkBytes());
        assertTrue(bcIna.speedup().containsKey(Mode.of("ring")), bcIna.speedup() + "");
    }

    @Test
    void leafSwitchesAggregateTheirHostsFirstAndSpeakForThemWithTheirOwnBit() throws Exception {
        Path trace = dir.resolve("leaf.jsonl");
        Scenario leaf = write(dir, "leaf.conf", fatTree(4, """
                jobs = [{
                  name = leaf, kind = bier-inc, members = all, edge = leaf-switches
                  data { elements = 2048, type = float32, op = sum, chunk = 256, seed = 4 }
                  completion-timeout = 100ms
                }]
                faults = [ { at = 0ms, kind = silent, node = h2 } ]
                """));
        Report r = run(leaf, trace);
        Report.JobReport j = r.jobs().get(0);
        assertEquals(
                Status.PARTIAL,
                j.outcome().status(),
                j.problems().mismatches() + " " + j.problems().unfinished());
        assertTrue(j.outcome().verified() && j.outcome().asExpected());
        assertEquals(
                List.of("h2"),
                j.outcome().missing(),
                "h2's leaf sent its partial sum with a provenance naming who is in it");
        assertTrue(
                j.outcome().note().contains("leaf switches [edge-1-1, edge-1-2"),
                j.outcome().note());
        // 8 leaves, 8 bits: a leaf is the BFIR-id of its owner's tree and answers every tree with its own bit
        List<String> leaves =
                List.of("edge-1-1", "edge-1-2", "edge-2-1", "edge-2-2", "edge-3-1", "edge-3-2", "edge-4-1", "edge-4-2");
        int upward = 0;
        for (JsonNode e : events(trace)) {
            String node = e.get("node").asText();
            if (leaves.contains(node)
                    && e.get("event").asText().equals("forward")
                    && e.get("dir").asText().equals("agg")
                    && e.get("to").size() == 1
                    && e.get("to").get(0).asText().startsWith("agg-")) {
                char[] own = "00000000".toCharArray();
                own[leaves.indexOf(node)] = '1';
                assertEquals("[" + new String(own) + "]", e.get("bitmap").asText(), e.toString());
                upward++;
            }
        }
        assertTrue(upward > 0, "leaves sent reductions up");
        assertTrue(
                r.switches().stream().filter(s -> leaves.contains(s.name())).allMatch(s -> s.incTrees() > 0),
                "every leaf holds tree entries: " + r.switches());
    }

    @Test
    void withLeafSwitchesAsTheEdgeARerouteRebuildsTheBiftsOverTheLeaves() throws Exception {
        // the BIFTs of a leaf-edge job name leaves, not hosts: a reroute that rebuilt them over the
        // hosts left every bitstring the wrong size, and the run hung
        Report.JobReport j =
                run(dir, "leaf-reroute.conf", fatTree(4, """
                jobs = [{
                  name = leaf-rr, kind = bier-inc, members = all, edge = leaf-switches
                  data { elements = 2048, type = int32, op = sum, chunk = 256, seed = 6 }
                  completion-timeout = 200ms
                }]
                faults = [ { at = 0ms, kind = link-down, link = [agg-1-1, core-1] } ]
                """)).jobs().get(0);
        assertEquals(
                Status.COMPLETE,
                j.outcome().status(),
                j.problems().mismatches() + " " + j.problems().unfinished()
                        + j.outcome().missing() + " " + j.outcome().note());
        assertTrue(j.outcome().verified() && j.outcome().asExpected());
        assertEquals(0, j.traffic().drops(), "no bitstring of the wrong size");
    }

    @Test
    void aMidRunLinkFailureIsRoutedAroundAndTheAllReduceStillVerifies() throws Exception {
        Report r = run(reference("fat-tree-k4-bier-inc-link-failure.conf"));
        Report.JobReport j = r.jobs().get(0);
        assertEquals(
                Status.COMPLETE,
                j.outcome().status(),
                j.problems().mismatches() + " " + j.problems().unfinished()
                        + j.outcome().missing());
        assertTrue(j.outcome().verified() && j.outcome().asExpected());
        // at 40 ms the fault landed long after the 111 us phase had ended, and was only "not applied"
        assertEquals(List.of(), j.problems().faultsNotApplied(), "the link fails inside the phase");
        // the failed link carried the trees before it failed: the run really was rerouted mid-way
        assertTrue(
                r.links().stream()
                        .anyMatch(l -> l.from().equals("agg-1-1") && l.to().equals("core-1") && l.packets() > 0),
                r.links().toString());
    }

    @Test
    void aSilentOwnerStartsNoTreeSoItsChunksHaveNoResultAsTheScenarioExpects() throws Exception {
        Report.JobReport j = run(dir, "silent-owner.conf", """
                topology { generator { kind = paper-fig1 } }
                jobs = [{
                  name = inc, kind = bier-inc, members = [w1, w2, w3, w4]
                  data { elements = 1024, type = int32, op = sum, chunk = 256, seed = 6 }
                  completion-timeout = 20ms
                }]
                faults = [ { at = 0ms, kind = silent, node = w2 } ]
                """).jobs().get(0);
        assertEquals("failed", j.outcome().expected());
        assertEquals(Status.FAILED, j.outcome().status());
        assertTrue(j.outcome().asExpected());
        assertTrue(
                j.outcome().note().contains("silent owners start no tree: [w2]"),
                j.outcome().note());
    }
}
