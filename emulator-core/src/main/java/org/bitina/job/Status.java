package org.bitina.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a phase ended (docs/reference.md, the report: {@code complete | partial | failed}). */
public enum Status {
    COMPLETE,
    PARTIAL,
    FAILED;

    /** As the report and the summary write it. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status a report names ({@code complete}), for reports read back (compare, tests). */
    @JsonCreator
    public static Status of(String label) {
        for (Status s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + label + "' (complete, partial or failed)");
    }

    @Override
    public String toString() {
        return label();
    }
}
