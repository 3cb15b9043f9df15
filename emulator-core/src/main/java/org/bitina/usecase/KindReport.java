package org.bitina.usecase;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * The report part of a use case: what a job of its kind reports of its own, beside what every job
 * reports (MoE's source uplink bytes, reliable multicast's ACK packets into the source and repair
 * rounds, BIER-INC's tree entries). A kind's part is a record: its components are the JSON report's
 * {@code jobs[].kindReport}; its {@link #figures()} are what the console summary, {@code jobs.csv}
 * and the HTML page show, headline first, rendered without knowing the kind (so a new kind needs no
 * writer change). The JSON names the part's record in {@code part}, so a report read back (from
 * another JVM) gets the same part.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "part")
public interface KindReport {
    /** The kind's own figures, its headline metric first. */
    List<Figure> figures();

    /** What a reader should know to read the figures beside the row's (how they are counted), or null. */
    default String note() {
        return null;
    }

    /**
     * What a switch installs when this kind's packets build the tree, as the page names it when
     * none did: {@code C-BM} (M2, R2) unless the kind says otherwise.
     */
    default String treeState() {
        return "C-BM";
    }

    /**
     * One figure of a kind's part.
     *
     * @param key    its column in {@code jobs.csv} (the part's JSON field of the same value)
     * @param label  what a reader calls it ({@code source uplink})
     * @param detail what it says beside its value (per window, per round), or null
     */
    record Figure(String key, String label, double value, Unit unit, String detail) {
        public Figure(String key, String label, double value, Unit unit) {
            this(key, label, value, unit, null);
        }
    }

    /** How a figure's value is read: a count, bytes (rendered in binary units), or GB/s of modelled time. */
    enum Unit {
        COUNT,
        BYTES,
        GBPS
    }
}
