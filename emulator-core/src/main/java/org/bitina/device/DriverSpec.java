package org.bitina.device;

import org.bitina.job.AllReducePlan;
import org.bitina.job.AllReduceWorker;
import org.bitina.job.EndpointDriver;
import org.bitina.job.PsServer;
import org.bitina.job.RingWorker;

/** Which driver a host runs for a job phase; the host builds it, so a spec can cross JVMs. */
public record DriverSpec(Role role, AllReducePlan plan, String host) {
    public enum Role {
        ALLREDUCE_WORKER,
        RING_WORKER,
        PARAMETER_SERVER
    }

    public EndpointDriver create() {
        return switch (role) {
            case ALLREDUCE_WORKER -> new AllReduceWorker(plan, host);
            case RING_WORKER -> new RingWorker(plan, host);
            case PARAMETER_SERVER -> new PsServer(plan);
        };
    }

    public int tenant() {
        return plan.tenant();
    }

    public int job() {
        return plan.wireJob();
    }
}
