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
        return switch (role) {
            case WORKER ->
                new ShardWorker(
                        plan,
                        host,
                        new AllReduceWorker(
                                plan, host, Verifier.prepared(references, plan, plan.members()), endpointSecret));
            case RING_WORKER -> {
                RingReduceScatter ring = new RingReduceScatter(plan.members().size());
                yield new ScheduleWorker(plan, host, Verifier.prepared(references, plan, ring), endpointSecret, ring);
            }
        };
    }
}
