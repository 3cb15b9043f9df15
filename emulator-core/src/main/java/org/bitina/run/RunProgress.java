package org.bitina.run;

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

    public String label() {
        return label.get();
    }
}
