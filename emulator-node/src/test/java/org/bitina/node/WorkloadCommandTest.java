package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.bitina.workload.Dtype;
import org.bitina.workload.GpuSpec;
import org.bitina.workload.ModelExpansion;
import org.bitina.workload.ModelSpec;
import org.bitina.workload.Parallelism;
import org.bitina.workload.Sharding;
import org.bitina.workload.StepGraph;
import org.bitina.workload.WorkloadSource;
import org.bitina.workload.chakra.ChakraImport;
import org.bitina.workload.chakra.ChakraReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadCommandTest {
    @Test
    void exportWritesTheExpandedIterationAsChakraTraces(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("w.conf");
        // the gpu comes from an include and the layers from --set: the file as run reads it
        Files.writeString(tmp.resolve("gpu.conf"), "workload.gpu { tflops = 100 }\n");
        Files.writeString(file, """
                include "gpu"
                topology { generator { kind = fat-tree, k = 4 } }
                workload {
                  model { layers = 2, hidden = 64, ffn = 128, vocab = 100, seq = 32, moe { experts = 4, top-k = 1 } }
                  parallel { dp = 4, ep = 2 }
                }
                """);
        Path out = tmp.resolve("traces");
        assertEquals(
                ExitCodes.OK,
                Main.execute(
                        "workload",
                        "export",
                        "--chakra",
                        out.toString(),
                        "--set",
                        "workload.model.layers=1",
                        file.toString()));
        StepGraph expected = ModelExpansion.expand(new WorkloadSource.Model(
                new ModelSpec(1, 64, 128, 100, 32, 1, Dtype.BF16, Optional.of(new ModelSpec.MoeSpec(4, 1, 1))),
                new Parallelism(4, 2, 1),
                new GpuSpec(100, 0.5),
                1,
                25L << 20,
                true,
                Sharding.NONE));
        ChakraImport back = ChakraReader.read(out);
        assertEquals(4, back.graph().worldSize());
        assertEquals(expected.steps().size(), back.graph().steps().size());
    }

    @Test
    void anInvalidWorkloadIsReportedAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("w.conf");
        Files.writeString(
                file, "topology { generator { kind = fat-tree, k = 4 } }\nworkload {\n  model { layers = 2 }\n}\n");
        Path out = tmp.resolve("traces");
        assertEquals(
                ExitCodes.INVALID_SCENARIO,
                Main.execute("workload", "export", "--chakra", out.toString(), file.toString()));
        assertEquals(false, Files.exists(out));
    }
}
