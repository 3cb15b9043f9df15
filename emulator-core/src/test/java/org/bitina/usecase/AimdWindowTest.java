package org.bitina.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The INA workers' AIMD window (ATP's rule): halve on a marked result once per window, grow one chunk per window. */
class AimdWindowTest {
    @Test
    void aMarkedResultHalvesTheWindowOncePerWindowOfChunks() {
        AimdWindow w = new AimdWindow(64);
        assertEquals(64, w.size(), "it starts at the job's window");
        w.onResult(0, true, 64); // chunks 0..63 in flight: cut, and marks on them are the same congestion
        assertEquals(32, w.size());
        w.onResult(1, true, 64);
        w.onResult(63, true, 64);
        assertEquals(32, w.size(), "chunks sent before the cut do not cut again");
        w.onResult(64, true, 96);
        assertEquals(16, w.size(), "a chunk sent after the cut does");
        assertEquals(4L, w.stats().get(AimdWindow.MARKED_RESULTS));
        assertEquals(2L, w.stats().get(AimdWindow.WINDOW_CUTS));
        assertEquals(16L, w.stats().get(AimdWindow.SMALLEST_WINDOW));
    }

    @Test
    void unmarkedResultsGrowItByOneChunkPerWindowUpToTheJobsWindow() {
        AimdWindow w = new AimdWindow(8);
        w.onResult(0, true, 8);
        assertEquals(4, w.size());
        // four unmarked results at 4 grow it by about one: 4 + 1/4 + 1/4.25 + ...
        for (int c = 1; c <= 4; c++) {
            w.onResult(c, false, 8 + c);
        }
        assertEquals(4, w.size(), "just short of 5: 4 + 1/4 + 1/4.25 + 1/4.49 + 1/4.71");
        w.onResult(5, false, 13);
        assertEquals(5, w.size());
        for (int c = 6; c < 200; c++) {
            w.onResult(c, false, c + 8);
        }
        assertEquals(8, w.size(), "never past the job's window");
    }

    @Test
    void theWindowNeverFallsBelowOneChunk() {
        AimdWindow w = new AimdWindow(4);
        for (int c = 0; c < 40; c++) {
            w.onResult(c * 10, true, c * 10 + 1);
        }
        assertEquals(1, w.size());
        assertEquals(1L, w.stats().get(AimdWindow.SMALLEST_WINDOW));
    }
}
