package org.bitina.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.bitina.scenario.Scenario;
import org.bitina.workload.StepGraph;
import org.bitina.workload.StepScheduler;
import org.bitina.workload.chakra.ChakraWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina workload export --chakra DIR FILE}: writes the iteration FILE's model-description
 * workload expands to as Chakra traces, one per rank (docs/workloads.md). It reads only the
 * scenario as {@code run} does (includes, {@code --set}); a workload of Chakra traces is written out again.
 */
@Command(
        name = "workload",
        mixinStandardHelpOptions = true,
        description = "Workloads: export a model description's iteration as Chakra traces.",
        subcommands = {WorkloadCommand.Export.class})
final class WorkloadCommand implements Runnable {
    @Override
    public void run() {
        System.err.println("bitina workload: name a command: export");
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Writes one iteration of FILE's workload as Chakra traces (bitina.RANK.et) into DIR.")
    static final class Export implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", description = "a scenario file with a workload section")
        Path file;

        @Option(names = "--chakra", paramLabel = "DIR", required = true, description = "where to write the traces")
        Path dir;

        @Option(
                names = "--set",
                paramLabel = "PATH=VALUE",
                description = "change the scenario before it is read (repeatable; as for run)")
        List<String> sets;

        @Override
        public Integer call() throws IOException {
            // the whole file as run reads it: includes, --set, every section validated
            Scenario s = CliScenario.load(file, sets);
            if (s == null) {
                return ExitCodes.INVALID_SCENARIO;
            }
            if (!(s.schedule().rule().orElse(null) instanceof StepScheduler.Plan plan)) {
                System.err.println(file + ": no workload section");
                return ExitCodes.INVALID_SCENARIO;
            }
            StepGraph graph = plan.graph();
            ChakraWriter.write(graph, dir);
            System.out.println(
                    "chakra: " + graph.worldSize() + " traces, " + graph.steps().size() + " steps, in " + dir);
            return ExitCodes.OK;
        }
    }
}
