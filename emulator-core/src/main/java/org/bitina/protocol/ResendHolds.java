package org.bitina.protocol;

import java.util.HashMap;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;

/**
 * L1: what a node sent lately for a chunk on behalf of whom, so that the retransmissions that
 * come after it are answered by that send instead of each by one of its own (seed 000 section 3:
 * "selective retransmission instead of a wholesale restart"). When one share of a chunk is lost
 * every worker of the job sends again; without this each of those requests climbed to the root
 * and got a result of its own.
 *
 * <p>Why a hold of twice the latency of the node's shortest link is exact: a retransmission that
 * reaches a node within that time after the node sent something up (or, at the root, the result
 * down) was on its way before the answer to that send can pass the node going down, so the
 * answer reaches its worker after the worker asked, and that worker is answered (unless the
 * answer itself is lost: then it asks again after its backoff, as after any loss).
 */
final class ResendHolds {
    private record Held(EndpointSet covered, long until) {}

    private final Map<StateKey, Held> held = new HashMap<>();
    /** When the map is swept of ended holds on a send (doubling, so a sweep costs O(1) a send). */
    private int sweepAt = 1024;

    /** True when a send recorded for {@code key} still answers for {@code who} at {@code now}. */
    boolean covers(StateKey key, EndpointSet who, long now) {
        Held h = held.get(key);
        return h != null && now < h.until && who.isSubsetOf(h.covered);
    }

    /** A send for {@code key} on behalf of {@code who} at {@code now}: it answers for them for {@code holdNanos}. */
    void sent(StateKey key, EndpointSet who, long now, long holdNanos) {
        held.put(key, new Held(who, now + holdNanos));
        if (held.size() >= sweepAt) {
            forget(now);
            sweepAt = Math.max(1024, 2 * held.size());
        }
    }

    /** Forgets the holds that ended (each lives one hold: a few microseconds of modelled time). */
    void forget(long now) {
        if (!held.isEmpty()) {
            held.values().removeIf(h -> h.until <= now);
        }
    }

    int size() {
        return held.size();
    }
}
