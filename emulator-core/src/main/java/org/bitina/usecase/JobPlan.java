package org.bitina.usecase;

/** What every kind's endpoint plan names: the job as packet headers carry it. */
public interface JobPlan {
    int tenant();

    /** The job id in packet headers: the job's own for INA, offset for each baseline. */
    int wireJob();
}
