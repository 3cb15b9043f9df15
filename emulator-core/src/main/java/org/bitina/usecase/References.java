package org.bitina.usecase;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What the endpoint drivers of one run on one JVM share, one object per type, made on first use
 * by the kind that needs it: the array kinds' reference results (every worker of a 128-way job
 * checks a chunk against the same reference, computed once), the MoE model's seeded weights. One
 * per run and member, handed to the hosts it spawns; it goes with them, so nothing outlives the run.
 */
public final class References {
    /** Drivers run on several dispatcher threads at once: a concurrent map. */
    private final Map<Class<?>, Object> shared = new ConcurrentHashMap<>();

    /** The run's one {@code type}, made by {@code make} the first time a driver asks for it. */
    public <T> T shared(Class<T> type, Supplier<T> make) {
        return type.cast(shared.computeIfAbsent(type, t -> make.get()));
    }
}
