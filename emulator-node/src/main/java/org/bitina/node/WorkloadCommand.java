package org.bitina.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.Problem;
import org.bitina.scenario.Problems;
import org.bitina.workload.ModelExpansion;
import org.bitina.workload.StepGraph;
import org.bitina.workload.WorkloadSettings;
import org.bitina.workload.WorkloadSource;
import org.bitina.workload.chakra.ChakraWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina workload export --chakra DIR FILE}: writes the iteration FILE's model-description
 * workload expands to as Chakra traces, one per rank (docs/workloads.md). It reads only the
 * {@code workload} section: the scenario loader does not take that section yet.
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
        @Parameters(paramLabel = "FILE", description = "a scenario file with a workload { model { ... } } section")
        Path file;

        @Option(names = "--chakra", paramLabel = "DIR", required = true, description = "where to write the traces")
        Path dir;

        @Override
        public Integer call() throws IOException {
            Config root;
            try {
                root = ConfigFactory.parseFile(file.toFile()).resolve();
            } catch (ConfigException e) {
                System.err.println("bitina workload export: " + e.getMessage());
                return ExitCodes.INVALID_SCENARIO;
            }
            Problems problems = new Problems(file);
            if (!root.hasPath("workload")) {
                problems.add(root.origin(), "no workload section");
            }
            WorkloadSettings settings = problems.isEmpty()
                    ? WorkloadSettings.fromConfig(ConfigReader.of(root.getConfig("workload"), "workload.", problems))
                    : null;
            if (settings != null && !(settings.source() instanceof WorkloadSource.Model)) {
                problems.add(root.getValue("workload").origin(), "the workload is Chakra traces already, not a model");
            }
            if (!problems.isEmpty()) {
                problems.sorted().stream().map(Problem::toString).forEach(System.err::println);
                return ExitCodes.INVALID_SCENARIO;
            }
            StepGraph graph = ModelExpansion.expand((WorkloadSource.Model) settings.source());
            ChakraWriter.write(graph, dir);
            System.out.println(
                    "chakra: " + graph.worldSize() + " traces, " + graph.steps().size() + " steps, in " + dir);
            return ExitCodes.OK;
        }
    }
}
