package org.bitina.node;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.bitina.run.RunProgress;

/**
 * Progress on stderr. On a terminal, a one-line bar redrawn in place, shown only for runs longer
 * than two seconds, with the phase's estimated time left (from its results so far); elsewhere (a
 * log file, CI) a plain line when each phase starts instead of redrawn frames.
 */
final class ProgressBar implements AutoCloseable {
    private final Thread thread;
    private final PrintStream out;
    private final RunProgress progress;
    private final boolean terminal;
    // touched by the progress thread, then by close() once that thread has stopped
    private final PhaseLines lines;
    private volatile boolean running = true;
    private boolean drawn;

    ProgressBar(RunProgress p, PrintStream out, boolean terminal) {
        this.out = out;
        this.progress = p;
        this.terminal = terminal;
        long start = System.nanoTime();
        this.lines = new PhaseLines(start);
        thread = new Thread(
                () -> {
                    int lastPhase = 0;
                    long phaseStart = start;
                    while (running) {
                        try {
                            Thread.sleep(250);
                        } catch (InterruptedException e) {
                            return;
                        }
                        long now = System.nanoTime();
                        long ms = (now - start) / 1_000_000;
                        int phase = p.phase();
                        if (phase != lastPhase) {
                            phaseStart = now;
                            if (!terminal) {
                                print(lines.upTo(phase, p.phases(), n -> label(p, n), now));
                            }
                            lastPhase = phase;
                        }
                        if (!terminal || ms < 2000 || !running) {
                            continue;
                        }
                        long done = p.results();
                        long total = Math.max(1, p.expectedResults());
                        int width = 30;
                        int filled = (int) Math.min(width, done * width / total);
                        out.printf(
                                "\r[%s%s] phase %d/%d %-24s %3d%%  %.1fs  %-12s",
                                "#".repeat(filled),
                                ".".repeat(width - filled),
                                p.phase(),
                                p.phases(),
                                p.label(),
                                Math.min(100, done * 100 / total),
                                // the phase's own seconds: the ETA beside them is the phase's too
                                (now - phaseStart) / 1e9,
                                eta(now - phaseStart, done, total));
                        out.flush();
                        drawn = true;
                    }
                },
                "bitina-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The phase's time left at its pace so far: {@code ETA 3.2s}, or "" before its first result
     * (nothing to go by yet) and once every result is in.
     */
    static String eta(long phaseNanos, long done, long total) {
        if (done <= 0 || done >= total) {
            return "";
        }
        double left = phaseNanos / 1e9 * (total - done) / done;
        return left >= 60
                ? String.format(Locale.ROOT, "ETA %dm%02ds", (long) left / 60, (long) left % 60)
                : String.format(Locale.ROOT, "ETA %.1fs", left);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
        }
        if (drawn) {
            out.println();
        }
        if (!terminal && !thread.isAlive()) {
            // the phases the last looks missed (a short last phase), and how long the last one took
            print(lines.end(progress.phase(), progress.phases(), n -> label(progress, n), System.nanoTime()));
        }
    }

    private void print(List<String> ls) {
        ls.forEach(out::println);
        out.flush();
    }

    private static String label(RunProgress p, int n) {
        return p.label(n) != null ? p.label(n) : p.label();
    }
}
