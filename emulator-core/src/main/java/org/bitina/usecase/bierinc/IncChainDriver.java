package org.bitina.usecase.bierinc;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ScheduleWorker;
import org.bitina.usecase.reduction.Verifier;

/** The driver a member of a BIER-INC Reduce's or Broadcast's ring baseline runs: a member of the {@link RingChain}. */
public record IncChainDriver(AllReducePlan plan, IncPlan.Collective collective, String root, String host)
        implements DriverSpec {
    @Override
    public EndpointDriver create(References references) {
        return create(references, null);
    }

    @Override
    public EndpointDriver create(References references, byte[] endpointSecret) {
        RingChain chain = schedule();
        return new ScheduleWorker(plan, host, Verifier.prepared(references, plan, chain), endpointSecret, chain);
    }

    RingChain schedule() {
        return new RingChain(plan.members().size(), plan.members().indexOf(root), collective);
    }
}
