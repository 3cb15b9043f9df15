package org.bitina.usecase.allgather;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.Verifier;

/** The driver an all-gather phase runs on a member: multicast in the network, or the ring ({@link GatherRoutes}). */
public record AllGatherDriver(boolean ring, AllReducePlan plan, String host) implements DriverSpec {
    @Override
    public EndpointDriver create(References references) {
        return new GatherMember(
                plan,
                host,
                new GatherRoutes(
                        ring ? GatherRoutes.Kind.RING : GatherRoutes.Kind.MULTICAST,
                        plan.members().size()),
                references.shared(Verifier.class, Verifier::new).data(plan.data()));
    }
}
