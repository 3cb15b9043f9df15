package org.bitina.workload.chakra;

import static org.bitina.workload.chakra.RawTrace.ALL_REDUCE;
import static org.bitina.workload.chakra.RawTrace.COMM_COLL_NODE;
import static org.bitina.workload.chakra.RawTrace.COMM_RECV_NODE;
import static org.bitina.workload.chakra.RawTrace.COMM_SEND_NODE;
import static org.bitina.workload.chakra.RawTrace.COMP_NODE;
import static org.bitina.workload.chakra.RawTrace.METADATA_NODE;
import static org.bitina.workload.chakra.RawTrace.META_VERSION;
import static org.bitina.workload.chakra.RawTrace.NODE_ATTR;
import static org.bitina.workload.chakra.RawTrace.NODE_DATA_DEPS;
import static org.bitina.workload.chakra.RawTrace.NODE_DURATION_MICROS;
import static org.bitina.workload.chakra.RawTrace.int32Attr;
import static org.bitina.workload.chakra.RawTrace.intAttr;
import static org.bitina.workload.chakra.RawTrace.message;
import static org.bitina.workload.chakra.RawTrace.node;
import static org.bitina.workload.chakra.RawTrace.stringAttr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitina.run.IterationReport;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chakra traces another tool wrote (W2), run on the fabric: four ranks, built field by field from
 * the public schema's numbers ({@link RawTrace}), each computing 20 us, then an AllReduce of 256 KiB
 * over every rank (no {@code pg_name}), beside a 30 us backward that overlaps it, then an AllGather
 * over ranks 0 and 1 ({@code pg_name = "pair"}) after both.
 */
class ChakraRunTest {
    private static final Path RESOURCES = Path.of("src/test/resources/chakra/run4");
    private static final int ALL_GATHER = 2;

    static byte[] rank(int r) {
        RawTrace t = new RawTrace()
                .delimited(message().string(META_VERSION, "0.0.4"))
                .delimited(node(1, "fwd", COMP_NODE).varint(NODE_DURATION_MICROS, 20))
                .delimited(node(2, "grad", COMM_COLL_NODE)
                        .packed(NODE_DATA_DEPS, List.of(1L))
                        .message(NODE_ATTR, intAttr("comm_type", ALL_REDUCE))
                        .message(NODE_ATTR, intAttr("comm_size", 256 << 10)))
                .delimited(node(3, "bwd", COMP_NODE)
                        .varint(NODE_DURATION_MICROS, 30)
                        .packed(NODE_DATA_DEPS, List.of(1L)))
                .delimited(node(4, "meta", METADATA_NODE).packed(NODE_DATA_DEPS, List.of(3L)));
        if (r < 2) {
            t.delimited(node(5, "params", COMM_COLL_NODE)
                    .packed(NODE_DATA_DEPS, List.of(2L, 4L))
                    .message(NODE_ATTR, intAttr("comm_type", ALL_GATHER))
                    .message(NODE_ATTR, intAttr("comm_size", 64 << 10))
                    .message(NODE_ATTR, stringAttr("pg_name", "pair")));
        }
        return t.bytes();
    }

    @Test
    void theTracesInTheResourcesAreTheOnesBuiltHere() throws IOException {
        if (Boolean.getBoolean("bitina.regenerate")) {
            Files.createDirectories(RESOURCES);
            for (int r = 0; r < 4; r++) {
                Files.write(RESOURCES.resolve("trace." + r + ".et"), rank(r));
            }
        }
        for (int r = 0; r < 4; r++) {
            assertArrayEquals(rank(r), Files.readAllBytes(RESOURCES.resolve("trace." + r + ".et")));
        }
    }

    @Test
    void aHandBuiltTraceRunsItsCollectivesVerifiedWithTheComputeBetweenThem(@TempDir Path dir)
            throws IOException, ScenarioException {
        Path traces = Path.of("src/test/resources/chakra/run4").toAbsolutePath();
        Path file = dir.resolve("chakra.conf");
        Files.writeString(file, """
                topology { generator { kind = fat-tree, k = 4 } }
                workload { chakra = "%s" }
                """.formatted(traces));
        Report r = ScenarioRunner.run(ScenarioLoader.load(file), ScenarioRunner.Options.defaults(), new RunProgress());
        // per world: the AllReduce and the AllGather
        assertEquals(4, r.jobs().size());
        for (Report.JobReport j : r.jobs()) {
            assertTrue(j.verified() && j.asExpected(), j.name() + " " + j.mode() + j.note());
        }
        for (IterationReport it : r.iterations()) {
            // every rank computes 20 + 30 us; the AllReduce overlaps the 30 us of backward
            assertEquals(50.0, it.computeMicros(), 1e-9);
            Report.JobReport ar = r.jobs().stream()
                    .filter(j ->
                            j.kind().equals("allreduce") && j.shared().world().equals(it.world()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(20.0, ar.shared().startMicros(), 1e-9, "the AllReduce starts when fwd ends");
            Report.JobReport ag = r.jobs().stream()
                    .filter(j ->
                            j.kind().equals("all-gather") && j.shared().world().equals(it.world()))
                    .findFirst()
                    .orElseThrow();
            assertTrue(ag.shared().startMicros() >= Math.max(ar.shared().endMicros(), 50.0), ag.shared() + "");
            assertEquals(ag.shared().endMicros(), it.iterationMicros(), 1e-9, "the AllGather ends the iteration");
            assertEquals(2, it.collectives().size());
            assertEquals(256 << 10, it.collectives().get("ALL_REDUCE").bytes());
        }
    }

    @Test
    void aTraceWithPointToPointTransfersIsRefusedClearly(@TempDir Path dir) throws IOException {
        for (int r = 0; r < 2; r++) {
            Files.write(
                    dir.resolve("t." + r + ".et"),
                    new RawTrace()
                            .delimited(message().string(META_VERSION, "0.0.4"))
                            .delimited(node(1, "send", COMM_SEND_NODE)
                                    .message(NODE_ATTR, int32Attr("comm_dst", 1 - r))
                                    .message(NODE_ATTR, intAttr("comm_size", 4096))
                                    .message(NODE_ATTR, int32Attr("comm_tag", 7)))
                            .delimited(node(2, "recv", COMM_RECV_NODE)
                                    .message(NODE_ATTR, int32Attr("comm_src", 1 - r))
                                    .message(NODE_ATTR, intAttr("comm_size", 4096))
                                    .message(NODE_ATTR, int32Attr("comm_tag", 7)))
                            .bytes());
        }
        Path file = dir.resolve("p2p.conf");
        Files.writeString(file, """
                topology { generator { kind = fat-tree, k = 4 } }
                workload { chakra = "." }
                """);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file));
        assertTrue(e.getMessage().contains("not broadcasts, reduces or point-to-point transfers"), e.getMessage());
    }
}
