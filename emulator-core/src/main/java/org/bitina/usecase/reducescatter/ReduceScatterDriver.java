package org.bitina.usecase.reducescatter;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.AllReduceWorker;
import org.bitina.usecase.reduction.ScheduleWorker;
import org.bitina.usecase.reduction.Verifier;

/** The driver a reduce-scatter phase runs on a member: an INA worker that keeps its shard, or a member of the ring. */
public record ReduceScatterDriver(Role role, AllReducePlan plan, String host) implements DriverSpec {
    public enum Role {
        WORKER,
        RING_WORKER
    }

    @Override
    public EndpointDriver create(References references) {
        return create(references, null);
    }

    @Override
    public EndpointDriver create(References references, byte[] endpointSecret) {
        Verifier verifier = references.shared(Verifier.class, Verifier::new);
        verifier.prepare(verifier.data(plan.data()), verifier.members(plan.space(), plan.members()));
        return switch (role) {
            case WORKER -> new ShardWorker(plan, host, new AllReduceWorker(plan, host, verifier, endpointSecret));
            case RING_WORKER ->
                new ScheduleWorker(
                        plan,
                        host,
                        verifier,
                        endpointSecret,
                        new RingReduceScatter(plan.members().size()));
        };
    }
}
