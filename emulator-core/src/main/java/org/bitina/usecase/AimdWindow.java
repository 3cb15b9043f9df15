package org.bitina.usecase;

import java.util.Map;

/**
 * A congestion window, AIMD on the ECN marks results bring back (as ATP's workers do): a result that
 * arrives with CE set (some contribution, or the result itself, was marked on its way) halves the
 * window, at most once per window of sends (a cut counts for the units sent before it; a mark on one
 * of those is the same congestion); an unmarked result grows it by {@code 1 / window}, one unit per
 * window of results. The window never leaves {@code [1, max]}, and it starts at {@code max}, the job's
 * configured window. Its unit is the endpoint's: an INA or parameter-server worker's chunks, an MoE
 * source's tokens (sends are then numbered by packet). Pure: the endpoint asks it how many units may
 * be in flight.
 */
public final class AimdWindow {
    private final int max;
    private double window;
    /** Chunks below this were sent before the last cut: their marks are that congestion's. */
    private int cutBelow;

    private long marked;
    private long cuts;
    private double smallest;

    public AimdWindow(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("a window holds at least one chunk, got " + max);
        }
        this.max = max;
        this.window = max;
        this.smallest = max;
    }

    /** The first result of {@code chunk} came, {@code congested} or not; {@code nextChunk}: the next one to send. */
    public void onResult(int chunk, boolean congested, int nextChunk) {
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
    public int size() {
        return (int) window;
    }

    /** What it did: results that came marked, cuts, the smallest window (whole chunks). */
    public Map<String, Long> stats() {
        return Map.of(MARKED_RESULTS, marked, WINDOW_CUTS, cuts, SMALLEST_WINDOW, (long) smallest);
    }

    static final String MARKED_RESULTS = "markedResults";
    static final String WINDOW_CUTS = "windowCuts";
    static final String SMALLEST_WINDOW = DriverReport.SMALLEST_WINDOW;
}
