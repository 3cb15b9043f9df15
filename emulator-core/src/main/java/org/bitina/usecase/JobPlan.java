package org.bitina.usecase;

/** What every kind's endpoint plan names: the job as packet headers carry it. */
public interface JobPlan {
    int tenant();

    /** The job id in packet headers: the job's own for INA, offset for each baseline. */
    int wireJob();

    /**
     * A plan that is nothing but the job's keys: what a driver beside a job's endpoints (background
     * traffic, an attacker) is keyed by, having no plan of its own.
     */
    static JobPlan of(int tenant, int wireJob) {
        return new Keys(tenant, wireJob);
    }

    /** The job's keys alone ({@link #of}). */
    record Keys(int tenant, int wireJob) implements JobPlan {}
}
