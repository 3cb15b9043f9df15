package org.bitina.workload.chakra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.bitina.workload.Dtype;
import org.bitina.workload.GpuSpec;
import org.bitina.workload.ModelExpansion;
import org.bitina.workload.ModelSpec;
import org.bitina.workload.Parallelism;
import org.bitina.workload.Sharding;
import org.bitina.workload.Step;
import org.bitina.workload.StepGraph;
import org.bitina.workload.WorkloadSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model-description graph written as Chakra traces reads back as the same graph. */
class ChakraRoundTripTest {
    private static final ModelSpec MOE =
            new ModelSpec(4, 64, 256, 1000, 128, 2, Dtype.BF16, Optional.of(new ModelSpec.MoeSpec(8, 2, 2)));

    /** Each step by name: what it does and the names of what it waits for (ids are the importer's own). */
    private record Canonical(Step.Op op, Set<String> data, Set<String> ctrl) {}

    private static Map<String, Canonical> canonical(StepGraph g) {
        Map<Integer, String> names = g.steps().stream().collect(Collectors.toMap(Step::id, Step::name));
        Map<String, Canonical> out = new TreeMap<>();
        for (Step s : g.steps()) {
            out.put(
                    s.name(),
                    new Canonical(
                            s.op(),
                            s.dataDeps().stream().map(names::get).collect(Collectors.toSet()),
                            s.ctrlDeps().stream().map(names::get).collect(Collectors.toSet())));
        }
        return out;
    }

    private static void roundTrip(WorkloadSource.Model w, Path dir) throws Exception {
        StepGraph g = ModelExpansion.expand(w);
        ChakraWriter.write(g, dir);
        ChakraImport back = ChakraReader.read(dir);
        assertEquals(Map.of(), back.skipped());
        assertEquals(g.worldSize(), back.graph().worldSize());
        assertEquals(g.steps().size(), back.graph().steps().size());
        assertEquals(canonical(g), canonical(back.graph()));
    }

    @Test
    void moeWithExpertAndDataParallelismRoundTrips(@TempDir Path dir) throws Exception {
        roundTrip(
                new WorkloadSource.Model(
                        MOE, new Parallelism(4, 2, 1), new GpuSpec(400, 0.5), 2, 100_000, false, Sharding.NONE),
                dir);
    }

    @Test
    void fsdpWithTensorParallelismRoundTrips(@TempDir Path dir) throws Exception {
        roundTrip(
                new WorkloadSource.Model(
                        MOE, new Parallelism(4, 2, 2), new GpuSpec(400, 0.5), 1, 100_000, true, Sharding.FSDP),
                dir);
    }
}
