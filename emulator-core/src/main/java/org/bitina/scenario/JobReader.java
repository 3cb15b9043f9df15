package org.bitina.scenario;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;
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

    private final List<Mode> baselines;
    private final Map<String, List<Key>> schemaKeys;
    private final List<Section> sections;

    /**
     * @param baselines  the kind's host baselines, as the reference lists them
     * @param schemaKeys the kind's keys in the job's sections it shares with other kinds, by path
     *                   ({@link JobKeys#JOB_PATH}: its own job keys besides {@link JobKeys#COMMON}; {@link JobKeys#DATA_PATH})
     * @param sections   the sections only jobs of this kind (or kinds that share them) have
     */
    protected JobReader(String kind, List<Mode> baselines, Map<String, List<Key>> schemaKeys, List<Section> sections) {
        this.kind = kind;
        this.baselines = List.copyOf(baselines);
        this.schemaKeys = Map.copyOf(schemaKeys);
        this.sections = List.copyOf(sections);
        Set<String> all = new HashSet<>(JobKeys.COMMON);
        schemaKeys.getOrDefault(JobKeys.JOB_PATH, List.of()).forEach(k -> all.add(k.name()));
        this.keys = Set.copyOf(all);
    }

    /** The kind's host baselines, as the reference lists them. */
    public final List<Mode> baselines() {
        return baselines;
    }

    /** The kind's keys in the sections it shares with other kinds, by path. */
    public final Map<String, List<Key>> schemaKeys() {
        return schemaKeys;
    }

    /** The sections of the schema only this kind's jobs have (or kinds that share them). */
    public final List<Section> sections() {
        return sections;
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
     * @param data  every kind's {@code data} section ({@link JobKeys#data}), to hold a job's data to its kind's keys
     */
    public abstract JobSpec read(ConfigReader job, Topology topology, int index, Section data);

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
