package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * What an aggregation-direction packet brings to a node: its P-BM (whose contributions the
 * payload carries), the reduction, the payload (empty for an ACK) and its modelled arrival
 * time in nanoseconds.
 *
 * @param holds in a second stage over partitions (H2), the job's endpoints the payload holds, in the
 *              job's whole bit space (the P-BM names partitions); null elsewhere
 * @param congested it arrived ECN-marked (CE): the aggregate it goes into carries the mark on
 */
public record Contribution(
        EndpointSet pbm, ReductionOp op, Payload payload, long vt, EndpointSet holds, boolean congested) {
    public Contribution(EndpointSet pbm, ReductionOp op, Payload payload, long vt, EndpointSet holds) {
        this(pbm, op, payload, vt, holds, false);
    }

    public Contribution(EndpointSet pbm, ReductionOp op, Payload payload) {
        this(pbm, op, payload, 0);
    }

    public Contribution(EndpointSet pbm, ReductionOp op, Payload payload, long vt) {
        this(pbm, op, payload, vt, null);
    }
}
