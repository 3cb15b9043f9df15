package org.bitina.job;

/**
 * The one registry of wire job ids: the job id a packet carries for a job's own trees and for each
 * of its baselines. Each use is a block of its own, and no two blocks overlap (a test keeps that),
 * so a baseline never meets switch state of a job in network and two jobs of one tenant never share
 * an id; {@code run.RunPlan} checks that the jobs running at once on one fabric do not either.
 * The numbers are those the runs always had: reports and traces name them.
 */
public enum WireJobs {
    /** A job in network: its own id, and its iterations' ({@link #iteration}). */
    INA(0, 1_000_000),
    RING(1_000_000, 1_000_000),
    PS(2_000_000, 1_000_000),
    ALL_TO_ALL(3_000_000, 1_000_000),
    UNICAST_ACK(4_000_000, 1_000_000),
    /** H2: the trees over a job's partitions ({@link #partition}). */
    PARTITION(5_000_000, 95_000_000),
    TREE(100_000_000, 10_000_000),
    HALVING_DOUBLING(110_000_000, 10_000_000),
    HIERARCHICAL(120_000_000, 10_000_000);

    /** The largest job id a scenario may give: every block holds it. */
    public static final int MAX_JOB_ID = 999_999;
    /** Iteration i (from 1) of an elastic job runs as wire job {@code id + ITERATION_STRIDE (i - 1)} (A8). */
    public static final int ITERATION_STRIDE = 10_000;
    /** The largest job id of an elastic job: its iterations' ids stay distinct from each other's. */
    public static final int MAX_ELASTIC_JOB_ID = ITERATION_STRIDE - 1;
    /** Partitions of one job, at most: partition i (from 1) of wire job j is {@code 1000 j + i} in its block. */
    public static final int MAX_PARTITIONS = 999;
    /** The largest job id of a job over partitions: its partitions' ids stay in their block. */
    public static final int MAX_PARTITIONED_JOB_ID = 94_999;

    private final int base;
    private final int span;

    WireJobs(int base, int span) {
        this.base = base;
        this.span = span;
    }

    public int base() {
        return base;
    }

    public int span() {
        return span;
    }

    /** Number {@code n} of this block; a number outside it is a planner's bug, not a scenario's. */
    public int of(int n) {
        if (n < 0 || n >= span) {
            throw new IllegalArgumentException(
                    "wire job " + n + " is outside the " + name() + " block (0.." + (span - 1) + ")");
        }
        return base + n;
    }

    /** Iteration {@code index} (from 1) of job {@code id}. */
    public static int iteration(int id, int index) {
        if (index < 1 || id > MAX_ELASTIC_JOB_ID && index > 1) {
            throw new IllegalArgumentException("iteration " + index + " of job id " + id);
        }
        return INA.of(id + (index - 1) * ITERATION_STRIDE);
    }

    /** Partition {@code i} (from 0) of the job in network as wire job {@code wireJob}. */
    public static int partition(int wireJob, int i) {
        if (i < 0 || i >= MAX_PARTITIONS) {
            throw new IllegalArgumentException("partition " + i + " of at most " + MAX_PARTITIONS);
        }
        return PARTITION.of(1000 * INA.of(wireJob) + i + 1);
    }
}
