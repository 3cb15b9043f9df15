package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Translation at the fabric's edge (H2, seed 000 section 7): node lists on host links, a
 * hierarchical bitmap between switches, converted by the switch at each host's port. Every kind
 * ends with the same results, packet for packet, as with flat bitmaps; only the bytes differ.
 */
class EncodingTranslationTest {
    @TempDir
    Path dir;

    private static final String TRANSLATED = "{ hosts = node-list, fabric = hierarchical, block = 4 }";

    /** One job of every kind on a k=4 fat tree (16 hosts), each with {@code encoding}. */
    private static String jobs(String encoding) {
        StringBuilder experts = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            experts.append("{ name = e")
                    .append(i + 1)
                    .append(", host = h")
                    .append(i + 1)
                    .append(" }, ");
        }
        return fatTree(4, """
                jobs = [{
                  name = ar, kind = allreduce, tenant = 1, members = all, encoding = %1$s
                  tree { mode = auto, root = core-1 }
                  data { elements = 1024, type = int32, op = sum, chunk = 256, window = 4, seed = 1 }
                  baselines = [ring]
                }, {
                  name = moe, kind = moe, tenant = 2, encoding = %1$s
                  sources = [h1, h9]
                  experts = [ %2$s ]
                  moe { top-k = 4, hidden = 64, tokens-per-source = 32, seed = 5 }
                  baselines = [all-to-all]
                }, {
                  name = rm, kind = reliable-multicast, tenant = 3, encoding = %1$s
                  source = h1, receivers = all
                  data { bytes = 64KiB, packet = 1024, window = 8, seed = 3 }
                  baselines = [unicast-ack]
                }, {
                  name = inc, kind = bier-inc, tenant = 4, members = all, encoding = %1$s
                  data { elements = 1024, type = int32, op = sum, chunk = 256, window = 4, seed = 2 }
                  completion-timeout = 200ms
                }]
                """.formatted(encoding, experts));
    }

    private Report run(String encoding) throws IOException, ScenarioException {
        return Scenarios.run(Scenarios.write(dir, "t.conf", jobs(encoding)));
    }

    /** What must not depend on the encoding: each job and mode's outcome and packet counts, each link's packets. */
    private static Map<String, String> outcome(Report r) {
        Map<String, String> o = new TreeMap<>();
        for (Report.JobReport j : r.jobs()) {
            o.put(
                    j.name() + "/" + j.mode(),
                    j.outcome().status() + " verified=" + j.outcome().verified() + " missing="
                            + j.outcome().missing() + " packets=" + j.traffic().packets()
                            + " intoRoot=" + j.traffic().packetsIntoRoot() + " timeouts="
                            + j.counts().timeouts() + " rounds="
                            + j.counts().retransmissionRounds()
                            + " mismatches=" + j.problems().mismatches());
        }
        for (LinkReport l : r.links()) {
            o.put(
                    "link " + l.job() + "/" + l.mode() + " " + l.from() + "->" + l.to(),
                    "packets=" + l.packets() + " lost=" + l.lost());
        }
        return o;
    }

    @Test
    void anEncodingNamesItsKindOrBothDomainsNotBoth() throws Exception {
        String bad = jobs("{ kind = hierarchical, hosts = node-list }");
        ScenarioException e =
                Assertions.assertThrows(ScenarioException.class, () -> Scenarios.write(dir, "bad.conf", bad));
        assertTrue(e.getMessage().contains("bad.conf:3: encoding names either its kind"), e.getMessage());
        String unknown = jobs("{ hosts = bitlist, fabric = hierarchical }");
        e = Assertions.assertThrows(ScenarioException.class, () -> Scenarios.write(dir, "bad.conf", unknown));
        assertTrue(e.getMessage().contains("bad.conf:3: unknown encoding 'bitlist'"), e.getMessage());
    }

    @Test
    void everyKindEndsAsWithFlatBitmapsWithFewerHeaderBytesAndCountsItsTranslations() throws Exception {
        Report flat = run("flat");
        Report translated = run(TRANSLATED);
        flat.jobs()
                .forEach(j -> assertTrue(
                        j.outcome().verified() && j.outcome().status().equals(Status.COMPLETE),
                        j.name() + "/" + j.mode() + " " + j.outcome().status()));
        assertEquals(outcome(flat), outcome(translated));

        for (String job : List.of("ar", "moe", "rm", "inc")) {
            long f = flat.jobs().stream()
                    .filter(j -> j.name().equals(job) && j.mode().name().equals("ina"))
                    .findFirst()
                    .orElseThrow()
                    .traffic()
                    .headerBytes();
            long t = translated.jobs().stream()
                    .filter(j -> j.name().equals(job) && j.mode().name().equals("ina"))
                    .findFirst()
                    .orElseThrow()
                    .traffic()
                    .headerBytes();
            assertTrue(t < f, job + ": header bytes " + t + " translated, " + f + " flat");
        }
        // the switches at the hosts' ports translate, the others never
        long edge = 0;
        for (SwitchReport s : translated.switches()) {
            if (s.name().startsWith("edge-")) {
                assertTrue(s.translations() > 0, s.name() + " translated nothing");
                edge += s.translations();
            } else {
                assertEquals(0, s.translations(), s.name() + " is inside the fabric");
            }
        }
        assertTrue(
                flat.switches().stream().allMatch(s -> s.translations() == 0),
                "one encoding everywhere: nothing to translate");
        assertTrue(
                translated
                        .jobs()
                        .get(0)
                        .outcome()
                        .note()
                        .contains("node-list on host links, hierarchical (blocks of 4) between switches"),
                translated.jobs().get(0).outcome().note());
        assertTrue(edge > 0);
    }
}
