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
import java.util.Map;
import org.bitina.run.IterationReport;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.scenario.Schedule;
import org.bitina.workload.StepScheduler;
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
    private static final int REDUCE = 1;
    private static final int BROADCAST = 5;

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
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(),
                    j.name() + " " + j.mode() + j.outcome().note());
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
    void broadcastAndReduceRunAsBierIncCollectivesAgainstTheRingChain(@TempDir Path dir)
            throws IOException, ScenarioException {
        // four ranks: 10 us of compute, a Broadcast of 64 KiB from rank 0 (the world, no pg_name), then a
        // Reduce of 32 KiB to rank 2 over ranks 2 and 3 ("back": its first rank is the root)
        for (int r = 0; r < 4; r++) {
            RawTrace t = new RawTrace()
                    .delimited(message().string(META_VERSION, "0.0.4"))
                    .delimited(node(1, "fwd", COMP_NODE).varint(NODE_DURATION_MICROS, 10))
                    .delimited(node(2, "weights", COMM_COLL_NODE)
                            .packed(NODE_DATA_DEPS, List.of(1L))
                            .message(NODE_ATTR, intAttr("comm_type", BROADCAST))
                            .message(NODE_ATTR, intAttr("comm_size", 64 << 10)));
            if (r >= 2) {
                t.delimited(node(3, "loss", COMM_COLL_NODE)
                        .packed(NODE_DATA_DEPS, List.of(2L))
                        .message(NODE_ATTR, intAttr("comm_type", REDUCE))
                        .message(NODE_ATTR, intAttr("comm_size", 32 << 10))
                        .message(NODE_ATTR, stringAttr("pg_name", "back")));
            }
            Files.write(dir.resolve("t." + r + ".et"), t.bytes());
        }
        Report r = runTraces(dir);
        // per world: the Broadcast and the Reduce
        assertEquals(4, r.jobs().size(), r.jobs().toString());
        for (Report.JobReport j : r.jobs()) {
            assertEquals("bier-inc", j.kind());
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(),
                    j.name() + " " + j.mode() + j.outcome().note());
            assertEquals(
                    j.shared().world() == Schedule.World.INA ? "ina" : "ring",
                    j.mode().toString(),
                    "the baseline world runs NCCL's ring (a chain)");
            // a Reduce waits at its root alone, a Broadcast at every member
            assertEquals(
                    j.outcome().note().contains("Reduce") ? 1 : 4,
                    j.plan().endpoints(),
                    j.outcome().note());
        }
        for (IterationReport it : r.iterations()) {
            Report.JobReport bc = row(r, it.world(), "Broadcast from h1");
            Report.JobReport red = row(r, it.world(), "Reduce to h3");
            assertEquals(10.0, bc.shared().startMicros(), 1e-9, "the Broadcast starts when fwd ends");
            assertTrue(red.shared().startMicros() >= bc.shared().endMicros(), red.shared() + "");
            assertEquals(red.shared().endMicros(), it.iterationMicros(), 1e-9, "the Reduce ends the iteration");
            assertEquals(64 << 10, it.collectives().get("BROADCAST").bytes());
            assertEquals(32 << 10, it.collectives().get("REDUCE").bytes());
        }
    }

    /**
     * Issue 42 item 12: a collective of a {@code comm_type} this version does not know runs nothing,
     * and is counted by kind in the report (and so on the console and in validate), never dropped unsaid.
     */
    @Test
    void anUnknownCollectiveIsCountedByKindInTheReport(@TempDir Path dir) throws IOException, ScenarioException {
        for (int r = 0; r < 4; r++) {
            Files.write(
                    dir.resolve("u." + r + ".et"),
                    new RawTrace()
                            .delimited(message().string(META_VERSION, "0.0.4"))
                            .delimited(node(1, "odd", COMM_COLL_NODE)
                                    .message(NODE_ATTR, intAttr("comm_type", 99))
                                    .message(NODE_ATTR, intAttr("comm_size", 4096)))
                            .delimited(node(2, "weights", COMM_COLL_NODE)
                                    .packed(NODE_DATA_DEPS, List.of(1L))
                                    .message(NODE_ATTR, intAttr("comm_type", BROADCAST))
                                    .message(NODE_ATTR, intAttr("comm_size", 16 << 10)))
                            .bytes());
        }
        Report r = runTraces(dir);
        assertEquals(Map.of("COMM_COLL_NODE comm_type 99", 4), r.skippedTraceNodes());
        assertEquals(
                "trace nodes skipped (nothing the fabric runs, or a collective this version does not know):"
                        + " COMM_COLL_NODE comm_type 99 4",
                StepScheduler.Plan.skippedLine(r.skippedTraceNodes()).orElseThrow());
        assertEquals(2, r.jobs().size(), "the Broadcast in each world: " + r.jobs());
    }

    @Test
    void aSendAndItsRecvRunAsOneTransferAndTheRecvsDependentsWaitForIt(@TempDir Path dir)
            throws IOException, ScenarioException {
        // a two-stage pipeline: rank 0 computes 10 us and sends 64 KiB of activations to rank 1, which
        // computes 20 us on them and sends 16 KiB of gradients back; rank 0 computes 5 us on those
        Files.write(
                dir.resolve("pp.0.et"),
                new RawTrace()
                        .delimited(message().string(META_VERSION, "0.0.4"))
                        .delimited(node(1, "stage0 fwd", COMP_NODE).varint(NODE_DURATION_MICROS, 10))
                        .delimited(node(2, "send act", COMM_SEND_NODE)
                                .packed(NODE_DATA_DEPS, List.of(1L))
                                .message(NODE_ATTR, int32Attr("comm_dst", 1))
                                .message(NODE_ATTR, intAttr("comm_size", 64 << 10))
                                .message(NODE_ATTR, int32Attr("comm_tag", 1)))
                        .delimited(node(3, "recv grad", COMM_RECV_NODE)
                                .packed(NODE_DATA_DEPS, List.of(2L))
                                .message(NODE_ATTR, int32Attr("comm_src", 1))
                                .message(NODE_ATTR, intAttr("comm_size", 16 << 10))
                                .message(NODE_ATTR, int32Attr("comm_tag", 2)))
                        .delimited(node(4, "stage0 bwd", COMP_NODE)
                                .varint(NODE_DURATION_MICROS, 5)
                                .packed(NODE_DATA_DEPS, List.of(3L)))
                        .bytes());
        Files.write(
                dir.resolve("pp.1.et"),
                new RawTrace()
                        .delimited(message().string(META_VERSION, "0.0.4"))
                        .delimited(node(1, "recv act", COMM_RECV_NODE)
                                .message(NODE_ATTR, int32Attr("comm_src", 0))
                                .message(NODE_ATTR, intAttr("comm_size", 64 << 10))
                                .message(NODE_ATTR, int32Attr("comm_tag", 1)))
                        .delimited(node(2, "stage1", COMP_NODE)
                                .varint(NODE_DURATION_MICROS, 20)
                                .packed(NODE_DATA_DEPS, List.of(1L)))
                        .delimited(node(3, "send grad", COMM_SEND_NODE)
                                .packed(NODE_DATA_DEPS, List.of(2L))
                                .message(NODE_ATTR, int32Attr("comm_dst", 0))
                                .message(NODE_ATTR, intAttr("comm_size", 16 << 10))
                                .message(NODE_ATTR, int32Attr("comm_tag", 2)))
                        .bytes());
        Report r = runTraces(dir);
        assertEquals(4, r.jobs().size(), "per world: the two transfers");
        for (Report.JobReport j : r.jobs()) {
            assertTrue(
                    j.outcome().verified() && j.outcome().asExpected(),
                    j.name() + " " + j.mode() + j.outcome().note());
            assertEquals(2, j.plan().endpoints(), "the sender and its one receiver");
        }
        for (IterationReport it : r.iterations()) {
            Report.JobReport act = row(r, it.world(), "Broadcast from h1");
            Report.JobReport grad = row(r, it.world(), "Broadcast from h2");
            assertEquals(10.0, act.shared().startMicros(), 1e-9, "the send leaves when stage 0's compute ends");
            assertTrue(act.shared().endMicros() > act.shared().startMicros());
            // stage 1 computes from the activations' arrival, and its send leaves when it is done
            assertEquals(act.shared().endMicros() + 20, grad.shared().startMicros(), 1e-9);
            assertEquals(grad.shared().endMicros() + 5, it.iterationMicros(), 1e-9, "rank 0 ends after the grads");
            assertEquals(20.0, it.computeMicros(), 1e-9, "the longest rank's: rank 1's 20 us");
            assertEquals(
                    (64 << 10) + (16 << 10), it.collectives().get("SEND_RECV").bytes());
        }
    }

    @Test
    void aSendWithoutItsRecvIsRefusedClearly(@TempDir Path dir) throws IOException {
        for (int r = 0; r < 2; r++) {
            RawTrace t = new RawTrace()
                    .delimited(message().string(META_VERSION, "0.0.4"))
                    .delimited(node(1, "send", COMM_SEND_NODE)
                            .message(NODE_ATTR, int32Attr("comm_dst", 1 - r))
                            .message(NODE_ATTR, intAttr("comm_size", 4096))
                            .message(NODE_ATTR, int32Attr("comm_tag", 7)));
            if (r == 0) {
                t.delimited(node(2, "recv", COMM_RECV_NODE)
                        .message(NODE_ATTR, int32Attr("comm_src", 1))
                        .message(NODE_ATTR, intAttr("comm_size", 4096))
                        .message(NODE_ATTR, int32Attr("comm_tag", 7)));
            }
            Files.write(dir.resolve("t." + r + ".et"), t.bytes());
        }
        Path file = dir.resolve("p2p.conf");
        Files.writeString(file, """
                topology { generator { kind = fat-tree, k = 4 } }
                workload { chakra = "." }
                """);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file));
        assertTrue(
                e.getMessage().contains("a SEND from rank 0 to rank 1 with tag 7 has no matching RECV on rank 1"),
                e.getMessage());
    }

    private static Report runTraces(Path traces) throws IOException, ScenarioException {
        Path file = traces.resolve("run.conf");
        Files.writeString(file, """
                topology { generator { kind = fat-tree, k = 4 } }
                workload { chakra = "." }
                """);
        return ScenarioRunner.run(ScenarioLoader.load(file), ScenarioRunner.Options.defaults(), new RunProgress());
    }

    /** The row of {@code world} whose plan says {@code what} (one per world in these traces). */
    private static Report.JobReport row(Report r, Schedule.World world, String what) {
        return r.jobs().stream()
                .filter(j -> j.shared().world() == world && j.outcome().note().contains(what))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + what + " in " + world + ": " + r.jobs()));
    }
}
