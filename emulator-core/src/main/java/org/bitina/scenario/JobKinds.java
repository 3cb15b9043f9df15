package org.bitina.scenario;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.bitina.job.JobSpec;
import org.bitina.topology.Topology;

/**
 * The kinds of job a scenario may have, as the loader sees them: how each is read, how much
 * heap a job needs, and what only its kind can find wrong with a whole scenario. The use cases
 * supply it ({@code org.bitina.usecases}, registered with {@link ServiceLoader}): the loader sits
 * below them and names none.
 */
public interface JobKinds {
    /** How each kind's jobs are read, in the order error messages list the kinds. */
    List<JobReader> readers();

    /** About how many bytes of heap {@code job} needs in one JVM (refused at validation past the heap). */
    long memoryBytes(JobSpec job);

    /** What the jobs ask of the fault plan that this version does not build, said at the {@code faults} key. */
    List<String> unbuiltFaults(List<JobSpec> jobs, List<FaultSpec> faults);

    /** The jobs of a valid {@code scenario} whose packets do not fit a link they cross (H2). */
    List<JobProblem> wireBudget(Scenario scenario);

    /**
     * The jobs of a scenario's {@code workload} section (docs/workloads.md): one job config per
     * collective of every iteration, read by the kinds' readers as if the file listed it, and the
     * rule that starts each when the workload's steps before it are done; null when the section
     * has problems (recorded at their keys). {@code dir} is the scenario file's folder (for {@code chakra}).
     */
    default Workload workload(ConfigReader workload, Topology topology, Path dir) {
        workload.problem(workload.origin(), "this build runs no workloads");
        return null;
    }

    /** A workload's jobs, as configs, and what starts them. */
    record Workload(List<Config> jobs, StartRule.Factory starts) {
        public Workload {
            jobs = List.copyOf(jobs);
        }
    }

    /** A problem of one job, at its {@code key} (null or absent from the job: at the job). */
    record JobProblem(JobSpec job, String key, String message) {}

    /** The kinds this build has. */
    static JobKinds installed() {
        return ServiceLoader.load(JobKinds.class)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "no job kinds installed (META-INF/services/" + JobKinds.class.getName() + ")"));
    }
}
