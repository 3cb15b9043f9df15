package org.bitina.scenario;

import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.topology.Topology;

/**
 * Reads one kind of job. Each kind has its own keys; a job that uses a key of another kind
 * is rejected before its reader runs. The kinds a scenario may use are the readers the use
 * cases supply ({@link JobKinds}). A reader depends only on the shared helpers of this package
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

    /** What an attack of the {@code attacks} section may target in a job of this kind. */
    public enum Attacks {
        /** nothing: no attack names a job of this kind */
        NONE,
        /** its members' contributions and the results they take (spoofed bits, floods, forged tags, S1-S6) */
        CONTRIBUTIONS,
        /** its receivers' acknowledgments (spoofed-ack) */
        ACKNOWLEDGMENTS
    }

    /** What an attack of the {@code attacks} section may target in a job of this kind; none unless the kind says. */
    public Attacks attacks() {
        return Attacks.NONE;
    }

    /** "a" or "an" before {@code word}, as a message names a kind of job. */
    public static String article(String word) {
        return word.startsWith("a") ? "an " : "a ";
    }
}
