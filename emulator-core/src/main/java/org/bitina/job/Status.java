package org.bitina.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a phase ended (docs/reference.md, the report: {@code complete | partial | failed}). */
public enum Status {
    COMPLETE,
    PARTIAL,
    FAILED;

    /** As the report and the summary write it. */
    @JsonValue
    public String label() {
        return Labels.of(this);
    }

    /** The status a report names ({@code complete}), for reports read back (compare, tests). */
    @JsonCreator
    public static Status of(String label) {
        return Labels.parse(Status.class, label, "status");
    }

    @Override
    public String toString() {
        return label();
    }
}
