package org.bitina.protocol;

import java.util.PriorityQueue;

/**
 * The deadlines of a node's aggregation entries, earliest first. An entry that completes leaves
 * its deadline queued (removing from a heap is O(n)); a deadline counts only while
 * {@link Liveness} says its entry, by key and generation, is still the one it was set for.
 */
final class Deadlines {
    /** Whether the entry a deadline was set for is still live. */
    interface Liveness {
        boolean live(StateKey key, long generation);
    }

    private record Deadline(long at, long generation, StateKey key) implements Comparable<Deadline> {
        @Override
        public int compareTo(Deadline o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(generation, o.generation);
        }
    }

    private final PriorityQueue<Deadline> queue = new PriorityQueue<>();
    private final Liveness liveness;

    Deadlines(Liveness liveness) {
        this.liveness = liveness;
    }

    /**
     * Queues a deadline; {@code liveEntries} is how many entries are live now. Past twice that the
     * queue drops its stale deadlines, so it stays O(live entries), not O(entries opened per
     * timeout), at amortised O(1) an add.
     */
    void add(long at, long generation, StateKey key, int liveEntries) {
        if (queue.size() > 2 * liveEntries + 64) {
            queue.removeIf(d -> !liveness.live(d.key, d.generation));
        }
        queue.add(new Deadline(at, generation, key));
    }

    /** Takes the earliest live deadline at or before {@code now}: its key, or null when none is due. */
    StateKey pollDue(long now) {
        while (!queue.isEmpty() && queue.peek().at <= now) {
            Deadline d = queue.poll();
            if (liveness.live(d.key, d.generation)) {
                return d.key;
            }
        }
        return null;
    }

    /** The earliest live deadline, or {@code Long.MAX_VALUE} when nothing waits. */
    long next() {
        while (!queue.isEmpty()) {
            Deadline d = queue.peek();
            if (liveness.live(d.key, d.generation)) {
                return d.at;
            }
            queue.poll();
        }
        return Long.MAX_VALUE;
    }

    /** Deadlines queued, stale ones included. */
    int size() {
        return queue.size();
    }
}
