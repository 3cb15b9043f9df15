package org.bitina.usecase;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Which driver a host runs for a job phase; the host builds it, so a spec can cross JVMs
 * (as CBOR, its type named; the types are registered from {@code usecases.UseCases}). One record per
 * use case, in its package.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "driver")
public interface DriverSpec {
    /** The host that runs the driver. */
    String host();

    /** What the phase's endpoints share. */
    JobPlan plan();

    default int tenant() {
        return plan().tenant();
    }

    /** The job id in packet headers. */
    default int job() {
        return plan().wireJob();
    }

    /** The driver, sharing this JVM's {@code references} with the others of the run. */
    EndpointDriver create(References references);

    /** As {@link #create(References)}, with what the job's endpoints share for S6 (null: nothing; only AllReduce uses it). */
    default EndpointDriver create(References references, byte[] endpointSecret) {
        return create(references);
    }
}
