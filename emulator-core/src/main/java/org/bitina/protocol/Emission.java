package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Payload;

/**
 * What an aggregation emits upward: complete (P-BM = node bitmap, F2) or partial on a
 * timeout (P-BM = exactly the contributions held, F5; {@code missing} = node bitmap AND
 * NOT P-BM).
 *
 * @param firstArrival time the entry was created (first contribution or C-BM install)
 */
public record Emission(StateKey key, EndpointSet nodeBitmap, EndpointSet pbm, Payload payload, boolean partial,
                       long firstArrival, long emittedAt) {
    /** The contributions the node bitmap expected and this emission lacks. */
    public EndpointSet missing() {
        return MissSet.of(nodeBitmap, pbm);
    }
}
