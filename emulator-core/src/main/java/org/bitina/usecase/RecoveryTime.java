package org.bitina.usecase;

import java.util.HashSet;
import java.util.Set;

/**
 * The time lost to recovery (L1), counted the same way by every endpoint that retransmits: the
 * modelled time during which at least one packet it sent again is still unanswered (acknowledged,
 * answered by a result, or given up). Intervals never overlap, so the sum never exceeds the
 * endpoint's own phase; what runs on after the endpoint has finished (a lost acknowledgement of
 * its last packet, sent again after its result was in) is not counted ({@link #finished}).
 *
 * @param <K> what names a packet that may be sent again (a chunk, a chunk and its peer)
 */
public final class RecoveryTime<K> {
    private final Set<K> overdue = new HashSet<>();
    private long since = -1;
    private long end = Long.MAX_VALUE;
    /** The closed intervals' time up to {@link #end} (time only moves on: each closed before or after it). */
    private long closed;

    /** {@code key} was sent again at {@code now} because its answer was overdue. */
    public void resent(K key, long now) {
        if (overdue.isEmpty()) {
            since = now;
        }
        overdue.add(key);
    }

    /** {@code key} has its answer (or no more sends) at {@code now}: the clock stops when none is left. */
    public void answered(K key, long now) {
        if (overdue.remove(key) && overdue.isEmpty()) {
            closed += Math.max(0, Math.min(now, end) - since);
            since = -1;
        }
    }

    /** The endpoint finished at {@code now} (its first call counts): time lost after it is not its phase's. */
    public void finished(long now) {
        if (end == Long.MAX_VALUE) {
            end = now;
        }
    }

    /** Modelled nanoseconds with a resent packet unanswered, up to when the endpoint finished. */
    public long nanos() {
        // an interval still open counts up to the finish; with no finish yet, nothing of it is known
        return since < 0 || end == Long.MAX_VALUE ? closed : closed + Math.max(0, end - since);
    }
}
