package org.bitina.usecase;

import java.util.Collection;
import java.util.Set;
import java.util.SplittableRandom;

/** A straggler fault as a driver applies it: wall delay, jitter, and the chunks delayed (empty = all). */
public record Straggler(long delayNanos, long jitterNanos, Set<Long> chunks) {
    public boolean delays(long chunk) {
        return chunks.isEmpty() || chunks.contains(chunk);
    }

    /** The longest delay any of these stragglers can add. */
    public static long longest(Collection<Straggler> stragglers) {
        return stragglers.stream()
                .mapToLong(s -> s.delayNanos() + s.jitterNanos())
                .max()
                .orElse(0);
    }

    /** The fixed delay plus a seeded draw of the jitter. */
    public long draw(SplittableRandom random) {
        return delayNanos + (jitterNanos > 0 ? random.nextLong(jitterNanos + 1) : 0);
    }
}
