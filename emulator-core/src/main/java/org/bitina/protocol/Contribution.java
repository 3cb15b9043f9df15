package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.ReductionOp;
import org.bitina.wire.Payload;

/**
 * What an aggregation-direction packet brings to a node: its P-BM (whose contributions the
 * payload carries), the reduction, the payload (empty for an ACK) and its modelled arrival
 * time in nanoseconds.
 */
public record Contribution(EndpointSet pbm, ReductionOp op, Payload payload, long vt) {
    public Contribution(EndpointSet pbm, ReductionOp op, Payload payload) {
        this(pbm, op, payload, 0);
    }
}
