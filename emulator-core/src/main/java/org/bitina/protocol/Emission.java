package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * What an aggregation emits upward: complete (P-BM = node bitmap, F2) or partial on a
 * timeout (P-BM = exactly the contributions held, F5; {@code missing} = node bitmap AND
 * NOT P-BM).
 *
 * @param firstArrival wall time the entry was created (first contribution or C-BM install)
 * @param vt           modelled time the emission leaves: the latest contribution's arrival for
 *                     a complete one; for a partial, no earlier than the first arrival plus
 *                     the timeout (the node waited that long)
 * @param holds        in a second stage over partitions (H2), the job's endpoints the payload holds (the
 *                     union of its contributions'); null elsewhere
 * @param congested    some contribution arrived ECN-marked: the aggregate, and at the root the result,
 *                     leaves with CE set, so the mark comes back to every worker
 */
public record Emission(
        StateKey key,
        EndpointSet nodeBitmap,
        EndpointSet pbm,
        ReductionOp op,
        Payload payload,
        boolean partial,
        long firstArrival,
        long emittedAt,
        long vt,
        EndpointSet holds,
        boolean congested) {
    public Emission(
            StateKey key,
            EndpointSet nodeBitmap,
            EndpointSet pbm,
            ReductionOp op,
            Payload payload,
            boolean partial,
            long firstArrival,
            long emittedAt,
            long vt) {
        this(key, nodeBitmap, pbm, op, payload, partial, firstArrival, emittedAt, vt, null, false);
    }

    /** This emission carrying another payload (what a malicious switch emits instead, S6). */
    public Emission withPayload(Payload p) {
        return new Emission(key, nodeBitmap, pbm, op, p, partial, firstArrival, emittedAt, vt, holds, congested);
    }

    /** The contributions the node bitmap expected and this emission lacks. */
    public EndpointSet missing() {
        return MissSet.of(nodeBitmap, pbm);
    }

    /**
     * This emission with a late contribution folded in: the payloads reduced, the P-BM
     * widened. The caller has checked (through the table's tombstone) that the late
     * contribution is disjoint from what this emission holds. Returns null when the payloads
     * do not match.
     */
    public Emission foldIn(Contribution late, long now) {
        Payload merged = payload.copy();
        if (merged.elementType() != late.payload().elementType()
                || merged.elements() != late.payload().elements()) {
            return null;
        }
        op.apply(merged, late.payload());
        EndpointSet widened = pbm.or(late.pbm());
        EndpointSet held = holds == null || late.holds() == null ? holds : holds.or(late.holds());
        return new Emission(
                key,
                nodeBitmap,
                widened,
                op,
                merged,
                !widened.equals(nodeBitmap),
                firstArrival,
                now,
                Math.max(vt, late.vt()),
                held,
                congested || late.congested());
    }
}
