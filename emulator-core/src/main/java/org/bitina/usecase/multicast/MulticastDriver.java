package org.bitina.usecase.multicast;

import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;

/** The driver a reliable-multicast phase runs on a host: the source, or a receiver. */
public record MulticastDriver(Role role, MulticastPlan plan, String host) implements DriverSpec {
    public enum Role {
        SOURCE,
        RECEIVER
    }

    @Override
    public EndpointDriver create(References references) {
        return switch (role) {
            case SOURCE -> new MulticastSource(plan, host);
            case RECEIVER -> new MulticastReceiver(plan, host);
        };
    }
}
