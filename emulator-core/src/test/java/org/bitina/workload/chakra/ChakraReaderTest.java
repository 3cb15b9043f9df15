package org.bitina.workload.chakra;

import static org.bitina.workload.chakra.RawTrace.ALL_REDUCE;
import static org.bitina.workload.chakra.RawTrace.COMM_COLL_NODE;
import static org.bitina.workload.chakra.RawTrace.COMM_RECV_NODE;
import static org.bitina.workload.chakra.RawTrace.COMM_SEND_NODE;
import static org.bitina.workload.chakra.RawTrace.COMP_NODE;
import static org.bitina.workload.chakra.RawTrace.GATHER;
import static org.bitina.workload.chakra.RawTrace.METADATA_NODE;
import static org.bitina.workload.chakra.RawTrace.META_VERSION;
import static org.bitina.workload.chakra.RawTrace.NODE_ATTR;
import static org.bitina.workload.chakra.RawTrace.NODE_CTRL_DEPS;
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
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bitina.workload.ProcessGroup;
import org.bitina.workload.Step;
import org.bitina.workload.StepGraph;
import org.bitina.workload.StepType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChakraReaderTest {
    private static final Path RESOURCES = Path.of("src/test/resources/chakra/handbuilt");

    /** Two ranks as another tool would write them: compute, an AllReduce, a send and a receive, and nodes to skip. */
    static byte[] rank0() {
        return new RawTrace()
                .delimited(message().string(META_VERSION, "0.0.4"))
                .delimited(node(1, "fwd", COMP_NODE).varint(NODE_DURATION_MICROS, 10))
                .delimited(node(2, "meta", METADATA_NODE).packed(NODE_DATA_DEPS, List.of(1L)))
                .delimited(node(3, "ar", COMM_COLL_NODE)
                        .packed(NODE_DATA_DEPS, List.of(2L))
                        .message(NODE_ATTR, intAttr("comm_type", ALL_REDUCE))
                        .message(NODE_ATTR, intAttr("comm_size", 1 << 20))
                        .message(NODE_ATTR, stringAttr("pg_name", "dp")))
                .delimited(node(4, "mystery", 42).packed(NODE_CTRL_DEPS, List.of(3L)))
                .delimited(node(5, "send", COMM_SEND_NODE)
                        .unpacked(NODE_CTRL_DEPS, List.of(4L))
                        .message(NODE_ATTR, int32Attr("comm_dst", 1))
                        .message(NODE_ATTR, intAttr("comm_size", 4096))
                        .message(NODE_ATTR, int32Attr("comm_tag", 7)))
                .bytes();
    }

    static byte[] rank1() {
        return new RawTrace()
                .delimited(message().string(META_VERSION, "0.0.4"))
                .delimited(node(10, "fwd1", COMP_NODE).varint(NODE_DURATION_MICROS, 20))
                .delimited(node(11, "ar1", COMM_COLL_NODE)
                        .unpacked(NODE_DATA_DEPS, List.of(10L))
                        .message(NODE_ATTR, intAttr("comm_type", ALL_REDUCE))
                        .message(NODE_ATTR, intAttr("comm_size", 1 << 20))
                        .message(NODE_ATTR, stringAttr("pg_name", "dp")))
                .delimited(node(12, "gather", COMM_COLL_NODE)
                        .message(NODE_ATTR, intAttr("comm_type", GATHER))
                        .message(NODE_ATTR, intAttr("comm_size", 10)))
                .delimited(node(13, "recv", COMM_RECV_NODE)
                        .packed(NODE_DATA_DEPS, List.of(11L, 12L))
                        .message(NODE_ATTR, int32Attr("comm_src", 0))
                        .message(NODE_ATTR, intAttr("comm_size", 4096))
                        .message(NODE_ATTR, int32Attr("comm_tag", 7)))
                .bytes();
    }

    @Test
    void theHandBuiltTracesInTheResourcesAreTheOnesBuiltHere() throws IOException {
        if (Boolean.getBoolean("bitina.regenerate")) {
            Files.createDirectories(RESOURCES);
            Files.write(RESOURCES.resolve("trace.0.et"), rank0());
            Files.write(RESOURCES.resolve("trace.1.et"), rank1());
        }
        assertArrayEquals(rank0(), Files.readAllBytes(RESOURCES.resolve("trace.0.et")));
        assertArrayEquals(rank1(), Files.readAllBytes(RESOURCES.resolve("trace.1.et")));
    }

    @Test
    void readsAHandBuiltTraceOfTwoRanks() throws Exception {
        Path dir = Path.of(getClass().getResource("/chakra/handbuilt").toURI());
        ChakraImport in = ChakraReader.read(dir);
        assertEquals(Map.of("METADATA_NODE", 1, "node type 42", 1, "COMM_COLL_NODE GATHER", 1), in.skipped());
        StepGraph g = in.graph();
        assertEquals(2, g.worldSize());
        assertEquals(5, g.steps().size());
        Step fwd = named(g, "fwd");
        Step fwd1 = named(g, "fwd1");
        Step ar = named(g, "ar");
        assertEquals(new Step.Compute(0, 10_000), fwd.op());
        assertEquals(new Step.Compute(1, 20_000), fwd1.op());
        assertEquals(new Step.Collective(StepType.ALL_REDUCE, new ProcessGroup("dp", List.of(0, 1)), 1 << 20), ar.op());
        // through the skipped metadata node on rank 0, straight on rank 1
        assertEquals(Set.of(fwd.id(), fwd1.id()), Set.copyOf(ar.dataDeps()));
        Step send = named(g, "send");
        assertEquals(new Step.Transfer(StepType.SEND, 0, 1, 4096, 7), send.op());
        // through the unknown node type
        assertEquals(List.of(ar.id()), send.ctrlDeps());
        Step recv = named(g, "recv");
        assertEquals(new Step.Transfer(StepType.RECV, 1, 0, 4096, 7), recv.op());
        assertEquals(List.of(ar.id()), recv.dataDeps());
    }

    private static Step named(StepGraph g, String name) {
        return g.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static String failure(Path dir) {
        return assertThrows(ChakraTraceException.class, () -> ChakraReader.read(dir))
                .getMessage();
    }

    private static RawTrace withMetadata() {
        return new RawTrace().delimited(message().string(META_VERSION, "1.0.0"));
    }

    @Test
    void aMessageRunningPastTheEndIsAnErrorAtItsOffset(@TempDir Path dir) throws IOException {
        byte[] ok = withMetadata().bytes();
        Files.write(
                dir.resolve("t.0.et"),
                withMetadata().raw(new byte[] {100, 1, 2, 3}).bytes());
        assertEquals(
                dir.resolve("t.0.et") + ": offset " + ok.length
                        + ": a message of 100 bytes runs past the end of the file (" + (ok.length + 4) + " bytes)",
                failure(dir));
    }

    @Test
    void aNodeThatIsNotProtobufIsAnErrorAtItsOffset(@TempDir Path dir) throws IOException {
        byte[] ok = withMetadata().bytes();
        Files.write(
                dir.resolve("t.0.et"),
                withMetadata()
                        .raw(new byte[] {3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF})
                        .bytes());
        String m = failure(dir);
        assertTrue(m.startsWith(dir.resolve("t.0.et") + ": offset " + ok.length + ": not a Node message"), m);
    }

    @Test
    void aCollectiveWithoutSizeIsAnError(@TempDir Path dir) throws IOException {
        Files.write(
                dir.resolve("t.0.et"),
                withMetadata()
                        .delimited(node(1, "ar", COMM_COLL_NODE).message(NODE_ATTR, intAttr("comm_type", ALL_REDUCE)))
                        .bytes());
        assertTrue(failure(dir).endsWith(": node 1: missing attribute comm_size"));
    }

    @Test
    void aDependencyOnANodeTheFileLacksIsAnError(@TempDir Path dir) throws IOException {
        Files.write(
                dir.resolve("t.0.et"),
                withMetadata()
                        .delimited(node(1, "c", COMP_NODE).packed(NODE_DATA_DEPS, List.of(9L)))
                        .bytes());
        assertTrue(failure(dir).endsWith(": node 1 depends on node 9, which the file does not have"));
    }

    @Test
    void copiesOfOneCollectiveMustAgree(@TempDir Path dir) throws IOException {
        for (int r = 0; r < 2; r++) {
            Files.write(
                    dir.resolve("t." + r + ".et"),
                    withMetadata()
                            .delimited(node(1, "ar", COMM_COLL_NODE)
                                    .message(NODE_ATTR, intAttr("comm_type", ALL_REDUCE))
                                    .message(NODE_ATTR, intAttr("comm_size", 100 + r)))
                            .bytes());
        }
        String m = failure(dir);
        assertTrue(m.contains("is collective 1 on group world, ALL_REDUCE of 101 bytes"), m);
    }

    @Test
    void ranksMustBeNumberedFromZero(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("t.1.et"), withMetadata().bytes());
        assertTrue(failure(dir).endsWith("1 trace files but none for rank 0 (ranks must be 0..0)"));
        Files.write(dir.resolve("empty.0.et"), new byte[0]);
        assertTrue(failure(dir).endsWith("empty, a trace starts with a GlobalMetadata"));
    }

    @Test
    void anyDamageIsAnErrorNeverACrash(@TempDir Path dir) throws IOException, URISyntaxException {
        byte[] good = rank0();
        Random random = new Random(29);
        for (int i = 0; i < 300; i++) {
            byte[] bad = good.clone();
            for (int k = 0; k < 1 + random.nextInt(3); k++) {
                bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
            }
            byte[] cut = i % 3 == 0 ? Arrays.copyOf(bad, random.nextInt(bad.length)) : bad;
            Files.write(dir.resolve("t.0.et"), cut);
            Files.write(dir.resolve("t.1.et"), rank1());
            try {
                ChakraReader.read(dir);
            } catch (ChakraTraceException e) {
                assertTrue(e.getMessage().startsWith(dir.toString()), e.getMessage());
            }
        }
    }
}
