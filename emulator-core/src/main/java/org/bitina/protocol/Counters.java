package org.bitina.protocol;

import java.util.EnumMap;

/** Per-job counters of one node. */
public final class Counters {
    private final EnumMap<Counter, Long> values = new EnumMap<>(Counter.class);

    void add(Counter c) {
        values.merge(c, 1L, Long::sum);
    }

    public long get(Counter c) {
        return values.getOrDefault(c, 0L);
    }

    public EnumMap<Counter, Long> asMap() {
        return new EnumMap<>(values);
    }
}
