package org.bitina.usecase.bierinc;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.Verifier;

/** The driver every member of a BIER-INC job runs: owner of its chunks' trees and contributor to the others'. */
public record IncDriver(IncPlan plan, String host) implements DriverSpec {
    @Override
    public EndpointDriver create(References references) {
        Verifier verifier = references.shared(Verifier.class, Verifier::new);
        verifier.prepare(
                verifier.data(plan.base().data()),
                plan.base().space().setOf(plan.base().members()));
        return new IncMember(plan, host, verifier);
    }
}
