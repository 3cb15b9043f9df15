package org.bitina.node;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.bitina.run.RunProgress;

/**
 * Progress on stderr. On a terminal, a one-line bar redrawn in place, shown only for runs longer
 * than two seconds, with the phase's estimated time left (from its results so far); elsewhere (a
 * log file, CI) a plain line when each phase starts instead of redrawn frames, and every 10 s of
 * wall time a line with the phase, the modelled time it reached and the events a second.
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
        this(p, out, terminal, HEARTBEAT_NANOS);
    }

    /** As above, a line every {@code heartbeatNanos} of wall time when not on a terminal. */
    ProgressBar(RunProgress p, PrintStream out, boolean terminal, long heartbeatNanos) {
        this.out = out;
        this.progress = p;
        this.terminal = terminal;
        long start = System.nanoTime();
        this.lines = new PhaseLines(start);
        thread = new Thread(
                () -> {
                    int lastPhase = 0;
                    long phaseStart = start;
                    long lastBeat = start;
                    long beatEvents = 0;
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
                        if (!terminal && now - lastBeat >= heartbeatNanos && running) {
                            // a log or a pipe gets no redrawn bar: a line every 10 s says the run is alive and where
                            long events = p.windowEvents();
                            print(List.of(heartbeat(p, now - start, events - beatEvents, now - lastBeat)));
                            lastBeat = now;
                            beatEvents = events;
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

    /** How often a run without a terminal says it is still going (issue 46 item 5). */
    static final long HEARTBEAT_NANOS = 10_000_000_000L;

    /**
     * A line for a log: {@code ... 40s: phase 2/3 job ft8 mode ring, 412 µs modelled, 51.2K events/s, 37 % of its
     * results}.
     */
    static String heartbeat(RunProgress p, long sinceStartNanos, long events, long overNanos) {
        long total = p.expectedResults();
        return String.format(
                Locale.ROOT,
                "... %.0fs: phase %d/%d %s, %s modelled, %s events/s%s",
                sinceStartNanos / 1e9,
                p.phase(),
                p.phases(),
                p.label(),
                Units.nanos(p.modelledNanos()),
                Units.count(events * 1e9 / Math.max(1, overNanos)),
                total > 0 ? ", " + Math.min(100, p.results() * 100 / total) + " % of its results" : "");
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
