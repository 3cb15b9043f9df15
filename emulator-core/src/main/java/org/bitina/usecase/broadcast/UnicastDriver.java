package org.bitina.usecase.broadcast;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ScheduleWorker;
import org.bitina.usecase.reduction.Verifier;

/** What a member of a broadcast's unicast baseline runs: the {@link RootUnicast} schedule, as every host baseline runs its own. */
public record UnicastDriver(AllReducePlan plan, String root, String host) implements DriverSpec {
    @Override
    public EndpointDriver create(References references) {
        return create(references, null);
    }

    @Override
    public EndpointDriver create(References references, byte[] endpointSecret) {
        // the reference a member checks is the root's data alone, not the sum over every member
        RootUnicast schedule = schedule();
        return new ScheduleWorker(plan, host, Verifier.prepared(references, plan, schedule), endpointSecret, schedule);
    }

    RootUnicast schedule() {
        return new RootUnicast(plan.members().size(), plan.members().indexOf(root));
    }
}
