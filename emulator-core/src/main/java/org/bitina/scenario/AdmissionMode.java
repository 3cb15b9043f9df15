package org.bitina.scenario;

import java.util.Locale;

/**
 * What a job does when a switch's pool of aggregation entries has too little free for it (T2, S5;
 * a job's {@code admission} key): {@code strict} (the default) is refused at its start and runs
 * its host baseline instead; {@code best-effort} is admitted with what is free and passes the
 * chunks that find no free entry on unaggregated toward its root (ATP, NSDI'21).
 */
public enum AdmissionMode {
    STRICT,
    BEST_EFFORT;

    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
