package org.bitina.node;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.bitina.scenario.Scenario;
import org.bitina.usecases.FaultTimes;
import org.bitina.workload.StepScheduler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code bitina validate FILE}: 0 for a valid scenario, 2 with FILE:LINE: lines otherwise. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = "Checks a scenario file without running it; prints FILE:LINE: message for each problem.")
final class ValidateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "scenario file (HOCON)")
    Path file;

    @picocli.CommandLine.Option(
            names = "--set",
            paramLabel = "PATH=VALUE",
            description = "change the scenario before it is validated " + "(repeatable; as for run)")
    List<String> sets;

    @Override
    public Integer call() {
        Scenario s = CliScenario.load(file, sets);
        if (s == null) {
            return ExitCodes.INVALID_SCENARIO;
        }
        System.out.printf(
                "%s: valid: %d switches, %d hosts, %d links, %d jobs, %d faults%n",
                s.file(),
                s.topology().switches().size(),
                s.topology().hosts().size(),
                s.topology().links().size(),
                s.jobs().size(),
                s.faults().size());
        // a Chakra trace's nodes that run nothing: counted by kind, never dropped unsaid
        s.schedule()
                .rule()
                .flatMap(rule -> StepScheduler.Plan.skippedLine(rule.skipped()))
                .ifPresent(l -> System.out.println(s.file() + ": " + l));
        // a warning, not a problem: the file is valid, but these faults would never apply
        try {
            for (FaultTimes.Late late : FaultTimes.late(s)) {
                System.err.println(s.file() + ": " + late.describe());
            }
        } catch (RuntimeException e) {
            // the file is valid; only the estimate could not be made (a plan the run itself would refuse)
            System.err.println(
                    s.file() + ": warning: the fault times were not checked against the phases: " + e.getMessage());
        }
        return ExitCodes.OK;
    }
}
