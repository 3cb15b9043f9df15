package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;

/**
 * The miss-set computation, in one place (F5, B4, R3): the endpoints a node (or root,
 * BFIR, multicast source) expected and did not hear from.
 */
public final class MissSet {
    private MissSet() {}

    /** {@code expected AND NOT received}. */
    public static EndpointSet of(EndpointSet expected, EndpointSet received) {
        return expected.andNot(received);
    }
}
