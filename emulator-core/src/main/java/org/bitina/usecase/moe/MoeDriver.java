package org.bitina.usecase.moe;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;

/** The driver a MoE phase runs on a host: a token source, or one expert ({@code endpoint} names it). */
public record MoeDriver(Role role, MoePlan plan, String host, String endpoint) implements DriverSpec {
    public enum Role {
        SOURCE,
        EXPERT
    }

    @Override
    public EndpointDriver create(References references) {
        return switch (role) {
            case SOURCE -> new MoeSource(plan, host, references.moeWeights());
            case EXPERT -> new MoeExpert(plan, endpoint, references.moeWeights());
        };
    }
}
