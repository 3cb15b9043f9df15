package org.bitina.job;

import java.util.Locale;

/** How a phase ended (docs/reference.md, the report: {@code complete | partial | failed}). */
public enum Status {
    COMPLETE,
    PARTIAL,
    FAILED;

    /** As the report and the summary write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
