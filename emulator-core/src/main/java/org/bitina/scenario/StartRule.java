package org.bitina.scenario;

import java.util.Map;

/**
 * When the jobs of a shared phase begin (T1): asked by the runner at the end of every window, and
 * told when each job began and when it finished. A job's own start or {@code after} list is one
 * rule; a workload's step scheduler, which starts a collective when its steps before it are done,
 * is another. Pure: every time is modelled nanoseconds, passed in.
 */
public interface StartRule {
    /** A start not known yet (the job waits for something still running). */
    long NOT_YET = Long.MAX_VALUE;

    /**
     * The modelled time {@code job} may begin at, past or future, or {@link #NOT_YET}. The runner
     * begins a job whose time has come at the end of the window it is asked in, so a start in the
     * past is at most one window (one lookahead) late; a future start ends a window exactly at it.
     */
    long startNanos(String job);

    /** {@code job}'s drivers began at {@code nanos}. */
    void begun(String job, long nanos);

    /** {@code job}'s last awaited endpoint completed at {@code endNanos}. */
    void finished(String job, long endNanos);

    /** What makes a fresh rule for each shared phase: one per world, since each world runs the iteration anew. */
    interface Factory {
        StartRule forWorld(Schedule.World world);

        /** The source's entries that run nothing on the fabric, counted by kind (a Chakra trace's); none by default. */
        default Map<String, Integer> skipped() {
            return Map.of();
        }
    }
}
