package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.ReductionOp;
import org.bitina.wire.Payload;

/**
 * What an aggregation-direction packet brings to a node: its P-BM (whose contributions the
 * payload carries), the reduction and the payload (empty for an ACK).
 */
public record Contribution(EndpointSet pbm, ReductionOp op, Payload payload) {
}
