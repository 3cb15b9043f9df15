package org.bitina.workload.chakra;

import java.util.Map;
import java.util.TreeMap;
import org.bitina.workload.StepGraph;

/**
 * What reading a directory of Chakra traces gave: the step graph, and how many nodes of each kind
 * it skipped because they are nothing the fabric runs (metadata, memory, unknown node types,
 * collectives such as GATHER or BARRIER that the graph has no step for).
 */
public record ChakraImport(StepGraph graph, Map<String, Integer> skipped) {
    public ChakraImport {
        skipped = Map.copyOf(new TreeMap<>(skipped));
    }

    public int skippedTotal() {
        return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }
}
