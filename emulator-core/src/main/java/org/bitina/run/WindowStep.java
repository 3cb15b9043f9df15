package org.bitina.run;

import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.bitina.usecase.PhaseEstimate;

/**
 * The virtual clock's next step after a window (docs/architecture.md, "Two clocks"), decided from
 * what the window left. Pure, so every branch is tested without actors ({@code WindowStepTest}), as
 * {@code WindowBarrier} is: the coordinator gathers the facts, asks, and does what the answer says.
 */
final class WindowStep {
    private WindowStep() {}

    /** What the coordinator does next. */
    sealed interface Step {}

    /** The phase ends before its endpoints did. */
    record Stop(Ending ending) implements Step {}

    /** Every job and flow is done, and any partial result had its modelled time to settle. */
    record Finished() implements Step {}

    /** The network faults due at {@code at} go in, then the window that starts there opens. */
    record Faults(long at) implements Step {}

    /** The jobs due at {@code at} begin, then the window that starts there opens. */
    record Begin(long at) implements Step {}

    /** The window that starts at the earliest next event of any device opens. */
    record Window(long start) implements Step {}

    /**
     * @param step        what to do
     * @param settleUntil until when late contributions to partial results may still be folded in
     *                    (Long.MAX_VALUE: not settling), kept for the next window's decision
     */
    record Decision(Step step, long settleUntil) {}

    /**
     * What the window left, with its jobs' start rule already told and due jobs already begun.
     *
     * @param end         the window's end, in modelled ns
     * @param next        the earliest next event of any device, or Long.MAX_VALUE
     * @param allFinished every job of the phase finished and every traffic flow done or given up
     * @param whole       no finished endpoint holds a partial result (read only when all finished)
     * @param settleUntil as the last decision left it
     * @param settleNanos how long partial results may wait for late contributions (read when first needed)
     * @param fault       the next pending network fault's time, or Long.MAX_VALUE
     * @param begin       the earliest start of a job not begun, or Long.MAX_VALUE
     * @param deadline    the phase's modelled deadline
     * @param unfinished  the awaited endpoints not done, in name order (read only to say so)
     * @param done        endpoints done (read only to say so)
     * @param awaited     endpoints awaited (read only to say so)
     */
    record Facts(
            long end,
            long next,
            boolean allFinished,
            boolean whole,
            long settleUntil,
            LongSupplier settleNanos,
            long fault,
            long begin,
            long deadline,
            Supplier<List<String>> unfinished,
            IntSupplier done,
            IntSupplier awaited) {}

    /** Longest wait for late contributions to partial results, in modelled ns. */
    static final long MAX_SETTLE_NANOS = 10_000_000_000L;

    /**
     * Why the clock cannot go on after a window, or null: a device could not take part in it, or the
     * phase handled more frames than its bound allows (a forwarding loop or a duplication storm,
     * stopped before its frames fill the heap).
     *
     * @param problems what devices could not do, in any order (named in name order: the same run, the same words)
     * @param links    the topology's links, to say what the bound allowed for
     */
    static Ending stopped(List<String> problems, long frames, PacketBound bound, int links, long end) {
        if (!problems.isEmpty()) {
            List<String> sorted = problems.stream().sorted().toList();
            return new Ending(
                    Ending.Cause.CLOCK_STOPPED,
                    "the virtual clock could not go on: "
                            + (sorted.size() > 4 ? sorted.subList(0, 4) + "..." : sorted));
        }
        if (bound != null && frames > bound.frameLimit()) {
            return new Ending(
                    Ending.Cause.PACKET_STORM,
                    String.format(
                            Locale.ROOT,
                            "packet storm: %d frames handled by %.1f us of modelled time, more than %d: %d times"
                                    + " the %d packets the plan sends when nothing is lost, each over every one"
                                    + " of the %d links (retransmissions and duplicates allowed for)",
                            frames,
                            end / 1000.0,
                            bound.frameLimit(),
                            PhaseEstimate.ALLOWED_PER_PLANNED,
                            bound.plannedPackets(),
                            links));
        }
        return null;
    }

    /**
     * The next step: finished (at once, or once partial results had their time to settle); else the
     * earliest of the next fault, the next job's start and the next event, a fault first and a start
     * before an event at the same time; past the deadline, or with nothing left to happen, the phase
     * stops, saying what was not finished.
     */
    static Decision next(Facts f) {
        long settle = f.settleUntil();
        if (settle == Long.MAX_VALUE && f.allFinished()) {
            if (f.whole()) {
                return new Decision(new Finished(), settle);
            }
            // partial results: late contributions get their modelled time to be folded in at the root
            settle = f.end() + Math.min(MAX_SETTLE_NANOS, f.settleNanos().getAsLong());
        }
        if (settle != Long.MAX_VALUE && f.next() >= settle) {
            return new Decision(new Finished(), settle);
        }
        long next = f.next();
        if (f.fault() <= next && f.fault() <= f.deadline() && f.fault() <= f.begin()) {
            return new Decision(new Faults(f.fault()), settle);
        }
        if (f.begin() <= next && f.begin() <= f.deadline()) {
            return new Decision(new Begin(f.begin()), settle);
        }
        if (next == Long.MAX_VALUE) {
            List<String> unfinished = f.unfinished().get();
            return new Decision(
                    new Stop(new Ending(
                            Ending.Cause.NOTHING_LEFT,
                            String.format(
                                    Locale.ROOT,
                                    "nothing left to happen (no frame in flight, no timer armed)"
                                            + " at %.1f us of modelled time; not finished: %s",
                                    f.end() / 1000.0,
                                    unfinished.size() > 12 ? unfinished.subList(0, 12) + "..." : unfinished))),
                    settle);
        }
        if (next > f.deadline()) {
            return new Decision(
                    new Stop(new Ending(
                            Ending.Cause.DEADLINE,
                            "modelled deadline of " + f.deadline() / 1_000_000 + " ms passed with "
                                    + f.done().getAsInt() + " of " + f.awaited().getAsInt() + " endpoints done")),
                    settle);
        }
        return new Decision(new Window(next), settle);
    }
}
