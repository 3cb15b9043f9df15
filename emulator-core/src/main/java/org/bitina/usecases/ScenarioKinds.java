package org.bitina.usecases;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.JobKinds;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Topology;

/**
 * The use cases of {@link UseCases} as the scenario loader sees them; registered in
 * {@code META-INF/services/org.bitina.scenario.JobKinds}, so that the loader, below the use cases,
 * reaches them without naming one.
 */
public final class ScenarioKinds implements JobKinds {
    @Override
    public List<JobReader> readers() {
        return UseCases.readers();
    }

    @Override
    public long memoryBytes(JobSpec job) {
        return UseCases.memoryBytes(job);
    }

    @Override
    public List<String> unbuiltFaults(List<JobSpec> jobs, List<FaultSpec> faults) {
        return UseCases.unbuiltFaults(jobs, faults);
    }

    @Override
    public List<JobProblem> wireBudget(Scenario scenario) {
        return UseCases.wireBudget(scenario).stream()
                .map(e -> new JobProblem(e.job(), e.key(), e.message()))
                .toList();
    }

    @Override
    public Workload workload(ConfigReader workload, Topology topology, Path dir) {
        return WorkloadJobs.read(workload, topology, dir);
    }
}
