package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Payload;

/**
 * What an aggregation emits upward: complete (P-BM = node bitmap, F2) or partial on a
 * timeout (P-BM = exactly the contributions held, F5; {@code missing} = node bitmap AND
 * NOT P-BM).
 *
 * @param firstArrival wall time the entry was created (first contribution or C-BM install)
 * @param vt           modelled time the emission leaves: the latest contribution's arrival for
 *                     a complete one; for a partial, no earlier than the first arrival plus
 *                     the timeout (the node waited that long)
 */
public record Emission(StateKey key, EndpointSet nodeBitmap, EndpointSet pbm, Payload payload, boolean partial,
                       long firstArrival, long emittedAt, long vt) {
    /** The contributions the node bitmap expected and this emission lacks. */
    public EndpointSet missing() {
        return MissSet.of(nodeBitmap, pbm);
    }
}
