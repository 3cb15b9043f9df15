package org.bitina.time;

import java.util.Arrays;

/**
 * The coordinator's side of the virtual clock: conservative synchronisation with lookahead
 * in YAWNS-style windows (Nicol 1993, "The cost of conservative synchronization in parallel
 * discrete event simulations"; the same scheme as ns-3's distributed simulator, which
 * advances all ranks by the smallest cross-rank link delay). Every device processes the
 * events of [T, T + L) concurrently, L being the smallest link latency plus one nanosecond of
 * serialisation (no packet is shorter), so nothing sent in a window is due in it.
 *
 * <p>A window is over when every member has reported all of its devices done with it and
 * every message sent across members has been received: each member counts, cumulatively,
 * the messages its devices sent to each other member and those they received from others.
 * Inside one JVM a message is in its receiver's mailbox once told, so only cross-member
 * messages can still be in flight. The next window starts at the earliest pending time over
 * all members (idle time is skipped).
 *
 * <p>A member with nothing due before a window's end sits it out: it is not asked, counts as
 * reported, and keeps the next time it said last, made earlier by the frames other members
 * send it (each report says the earliest arrival among the frames just sent to each member).
 * Messages it receives meanwhile still count: its agent reports its receipts as they come.
 */
public final class WindowBarrier {
    private final int members;
    private final long lookahead;
    /** sent[i][j]: messages member i's devices sent member j's, as i last reported. */
    private final long[][] sent;

    private final long[] received;
    private final boolean[] reported;
    /** Per member: the earliest time anything is due there, as it last said. */
    private final long[] next;
    /** Per member: the earliest arrival of the frames sent to it in the window now open. */
    private final long[] inbound;

    private long window;
    private int reports;
    private long windows;

    public WindowBarrier(int members, long lookahead) {
        if (members < 1 || lookahead < 1) {
            throw new IllegalArgumentException("members " + members + ", lookahead " + lookahead);
        }
        this.members = members;
        this.lookahead = lookahead;
        this.sent = new long[members][members];
        this.received = new long[members];
        this.reported = new boolean[members];
        this.next = new long[members];
        this.inbound = new long[members];
        // before a member's first report nothing is known of it: it runs the first window
        Arrays.fill(next, Long.MIN_VALUE);
        Arrays.fill(inbound, Long.MAX_VALUE);
    }

    /** The lookahead of links with this smallest latency: no packet is shorter than one nanosecond on the wire. */
    public static long lookahead(long minLatencyNanos) {
        return Math.max(0, minLatencyNanos) + 1;
    }

    public long lookahead() {
        return lookahead;
    }

    /**
     * The end of the window that starts at {@code start}: one lookahead later, or the next
     * fault's time if that comes first (a fault lands between windows, exactly at its time).
     */
    public long end(long start, long nextFault) {
        long end = start > Long.MAX_VALUE - lookahead ? Long.MAX_VALUE : start + lookahead;
        return nextFault > start ? Math.min(end, nextFault) : end;
    }

    /** Opens window {@code w}: every member reports again. */
    public void open(long w) {
        open(w, true, Long.MAX_VALUE);
    }

    /**
     * Opens window {@code w}, ending at {@code end}: every member when {@code everyMember} (the
     * coordinator told the devices something since the last window), else only those with
     * something due before the end; the others sit it out. Returns who runs it.
     */
    public boolean[] open(long w, boolean everyMember, long end) {
        window = w;
        reports = 0;
        windows++;
        boolean[] runs = new boolean[members];
        for (int m = 0; m < members; m++) {
            next[m] = Math.min(next[m], inbound[m]);
            inbound[m] = Long.MAX_VALUE;
            runs[m] = everyMember || next[m] < end;
            reported[m] = !runs[m];
            if (runs[m]) {
                next[m] = Long.MAX_VALUE;
            } else {
                reports++;
            }
        }
        return runs;
    }

    public long window() {
        return window;
    }

    /** Windows opened so far. */
    public long windows() {
        return windows;
    }

    /**
     * Member {@code m} finished window {@code w}: what its devices sent to each member so far,
     * what they received from others so far, and when its next event is due.
     */
    public void report(int m, long w, long[] sentTo, long receivedSoFar, long nextEvent) {
        report(m, w, sentTo, receivedSoFar, nextEvent, null);
    }

    /** As {@link #report(int, long, long[], long, long)}, with the earliest arrival of the frames it just sent to each member. */
    public void report(int m, long w, long[] sentTo, long receivedSoFar, long nextEvent, long[] arrivals) {
        if (w != window || reported[m]) {
            return;
        }
        reported[m] = true;
        reports++;
        for (int j = 0; j < members && j < sentTo.length; j++) {
            sent[m][j] = Math.max(sent[m][j], sentTo[j]);
        }
        if (arrivals != null) {
            for (int j = 0; j < members && j < arrivals.length; j++) {
                inbound[j] = Math.min(inbound[j], arrivals[j]);
            }
        }
        received(m, receivedSoFar);
        next[m] = nextEvent;
    }

    /** Member {@code m}'s devices have received this many cross-member messages so far. */
    public void received(int m, long soFar) {
        received[m] = Math.max(received[m], soFar);
    }

    /** Every member reported and no cross-member message is still in flight. */
    public boolean complete() {
        if (reports < members) {
            return false;
        }
        for (int j = 0; j < members; j++) {
            long in = 0;
            for (int i = 0; i < members; i++) {
                if (i != j) {
                    in += sent[i][j];
                }
            }
            if (in != received[j]) {
                return false;
            }
        }
        return true;
    }

    /** The earliest pending time over all members after the window, or Long.MAX_VALUE when nothing is left anywhere. */
    public long next() {
        long n = Long.MAX_VALUE;
        for (int m = 0; m < members; m++) {
            n = Math.min(n, Math.min(next[m], inbound[m]));
        }
        return n;
    }
}
