package org.bitina.run;

import static org.bitina.run.Scenarios.events;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.job.Status;
import org.bitina.protocol.TraceFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Explicit bit positions (BFR-ids) for every kind, and RFC 8279's worked example hop by hop. */
class ExplicitBitsTest {
    @TempDir
    Path dir;

    @Test
    void rfc8279sWorkedExampleCopiesHopByHopAsTheRfcSays() throws Exception {
        Path trace = dir.resolve("rfc.jsonl");
        Report r = run(reference("rfc8279-example.conf"), trace);
        r.jobs()
                .forEach(j -> assertTrue(
                        j.outcome().status().equals(Status.COMPLETE)
                                && j.outcome().verified(),
                        j.toString()));
        // every data packet of the INA mode: what each node sent on, copy by copy (one event a copy)
        Map<String, List<String>> copies = new TreeMap<>();
        int packets = 0;
        for (JsonNode e : events(trace)) {
            if (!e.path("job").asText().equals("rfc8279")
                    || !e.path("mode").asText().equals("ina")
                    || !e.path("dir").asText().equals("mcast")) {
                continue;
            }
            String ev = e.get("event").asText();
            if (ev.equals("send")) {
                assertEquals("[1010]", e.get("bitmap").asText(), "A addresses D (BFR-id 1) and E (BFR-id 3)");
                packets++;
            } else if (ev.equals("forward") || ev.equals("replicate")) {
                assertEquals(1, e.get("to").size(), "one next hop per event: " + e);
                if (ev.equals("replicate")) {
                    assertTrue(e.get("detail").asText().matches("copy [12]/2 of \\[1010\\]"), e.toString());
                }
                copies.computeIfAbsent(
                                e.get("node").asText() + " seq " + e.get("seq").asText(), k -> new ArrayList<>())
                        .add(ev + " " + e.get("to").get(0).asText() + " "
                                + e.get("bitmap").asText());
            } else if (ev.equals("deliver")) {
                assertTrue(List.of("D", "E").contains(e.get("node").asText()), "delivered only to D and E: " + e);
            }
        }
        assertEquals(4, packets);
        for (int seq = 0; seq < 4; seq++) {
            assertEquals(List.of("forward B [1010]"), copies.get("A seq " + seq));
            assertEquals(
                    List.of("replicate C [1000]", "replicate E [0010]"),
                    copies.get("B seq " + seq),
                    "B->C carries D only, B->E carries E only");
            assertEquals(List.of("forward D [1000]"), copies.get("C seq " + seq), "C->D, and nothing to F");
        }
        assertEquals(12, copies.size(), "no other node forwarded anything: " + copies);
    }

    @Test
    void aFilteredTraceKeepsOnlyTheEventsItNamesAndSaysSoOnItsFirstLine() throws Exception {
        Path trace = dir.resolve("filtered.jsonl");
        run(
                reference("rfc8279-example.conf"),
                ScenarioRunner.Options.defaults()
                        .withTrace(trace)
                        .withTraceFilter(TraceFilter.parse(List.of("node=B;event=replicate", "seq=1..2;mode=ina"))));
        List<JsonNode> es = events(trace);
        assertEquals("clock", es.get(0).get("event").asText());
        assertEquals("ns", es.get(0).get("vt_unit").asText(), "the unit of vt, said once");
        assertEquals(
                "node=B;event=replicate;seq=1..2;mode=ina",
                es.get(0).get("filter").asText());
        List<String> kept = es.subList(1, es.size()).stream()
                .map(e -> e.get("node").asText() + " " + e.get("event").asText() + " "
                        + e.get("seq").asLong() + " " + e.get("to").get(0).asText())
                .sorted()
                .toList();
        assertEquals(
                List.of("B replicate 1 C", "B replicate 1 E", "B replicate 2 C", "B replicate 2 E"),
                kept,
                "two packets, two copies each, at B only, in the INA mode (unicast-ack multicasts its data too)");
    }

    private static String star(String job) {
        return Scenarios.STAR4 + """
                jobs = [{ %s }]
                """.formatted(job);
    }

    @Test
    void anAllReduceOnExplicitPositionsWithGapsVerifiesAndPrintsThem() throws Exception {
        Report r = run(dir, "ar.conf", star("""
                name = ar, kind = allreduce, members = [h1, h2, h3, h4], tree { mode = auto, root = s1 }
                bit-space { h3 = 1, h2 = 2, h1 = 5, h4 = 7 }
                data { elements = 4096, chunk = 256, window = 4, seed = 5 }
                baselines = [ring, ps]
                """));
        r.jobs()
                .forEach(j -> assertTrue(
                        j.outcome().status().equals(Status.COMPLETE)
                                && j.outcome().verified(),
                        j.toString()));
        assertTrue(
                r.jobs().get(0).outcome().note().contains("s1=[1100101]"),
                "the A-BM over positions 1, 2, 5, 7: "
                        + r.jobs().get(0).outcome().note());
    }

    @Test
    void aReliableMulticastOverEveryHostsBitsVerifies() throws Exception {
        Report r = run(dir, "mc.conf", star("""
                name = mc, kind = reliable-multicast, source = h1, receivers = [h2, h3]
                bit-space = hosts
                data { bytes = 8000, packet = 2000, window = 2, seed = 3 }
                baselines = [unicast-ack]
                """));
        r.jobs()
                .forEach(j -> assertTrue(
                        j.outcome().status().equals(Status.COMPLETE)
                                && j.outcome().verified(),
                        j.toString()));
        assertTrue(
                r.jobs().get(0).outcome().note().contains("[0110]"),
                "h2 and h3 hold bits 2 and 3 of four: "
                        + r.jobs().get(0).outcome().note());
    }

    @Test
    void aMoeJobWithItsExpertsInAnotherBitOrderVerifies() throws Exception {
        Report r = run(
                reference(
                        dir,
                        "paper-fig2-moe.conf",
                        t -> t.replace(
                                "experts = [e1, e2, e3, e4, e5, e6, e7, e8]",
                                "experts = [e1, e2, e3, e4, e5, e6, e7, e8]\n  bit-space { e8 = 1, e7 = 2, e6 = 3, e5 = 4, e4 = 5, e3 = 6, e2 = 7, e1 = 8 }")));
        r.jobs()
                .forEach(j -> assertTrue(
                        j.outcome().status().equals(Status.COMPLETE)
                                && j.outcome().verified(),
                        j.toString()));
    }
}
