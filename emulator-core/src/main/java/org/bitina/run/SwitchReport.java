package org.bitina.run;

import java.util.Map;

/**
 * @param incTrees BIER-INC tree entries (branches) the switch held at the end of a phase, the most over phases (B2)
 * @param drops    frames the switch dropped, by reason, over every phase
 * @param translations frames the switch converted between a job's host-link and fabric encodings (H2), over every phase
 */
public record SwitchReport(
        String name,
        int peakStateEntries,
        long peakBufferedBytes,
        int incTrees,
        Map<String, Long> drops,
        long translations) {
    public SwitchReport(
            String name, int peakStateEntries, long peakBufferedBytes, int incTrees, Map<String, Long> drops) {
        this(name, peakStateEntries, peakBufferedBytes, incTrees, drops, 0);
    }
}
