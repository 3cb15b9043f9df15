package org.bitina.usecase.moe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;

/** The driver a MoE phase runs on a host: a token source, or one expert ({@code endpoint} names it). */
public record MoeDriver(Role role, MoePlan plan, String host, String endpoint) implements DriverSpec {
    public enum Role {
        SOURCE,
        EXPERT
    }

    /** The model's seeded weights the sources and experts of a run on one JVM share, per expert. */
    record Weights(Map<String, float[][]> byExpert) {}

    @Override
    public EndpointDriver create(References references) {
        // the sources and experts look weights up per token on several threads at once: a concurrent map
        Map<String, float[][]> weights = references
                .shared(Weights.class, () -> new Weights(new ConcurrentHashMap<>()))
                .byExpert();
        return switch (role) {
            case SOURCE -> new MoeSource(plan, host, weights);
            case EXPERT -> new MoeExpert(plan, endpoint, weights);
        };
    }
}
