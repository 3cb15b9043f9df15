package org.bitina.job;

/**
 * A job of a scenario: what every kind has ({@link JobCommon}) and its kind's own spec, one
 * record per use case in its package. Not sealed: the kinds live in their own packages
 * (Java allows a sealed type's subtypes in other packages only inside a named module), and
 * {@code usecases.UseCases} is where they are listed.
 */
public interface JobSpec {
    JobCommon common();

    default String name() {
        return common().name();
    }

    /** Whether the job's values carry the S6 checksum (then every node's ports audit it). */
    default boolean valueChecksum() {
        return false;
    }

    /** The host that sends the job's data and takes its acknowledgments, or null when the kind has none. */
    default String source() {
        return null;
    }
}
