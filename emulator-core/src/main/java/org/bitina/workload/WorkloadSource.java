package org.bitina.workload;

import java.nio.file.Path;

/** Where a workload's steps come from: a model description or a directory of Chakra traces. */
public sealed interface WorkloadSource {

    /** A model description, expanded by {@link ModelExpansion}. */
    record Model(
            ModelSpec model,
            Parallelism parallel,
            GpuSpec gpu,
            int microBatches,
            long bucketBytes,
            boolean overlap,
            Sharding sharding)
            implements WorkloadSource {}

    /** One {@code *.et} file per rank in {@code directory} (relative to the scenario file as written). */
    record Chakra(Path directory) implements WorkloadSource {}
}
