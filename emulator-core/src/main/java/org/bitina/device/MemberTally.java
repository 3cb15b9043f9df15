package org.bitina.device;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Virtual clock: what one member's devices tell their member agent about a window, shared
 * in memory instead of one reply message per device (the agent spawned them, they run in
 * its JVM). Each device adds what it did and counts itself done; the last one tells the
 * agent. The agent resets the window's part before it sends the window out, and reads it
 * after the last device's message: the message passing orders the memory accesses, the
 * atomics make the concurrent additions safe.
 */
public final class MemberTally {
    /** Messages this member's devices sent to each member's devices, since the devices were wired. */
    private final AtomicLongArray sent;
    /** Messages this member's devices received from other members' devices. */
    private final AtomicLong received = new AtomicLong();

    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong next = new AtomicLong(Long.MAX_VALUE);
    private final LongAdder events = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private final ConcurrentLinkedQueue<DeviceCommand.DriverDone> done = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    public MemberTally(int members) {
        this.sent = new AtomicLongArray(Math.max(1, members));
    }

    /** A new window for {@code devices} devices. */
    public void open(int devices) {
        waiting.set(devices);
        next.set(Long.MAX_VALUE);
        events.reset();
        busyNanos.reset();
        done.clear();
        problems.clear();
    }

    void sentTo(int member) {
        if (member >= 0 && member < sent.length()) {
            sent.incrementAndGet(member);
        }
    }

    void receivedOne() {
        received.incrementAndGet();
    }

    /** A device is done with the window; true when it was the last. */
    boolean deviceDone(
            long deviceNext, List<DeviceCommand.DriverDone> finished, List<String> trouble, long processed, long busy) {
        next.accumulateAndGet(deviceNext, Math::min);
        done.addAll(finished);
        problems.addAll(trouble);
        events.add(processed);
        busyNanos.add(busy);
        return waiting.decrementAndGet() == 0;
    }

    public long[] sent() {
        long[] s = new long[sent.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = sent.get(i);
        }
        return s;
    }

    public long received() {
        return received.get();
    }

    public long next() {
        return next.get();
    }

    public long events() {
        return events.sum();
    }

    public long busyNanos() {
        return busyNanos.sum();
    }

    public List<DeviceCommand.DriverDone> done() {
        return new ArrayList<>(done);
    }

    public List<String> problems() {
        return new ArrayList<>(problems);
    }
}
