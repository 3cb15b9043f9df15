package org.bitina.run;

import java.time.Duration;

/** Per-device limits: live aggregation entries per job (S5) and how long a tombstone is kept. */
public record Limits(int maxEntriesPerJob, Duration tombstone) {
    public static final Limits DEFAULT = new Limits(4096, Duration.ofSeconds(5));
}
