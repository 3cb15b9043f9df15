package org.bitina.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.scenario.Problem;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.EncodingSpec;
import org.bitina.usecases.UseCases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MTU checked against the encoded endpoint set on each link a job's packets cross (H2, seed 000 section 7). */
class WireBudgetTest {
    @TempDir
    Path dir;

    /**
     * k=8, all 128 hosts, chunks of 256 float32 (1,024 bytes): a flat 128-bit set makes every packet
     * 40 + 16 + 1,024 + 16 = 1,096 bytes; hierarchical sets (blocks of a pod's 16 hosts) are at most
     * 8 + 16 bits on any link of the VAT and of the result's multicast, so 1,083 bytes.
     */
    private static String allreduce(String encoding, int mtu) {
        return """
                topology {
                  generator { kind = fat-tree, k = 8 }
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = %d }
                }
                jobs = [{
                  name = big, kind = allreduce, members = all
                  encoding = %s
                  tree { mode = auto, root = core-1 }
                  data { elements = 1024,
                         chunk = 256 }
                }]
                """.formatted(mtu, encoding);
    }

    /** 512 experts, 32 on each host of a k=4 fat tree, top-2, hidden 240: a token's dispatch payload is 980 bytes. */
    private static String moe(String encoding, int mtu) {
        StringBuilder experts = new StringBuilder();
        for (int i = 0; i < 512; i++) {
            experts.append("{ name = e")
                    .append(i + 1)
                    .append(", host = h")
                    .append(i / 32 + 1)
                    .append(" },\n");
        }
        return """
                topology {
                  generator { kind = fat-tree, k = 4 }
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = %d }
                }
                jobs = [{
                  name = gate, kind = moe
                  encoding = %s
                  sources = [h1, h5]
                  experts = [ %s ]
                  moe { top-k = 2, hidden = 240, tokens-per-source = 8, seed = 3 }
                }]
                """.formatted(mtu, encoding, experts);
    }

    private Scenario load(String text) throws IOException, ScenarioException {
        Path p = dir.resolve("job.conf");
        Files.writeString(p, text);
        return ScenarioLoader.load(p);
    }

    private List<String> problems(String text) throws IOException {
        ScenarioException e = assertThrows(ScenarioException.class, () -> load(text));
        return e.problems().stream().map(Problem::toString).toList();
    }

    @Test
    void aK8AllReduceFailsFlatAndPassesHierarchicalAtTheSameMtu() throws Exception {
        List<String> flat = problems(allreduce("flat", 1090));
        assertEquals(1, flat.size(), () -> flat.toString());
        String p = flat.get(0);
        assertTrue(p.startsWith(dir.resolve("job.conf") + ":10: job big (ina): "), p);
        assertTrue(
                p.contains(
                        "as a flat set of 16 bytes: 40 header + 16 set + 1024 payload + 16 tag = 1096 bytes, more than the link's MTU"
                                + " of 1090 bytes"),
                p);
        assertTrue(p.matches(".* on link \\S+ -> \\S+ carries \\d+ endpoints .*"), p);

        Scenario s = load(allreduce("hierarchical", 1090));
        assertEquals(
                new EncodingSpec(Encoding.HIERARCHICAL, 16),
                s.jobs().get(0).common().encoding());
        // and at one byte less the hierarchical job's largest packet (a pod's set, 3 bytes) no longer fits
        List<String> tight = problems(allreduce("hierarchical", 1082));
        assertTrue(
                tight.get(0)
                        .contains(
                                "hierarchical (blocks of 16) set of 3 bytes: 40 header + 3 set + 1024 payload + 16 tag = 1083 bytes"),
                tight::toString);
    }

    @Test
    void aJobThatTranslatesIsCheckedInEachLinksEncoding() throws Exception {
        // flat on host links only: the members' own bits and their results' copies are 16 bytes there
        List<String> p = problems(allreduce("{ hosts = flat, fabric = hierarchical }", 1090));
        assertTrue(
                p.get(0)
                        .matches(
                                ".* on link (h\\d+ -> edge-\\d+-\\d+|edge-\\d+-\\d+ -> h\\d+) carries 1 endpoints as a flat set of 16 bytes.*"),
                p::toString);
        load(allreduce("{ hosts = node-list, fabric = hierarchical }", 1090));
    }

    @Test
    void theRingBaselineCarriesTheWholeMemberSetSoItIsHeldToTheFlatSize() throws Exception {
        String ring = allreduce("hierarchical", 1090).replace("data {", "baselines = [ring]\n  data {");
        List<String> p = problems(ring);
        assertTrue(p.get(0).contains("job big (ring): "), p::toString);
    }

    @Test
    void aNodeListMoePassesWhereFlatFails() throws Exception {
        // flat: 40 + 64 (512 bits) + 980 + 16 = 1,100 bytes; a node list of two 9-bit indices: 3 bytes, 1,039 in all
        String text = moe("flat", 1064);
        List<String> flat = problems(text);
        int moeLine = text.substring(0, text.indexOf("moe {")).split("\n", -1).length;
        assertTrue(flat.get(0).contains("job gate (ina): a multicast packet on link"), flat::toString);
        assertTrue(flat.get(0).contains("flat set of 64 bytes"), flat::toString);
        assertTrue(flat.get(0).startsWith(dir.resolve("job.conf") + ":" + moeLine + ": "), flat::toString);
        Scenario s = load(moe("node-list", 1064));
        assertEquals(Encoding.NODE_LIST, s.jobs().get(0).common().encoding().encoding());
    }

    @Test
    void aMoeIsHeldToTheTokensItsDispatchesCarryWithTheTagWhenOn() throws Exception {
        // node lists of top-2 (3 bytes) at MTU 1991: two tokens (1,948 bytes) fit only without the tag, 40 + 3 + 1948 =
        // 1991
        Scenario tagged = load(moe("node-list", 1991));
        assertEquals(
                980,
                UseCases.packets(tagged.jobs().get(0), tagged).downBytes(),
                "one token: two would make 2,007 bytes");
        Scenario untagged = load(moe("node-list", 1991) + "security { mac = off }\n");
        assertEquals(1948, UseCases.packets(untagged.jobs().get(0), untagged).downBytes());
        // flat on host links: 64 bytes there, so one token less room than the fabric's node list leaves
        Scenario translated = load(moe("{ hosts = flat, fabric = node-list }", 2068));
        assertEquals(
                1948, UseCases.packets(translated.jobs().get(0), translated).downBytes());
        // a byte less, and two tokens fit only a dispatch to one expert (a capacity drop), 4 (2 + 2 x 241) bytes
        Scenario tight = load(moe("{ hosts = flat, fabric = node-list }", 2067));
        assertEquals(1936, UseCases.packets(tight.jobs().get(0), tight).downBytes());
    }

    @Test
    void theTagIsCountedOnlyWhenMacsAreOn() throws Exception {
        // 40 + 16 + 1024 + 16 = 1096 with tags; 1080 without, which fits 1090
        assertEquals(1, problems(allreduce("flat", 1090)).size());
        load(allreduce("flat", 1090) + "security { mac = off }\n");
        List<String> p = problems(allreduce("flat", 1079) + "security { mac = off }\n");
        assertTrue(p.get(0).contains("40 header + 16 set + 1024 payload + 0 tag = 1080 bytes"), p::toString);
    }

    @Test
    void aChecksummedJobsFallbackRingIsHeldToTheSmallestMtuWithItsProvenance() throws Exception {
        // int32 chunks of 256 and 2 checksum words: 1,032 bytes; hierarchical sets of a pod at most 3 bytes, so 1,091
        // in the tree;
        // the fallback ring carries all 128 members (8 + 128 bits: 17 bytes) and a flat provenance (4 + 16 bytes):
        // 1,125
        String text = allreduce("hierarchical", 1124)
                .replace("chunk = 256 }", "chunk = 256, type = int32 }\n  security { checksum = on }");
        List<String> p = problems(text);
        assertEquals(1, p.size(), p::toString);
        assertTrue(
                p.get(0)
                        .startsWith(dir.resolve("job.conf")
                                + ":10: job big (ina): a fallback ring packet (S6) carries its ring as a set"
                                + " of 17 bytes and a flat provenance of 20 bytes: 40 header + 17 set + 20 provenance + 1032 payload + 16 tag = 1125 bytes,"
                                + " more than the smallest link MTU of 1124 bytes"),
                p::toString);
        load(allreduce("hierarchical", 1125)
                .replace("chunk = 256 }", "chunk = 256, type = int32 }\n  security { checksum = on }"));
    }

    /** k=8: a source's data names its 127 receivers, 112 bytes as a node list of 7-bit ids; a BIER-INC reduction back to its owner too. */
    private static String multicastAndInc(int packet, int chunk) {
        return """
                topology { generator { kind = fat-tree, k = 8 } }
                jobs = [{
                  name = cp, kind = reliable-multicast, source = h1, receivers = all, encoding = node-list
                  data { bytes = 64KiB, packet = %d }
                }, {
                  name = inc, kind = bier-inc, tenant = 2, members = all, encoding = node-list
                  data { elements = 4096, chunk = %d }
                }]
                """.formatted(packet, chunk);
    }

    @Test
    void aMulticastsDataAndAnIncReductionAreHeldToTheSetsTheyCarry() throws Exception {
        List<String> p = problems(multicastAndInc(4000, 1000));
        assertEquals(2, p.size(), p::toString);
        assertTrue(
                p.get(0)
                        .contains(
                                "job cp (ina): a multicast packet on link h1 -> edge-1-1 carries 127 endpoints as a node-list set of"
                                        + " 112 bytes: 40 header + 112 set + 4000 payload + 16 tag = 4168 bytes"),
                p::toString);
        // the reduction climbs back to each owner along the tree its forward packets built: all the others' bits on the
        // owner's link
        assertTrue(
                p.get(1)
                        .matches(
                                ".*job inc \\(ina\\): an aggregation packet on link edge-\\d+-\\d+ -> h\\d+ carries 127 endpoints .*"),
                p::toString);
        load(multicastAndInc(3900, 960));
    }

    @Test
    void theLargestSetOfAtMostKEndpointsTakesOneFromEachBlockFirst() {
        FlatBitmap all = FlatBitmap.full(512);
        assertEquals(3, WireBudget.setBytes(all, 2, new EncodingSpec(Encoding.NODE_LIST, 1)));
        assertEquals(64, WireBudget.setBytes(all, 2, EncodingSpec.FLAT));
        // 16 blocks of 32: the upper bitmap (16 bits) and two selected blocks (64 bits), not one block holding both
        assertEquals(10, WireBudget.setBytes(all, 2, new EncodingSpec(Encoding.HIERARCHICAL, 32)));
        FlatBitmap oneBlock = FlatBitmap.of(512, 0, 1, 2, 3);
        assertEquals(6, WireBudget.setBytes(oneBlock, 2, new EncodingSpec(Encoding.HIERARCHICAL, 32)));
    }
}
