package org.bitina.run;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** What a console progress bar reads while a run goes on; written by the coordinator only. */
public final class RunProgress {
    final AtomicInteger phase = new AtomicInteger();
    final AtomicInteger phases = new AtomicInteger();
    final AtomicLong results = new AtomicLong();
    final AtomicLong expectedResults = new AtomicLong();
    final AtomicReference<String> label = new AtomicReference<>("starting");
    /** Every phase's label by its number (from 1), so that a reader polling now and then misses none. */
    final Map<Integer, String> labels = new ConcurrentHashMap<>();
    /** Virtual clock, over the whole run: windows, events in them, wall time from opening each to its barrier, devices' busy time. */
    final AtomicLong windows = new AtomicLong();

    final AtomicLong windowEvents = new AtomicLong();
    final AtomicLong windowWallNanos = new AtomicLong();
    final AtomicLong deviceBusyNanos = new AtomicLong();
    /** The modelled time the current phase has reached (the end of its last window), nanoseconds. */
    final AtomicLong modelledNanos = new AtomicLong();

    public long modelledNanos() {
        return modelledNanos.get();
    }

    public long windows() {
        return windows.get();
    }

    public long windowEvents() {
        return windowEvents.get();
    }

    public long windowWallNanos() {
        return windowWallNanos.get();
    }

    public long deviceBusyNanos() {
        return deviceBusyNanos.get();
    }

    public int phase() {
        return phase.get();
    }

    public int phases() {
        return phases.get();
    }

    public long results() {
        return results.get();
    }

    public long expectedResults() {
        return expectedResults.get();
    }

    /** The label of phase {@code n} (from 1), or null when it has not started. */
    public String label(int n) {
        return labels.get(n);
    }

    public String label() {
        return label.get();
    }
}
