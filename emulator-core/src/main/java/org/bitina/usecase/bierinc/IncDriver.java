package org.bitina.usecase.bierinc;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.AllReduceData;

/** The driver every member of a BIER-INC job runs: owner of its chunks' trees and contributor to the others'. */
public record IncDriver(IncPlan plan, String host) implements DriverSpec {
    @Override
    public EndpointDriver create(References references) {
        references
                .verifier()
                .prepare(
                        new AllReduceData(plan.base().data()),
                        plan.base().space().setOf(plan.base().members()));
        return new IncMember(plan, host, references.verifier());
    }
}
