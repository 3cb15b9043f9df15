package org.bitina.time;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * One device's side of the virtual clock (docs/architecture.md "Two clocks"): its pending events in
 * modelled-time order and its current modelled time. A window processes every event before
 * the window's end, in order; timers are asked for, not queued, since the device's state
 * machines know their next deadline.
 *
 * <p>Order is total and independent of scheduling: (modelled time, source, sequence), where
 * the sequence counts the events from one source in the order it sent them (Pekko keeps one
 * sender's messages to one receiver in order, so the count is the sender's order). At equal
 * times a frame comes before a timer: a contribution arriving exactly at a deadline is in time.
 *
 * @param <E> what an event carries (a frame, a delayed send)
 */
public final class LocalEvents<E> {

    /** What a device does with its events and timers while a window runs. */
    public interface Handler<E> {
        /** Handles one event at modelled time {@code vt}. */
        void event(E what, long vt);

        /** The earliest deadline of the device's timers, or Long.MAX_VALUE. */
        long nextTimer();

        /** Fires the timers due at {@code vt}. */
        void timer(long vt);
    }

    private record Event<E>(long vt, String from, long seq, E what) {}

    /** How often timers may fire at one instant without moving their deadline before the device gives up on them. */
    static final int MAX_FIRINGS_AT_ONE_INSTANT = 1_000;

    private final PriorityQueue<Event<E>> queue = new PriorityQueue<>((a, b) -> {
        int c = Long.compare(a.vt, b.vt);
        if (c != 0) {
            return c;
        }
        c = a.from.compareTo(b.from);
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    });
    private final Map<String, Long> seqs = new HashMap<>();
    private long now;
    private long behind;
    private long processed;

    /** The device's current modelled time. */
    public long now() {
        return now;
    }

    /** Moves the current time forward to {@code vt} (never back). */
    public void advanceTo(long vt) {
        now = Math.max(now, vt);
    }

    /**
     * An event from {@code from} at modelled time {@code vt}. One that would happen before now
     * (it cannot, when every link has at least the lookahead's latency) happens now, and is
     * counted: {@link #behind()}.
     */
    public void add(long vt, String from, E what) {
        if (vt < now) {
            behind++;
            vt = now;
        }
        long seq = seqs.merge(from, 1L, Long::sum);
        queue.add(new Event<>(vt, from, seq, what));
    }

    /**
     * Events that arrived after their time had passed here, or were still queued when a window
     * started after their time (a broken lookahead or a missed wake-up; never expected).
     */
    public long behind() {
        return behind;
    }

    /** The time of the earliest queued event, or Long.MAX_VALUE. */
    public long nextEvent() {
        Event<E> e = queue.peek();
        return e == null ? Long.MAX_VALUE : e.vt;
    }

    /** The earliest time anything happens here next: an event or a timer. */
    public long next(Handler<E> h) {
        return Math.min(nextEvent(), Math.max(now, h.nextTimer()));
    }

    /**
     * Processes, in order, every event and timer before {@code end}, starting no earlier than
     * {@code start}. Returns false if timers kept firing at one instant without moving on
     * (a state machine that does not advance its deadline): the window stops there.
     */
    public boolean runWindow(long start, long end, Handler<E> h) {
        if (nextEvent() < start) {
            // an event its device sat out (a missed wake-up): it happens at the start, and is counted
            for (Event<E> e : queue) {
                behind += e.vt < start ? 1 : 0;
            }
        }
        advanceTo(start);
        int firingsHere = 0;
        long lastFiring = Long.MIN_VALUE;
        while (true) {
            long ev = nextEvent();
            long tm = Math.max(now, h.nextTimer());
            long t = Math.min(ev, tm);
            if (t >= end) {
                return true;
            }
            now = Math.max(now, t);
            processed++;
            if (ev <= tm) {
                Event<E> e = queue.poll();
                h.event(e.what, now);
            } else {
                firingsHere = lastFiring == now ? firingsHere + 1 : 1;
                lastFiring = now;
                if (firingsHere > MAX_FIRINGS_AT_ONE_INSTANT) {
                    return false;
                }
                h.timer(now);
            }
        }
    }

    /** Events and timer firings processed so far. */
    public long processed() {
        return processed;
    }

    /** Takes out the queued events {@code which} picks, in time order (what a repair makes stale). */
    public List<E> remove(Predicate<E> which) {
        List<Event<E>> gone = new ArrayList<>();
        queue.removeIf(ev -> which.test(ev.what) && gone.add(ev));
        gone.sort(queue.comparator());
        return gone.stream().map(Event::what).toList();
    }

    /** A new phase: no events, time back to zero. */
    public void clear() {
        queue.clear();
        seqs.clear();
        now = 0;
    }

    public int size() {
        return queue.size();
    }
}
