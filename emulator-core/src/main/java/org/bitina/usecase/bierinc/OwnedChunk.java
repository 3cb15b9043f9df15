package org.bitina.usecase.bierinc;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * What the owner (BFIR) of one chunk gathers (B3, B4): the parts that arrived, which members
 * they hold together, when the first came, how often the missing were asked, and whether a
 * result went out. Retransmissions travel outside the tree and can overtake the aggregate
 * that already holds them: an aggregate replaces the single shares it covers, and nothing
 * is counted twice.
 */
final class OwnedChunk {
    /** What a part arriving is to this chunk. */
    enum Offer {
        /** Its members are all held already. */
        REPEAT,
        /** It overlaps what is held without replacing single shares: it would count a member twice. */
        OVERLAP,
        NEWS
    }

    private record Part(EndpointSet members, Payload payload, boolean single) {}

    private final List<Part> parts = new ArrayList<>();
    /** The members the parts hold together. */
    EndpointSet heard;
    /** When the first part came (0: none yet). */
    long firstHeard;

    /**
     * From when this chunk, with no part yet, is overdue (0: not yet): a part of a later chunk of the
     * same owner came, or of the one before it, or a chunk before it was asked again. Members send
     * in chunk order, so its shares are then held at a node for a lost share until that node's
     * completion timeout, or lost themselves.
     */
    long overdueFrom;

    int asks;
    /** A result of this chunk went out. */
    boolean finished;

    OwnedChunk(int capacity) {
        this.heard = FlatBitmap.of(capacity);
    }

    Offer offer(EndpointSet members, Payload payload, long now) {
        if (members.isSubsetOf(heard)) {
            return Offer.REPEAT;
        }
        boolean single = members.cardinality() == 1;
        if (members.intersects(heard)) {
            List<Part> covered =
                    parts.stream().filter(x -> x.members().intersects(members)).toList();
            if (single
                    || covered.stream()
                            .anyMatch(x -> !x.single() || !x.members().isSubsetOf(members))) {
                return Offer.OVERLAP;
            }
            parts.removeAll(covered);
        }
        parts.add(new Part(members, payload.copy(), single));
        heard = heard.or(members);
        if (firstHeard == 0) {
            firstHeard = now;
        }
        return Offer.NEWS;
    }

    /** The parts reduced, onto a copy of {@code own} (the owner's own share), or alone when it is null. */
    Payload sum(Payload own, ReductionOp op) {
        Payload acc = own == null ? null : own.copy();
        for (Part x : parts) {
            if (acc == null) {
                acc = x.payload().copy();
            } else {
                op.apply(acc, x.payload());
            }
        }
        return acc;
    }

    /**
     * When the owner next asks the missing again, or settles: after the first part, the plan's
     * backed-off waits, one per ask so far ({@link IncPlan#wait(int)}); with nothing heard yet, the
     * longest wait per ask after the start (the shares may not have left yet: a member sends in its
     * window's turn, and sends again by itself what has no final result), unless it is overdue
     * ({@link #overdueFrom}): then the backed-off waits after that, as after a first part of its own.
     */
    long dueAt(long started, IncPlan plan) {
        if (firstHeard == 0 && overdueFrom == 0) {
            return started + (asks + 1) * plan.waitNanos();
        }
        long at = firstHeard == 0 ? overdueFrom : firstHeard;
        for (int i = 0; i <= asks; i++) {
            at += plan.wait(i);
        }
        return at;
    }
}
