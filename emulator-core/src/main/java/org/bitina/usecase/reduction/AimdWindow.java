package org.bitina.usecase.reduction;

import java.util.Map;
import org.bitina.usecase.DriverReport;

/**
 * An INA worker's congestion window in chunks, AIMD on the ECN marks its results bring back (as ATP's
 * workers do): a result that arrives with CE set (some contribution, or the result itself, was marked
 * on its way) halves the window, at most once per window of chunks (a cut counts for the chunks sent
 * before it; a mark on one of those is the same congestion); an unmarked result grows it by
 * {@code 1 / window}, one chunk per window of results. The window never leaves {@code [1, max]}, and it
 * starts at {@code max}, the job's configured window. Pure: the worker asks it how many chunks may be
 * in flight.
 */
final class AimdWindow {
    private final int max;
    private double window;
    /** Chunks below this were sent before the last cut: their marks are that congestion's. */
    private int cutBelow;

    private long marked;
    private long cuts;
    private double smallest;

    AimdWindow(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("a window holds at least one chunk, got " + max);
        }
        this.max = max;
        this.window = max;
        this.smallest = max;
    }

    /** The first result of {@code chunk} came, {@code congested} or not; {@code nextChunk}: the next one to send. */
    void onResult(int chunk, boolean congested, int nextChunk) {
        if (!congested) {
            window = Math.min(max, window + 1 / window);
            return;
        }
        marked++;
        if (chunk < cutBelow) {
            return;
        }
        window = Math.max(1, window / 2);
        smallest = Math.min(smallest, window);
        cutBelow = nextChunk;
        cuts++;
    }

    /** How many chunks may be in flight now. */
    int size() {
        return (int) window;
    }

    /** What it did: results that came marked, cuts, the smallest window (whole chunks). */
    Map<String, Long> stats() {
        return Map.of(MARKED_RESULTS, marked, WINDOW_CUTS, cuts, SMALLEST_WINDOW, (long) smallest);
    }

    static final String MARKED_RESULTS = "markedResults";
    static final String WINDOW_CUTS = "windowCuts";
    static final String SMALLEST_WINDOW = DriverReport.SMALLEST_WINDOW;
}
