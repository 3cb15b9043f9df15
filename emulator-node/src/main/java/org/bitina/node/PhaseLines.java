package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The plain progress lines where no bar is redrawn (a log file, CI): a line when each phase
 * starts, and with it how long the one before took (its own time, not the time since the run
 * began); at the end of the run the last phase's. A phase that began and ended between two looks
 * still gets its line; its time is then told together with its neighbours'.
 */
final class PhaseLines {
    private int printed;
    private long since;

    PhaseLines(long startNanos) {
        this.since = startNanos;
    }

    /** The lines for the phases that started since the last call, now that {@code phase} runs. */
    List<String> upTo(int phase, int phases, IntFunction<String> label, long nowNanos) {
        List<String> out = new ArrayList<>();
        for (int n = printed + 1; n <= phase; n++) {
            String line = String.format(Locale.ROOT, "phase %d/%d %s", n, phases, label.apply(n));
            if (n == printed + 1 && printed > 0) {
                line += " (" + took(printed, phase - 1, nowNanos) + ")";
            }
            out.add(line);
        }
        if (phase > printed) {
            printed = phase;
            since = nowNanos;
        }
        return out;
    }

    /** The last line: every phase's line not printed yet, then how long the last phase took. */
    List<String> end(int phase, int phases, IntFunction<String> label, long nowNanos) {
        List<String> out = new ArrayList<>(upTo(phase, phases, label, nowNanos));
        if (printed > 0) {
            out.add(String.format(
                    Locale.ROOT, "phase %d/%d ended (%s)", printed, phases, took(printed, printed, nowNanos)));
        }
        return out;
    }

    private String took(int from, int to, long nowNanos) {
        double s = (nowNanos - since) / 1e9;
        return from == to
                ? String.format(Locale.ROOT, "phase %d took %.1fs", from, s)
                : String.format(Locale.ROOT, "phases %d-%d took %.1fs together", from, to, s);
    }
}
