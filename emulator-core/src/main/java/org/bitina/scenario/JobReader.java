package org.bitina.scenario;

import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.topology.Topology;
import org.bitina.usecases.UseCases;

/**
 * Reads one kind of job. Each kind has its own keys; a job that uses a key of another kind
 * is rejected before its reader runs. The kinds a scenario may use are the readers listed in
 * {@link UseCases}. A reader depends only on the shared helpers of this package
 * ({@link ConfigReader}, {@link JobHeader}, {@link JobParts}), never on another reader.
 */
public abstract class JobReader {
    private final String kind;
    private final Set<String> keys;

    /** The kind's keys are what {@link JobKeys#JOB} lists for it. */
    protected JobReader(String kind) {
        this.kind = kind;
        this.keys = JobKeys.JOB.names(kind);
    }

    /** The kind as scenario files write it ({@code kind = allreduce}). */
    public final String kind() {
        return kind;
    }

    /** Every key a job of this kind may have, the header's included. */
    public final Set<String> keys() {
        return keys;
    }

    /**
     * The job, or null when it has problems; every problem found is recorded in
     * {@code job.problems()}, and the job's own keys and values are checked even when
     * {@code topology} is null (the topology section is broken) and the nodes it names
     * cannot be.
     *
     * @param job   the job's object, with the scenario's {@code defaults} section behind it
     * @param index the job's position in the jobs list (its id unless it sets one)
     */
    public abstract JobSpec read(ConfigReader job, Topology topology, int index);
}
