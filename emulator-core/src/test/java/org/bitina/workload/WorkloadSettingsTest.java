package org.bitina.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.Problem;
import org.bitina.scenario.Problems;
import org.junit.jupiter.api.Test;

class WorkloadSettingsTest {
    private Problems problems;

    private WorkloadSettings read(String text) {
        problems = new Problems(Path.of("w.conf"));
        Config root = ConfigFactory.parseString(text);
        return WorkloadSettings.fromConfig(ConfigReader.of(root.getConfig("workload"), "workload.", problems));
    }

    private List<String> messages() {
        return problems.sorted().stream().map(Problem::toString).toList();
    }

    @Test
    void readsTheIssuesExampleSection() {
        WorkloadSettings s = read("""
                workload {
                  model { layers = 32, hidden = 4096, ffn = 14336, vocab = 32000, seq = 4096, micro-batch = 1, dtype = bf16,
                          moe { experts = 64, top-k = 2, every = 2 } }
                  parallel { dp = 16, ep = 8, tp = 1 }
                  gpu { tflops = 400, efficiency = 0.5 }
                  iterations = 2, bucket = 25MiB, overlap = true
                }
                """);
        assertTrue(problems.isEmpty(), () -> messages().toString());
        WorkloadSource.Model m = (WorkloadSource.Model) s.source();
        assertEquals(
                new ModelSpec(
                        32, 4096, 14336, 32000, 4096, 1, Dtype.BF16, Optional.of(new ModelSpec.MoeSpec(64, 2, 2))),
                m.model());
        assertEquals(new Parallelism(16, 8, 1), m.parallel());
        assertEquals(new GpuSpec(400, 0.5), m.gpu());
        assertEquals(25L << 20, m.bucketBytes());
        assertTrue(m.overlap());
        assertEquals(Sharding.NONE, m.sharding());
        assertEquals(1, m.microBatches());
        assertEquals(2, s.iterations());
        assertEquals(List.of(), s.ranks());
    }

    @Test
    void readsChakraAndRanks() {
        WorkloadSettings s = read("workload { chakra = \"traces/\", ranks = [h2, h1], iterations = 3 }");
        assertTrue(problems.isEmpty(), () -> messages().toString());
        assertEquals(new WorkloadSource.Chakra(Path.of("traces/")), s.source());
        assertEquals(List.of("h2", "h1"), s.ranks());
        assertEquals(3, s.iterations());
    }

    @Test
    void reportsEveryProblemAtItsLine() {
        WorkloadSettings s = read("""
                workload {
                  model { layers = 4, hidden = 64, ffn = 256, vocab = 1000, seq = 16, dtype = bf17
                          moe { experts = 6, top-k = 8 } }
                  parallel { dp = 6, ep = 4 }
                  gpu { tflops = 100, efficiency = 1.5 }
                  sharding = zero
                  colour = blue
                }
                """);
        assertNull(s);
        List<String> m = messages();
        assertTrue(
                m.contains("w.conf:2: workload.model.dtype must be fp8 or bf16 or fp16 or fp32, got 'bf17'"),
                m::toString);
        assertTrue(m.contains("w.conf:3: workload.model.moe.top-k (8) exceeds experts (6)"), m::toString);
        assertTrue(m.contains("w.conf:4: workload.parallel.ep (4) must divide dp (6)"), m::toString);
        assertTrue(m.contains("w.conf:5: workload.gpu.efficiency must be at most 1, got 1.5"), m::toString);
        assertTrue(m.contains("w.conf:6: workload.sharding must be none or fsdp, got 'zero'"), m::toString);
        assertTrue(m.stream().anyMatch(p -> p.startsWith("w.conf:7: unknown key 'colour' in workload")), m::toString);
    }

    @Test
    void checksThatTheDimensionsFitTheParallelism() {
        assertNull(read("""
                workload {
                  model { layers = 4, hidden = 64, ffn = 250, vocab = 1000, seq = 16, moe { experts = 6, top-k = 2 } }
                  parallel { dp = 4, ep = 4, tp = 4 }
                  gpu { tflops = 100 }
                  ranks = [h1, h2]
                }
                """));
        List<String> m = messages();
        assertTrue(m.contains("w.conf:2: workload.model.ffn (250) must be a multiple of parallel.tp (4)"), m::toString);
        assertTrue(
                m.contains("w.conf:2: workload.model.moe.experts (6) must be a multiple of parallel.ep (4)"),
                m::toString);
        assertTrue(m.contains("w.conf:5: workload.ranks names 2 hosts, the model has dp x tp = 16 ranks"), m::toString);
    }

    @Test
    void needsAModelOrTraces() {
        assertNull(read("workload {\n iterations = 2\n}"));
        assertEquals(List.of("w.conf:1: workload needs a model { ... } or chakra = \"DIR\""), messages());
        assertNull(read("workload {\n chakra = \"t/\"\n bucket = 1MiB\n}"));
        assertEquals(
                List.of("w.conf:3: workload.bucket is for a model description, not for chakra traces"), messages());
        assertNull(read("workload {\n model { layers = 1, hidden = 8, ffn = 8, vocab = 8, seq = 8 }\n}"));
        assertEquals(List.of("w.conf:2: missing workload.gpu { tflops = ... }"), messages());
        assertNull(
                read(
                        "workload {\n model { layers = 1, hidden = 8, ffn = 8, vocab = 8, seq = 8 }\n parallel { ep = 2, dp = 2 }\n gpu { tflops = 1 }\n}"));
        assertEquals(List.of("w.conf:3: workload.parallel.ep = 2 needs a model.moe { ... }"), messages());
    }

    @Test
    void placesRanksInHostOrderOrAsListed() {
        assertEquals(List.of("h1", "h2"), RankPlacement.hosts(List.of(), List.of("h1", "h2", "h3"), 2));
        assertEquals(List.of("h3", "h1"), RankPlacement.hosts(List.of("h3", "h1"), List.of("h1", "h2", "h3"), 2));
        assertNotNull(assertThrowsMessage(() -> RankPlacement.hosts(List.of(), List.of("h1"), 2), "only 1 hosts"));
        assertNotNull(
                assertThrowsMessage(() -> RankPlacement.hosts(List.of("h9", "h1"), List.of("h1", "h2"), 2), "'h9'"));
    }

    private static String assertThrowsMessage(Runnable r, String part) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
            return e.getMessage();
        }
        throw new AssertionError("no error");
    }
}
