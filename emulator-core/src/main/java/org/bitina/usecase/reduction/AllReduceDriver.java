package org.bitina.usecase.reduction;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;

/**
 * The driver an AllReduce phase runs on a host: an INA or PS worker, a member of a host baseline's
 * schedule (ring, tree, halving-doubling, hierarchical: {@link ScheduleWorker}), or the parameter server.
 */
public record AllReduceDriver(Role role, AllReducePlan plan, String host) implements DriverSpec {
    public enum Role {
        WORKER,
        RING_WORKER,
        PARAMETER_SERVER
    }

    @Override
    public EndpointDriver create(References references) {
        return create(references, null);
    }

    @Override
    public EndpointDriver create(References references, byte[] endpointSecret) {
        return switch (role) {
            case WORKER ->
                new AllReduceWorker(plan, host, Verifier.prepared(references, plan, plan.members()), endpointSecret);
            case RING_WORKER ->
                new ScheduleWorker(plan, host, Verifier.prepared(references, plan, plan.members()), endpointSecret);
            case PARAMETER_SERVER -> new PsServer(plan);
        };
    }
}
