package org.bitina.device;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Virtual clock: what one member's devices tell their member agent about a window, shared
 * in memory instead of one reply message per device (the agent spawned them, they run in
 * its JVM). Each device adds what it did and counts itself done; the last one tells the
 * agent. The agent resets the window's part before it sends the window out, and reads it
 * after the last device's message: the message passing orders the memory accesses, the
 * atomics make the concurrent additions safe.
 *
 * <p>It also keeps, per device, the earliest time anything is due there (its own events and
 * timers as it last said, and the frames its neighbours sent it since), so that the agent
 * runs a window only on the devices with something in it; and it holds the frames for other
 * members' devices until the window's end, when the agent sends them in one message per member.
 */
public final class MemberTally {
    /** A device's frames for one neighbour on another member, in the order it sent them. */
    public record Parcel(String to, List<DeviceCommand.FrameIn> frames) {}

    private final Map<String, Integer> index = new HashMap<>();
    /** The devices in the order the member listed them. */
    private final List<Map.Entry<String, Integer>> order = new ArrayList<>();
    /** Per device: its next event or timer as it reported at the end of the last window it ran. */
    private final AtomicLongArray own;
    /** Per device: the earliest frame its member's neighbours sent it since the agent last looked. */
    private final AtomicLongArray arriving;
    /** Per member: the frames for its devices, and the earliest of their arrivals. */
    private final List<ConcurrentLinkedQueue<Parcel>> mail = new ArrayList<>();

    private final AtomicLongArray mailArrival;
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAdder events = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private final ConcurrentLinkedQueue<DeviceCommand.DriverDone> done = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    /** @param devices this member's devices, in a fixed order */
    public MemberTally(int members, List<String> devices) {
        for (String d : devices) {
            if (index.putIfAbsent(d, index.size()) == null) {
                order.add(Map.entry(d, index.get(d)));
            }
        }
        own = new AtomicLongArray(index.size());
        arriving = new AtomicLongArray(index.size());
        for (int i = 0; i < index.size(); i++) {
            // nothing is known of a device before it ran once: it runs the first window
            own.set(i, Long.MIN_VALUE);
            arriving.set(i, Long.MAX_VALUE);
        }
        mailArrival = new AtomicLongArray(Math.max(1, members));
        for (int m = 0; m < Math.max(1, members); m++) {
            mail.add(new ConcurrentLinkedQueue<>());
            mailArrival.set(m, Long.MAX_VALUE);
        }
    }

    /** A new window for {@code devices} devices. */
    public void open(int devices) {
        waiting.set(devices);
        events.reset();
        busyNanos.reset();
        done.clear();
        problems.clear();
    }

    /** Frames at {@code vt} or later went to this member's device {@code to} (a device of another member: ignored). */
    public void arriving(String to, long vt) {
        Integer i = index.get(to);
        if (i != null) {
            arriving.accumulateAndGet(i, vt, Math::min);
        }
    }

    /** Frames for {@code to} on member {@code m}, the earliest due at {@code vt}: sent with the window's end. */
    void mail(int m, String to, List<DeviceCommand.FrameIn> frames, long vt) {
        if (m >= 0 && m < mail.size()) {
            mail.get(m).add(new Parcel(to, List.copyOf(frames)));
            mailArrival.accumulateAndGet(m, vt, Math::min);
        }
    }

    /** Takes the frames held for member {@code m}, in the order the devices sent them (per device). */
    public List<Parcel> takeMail(int m) {
        List<Parcel> out = new ArrayList<>();
        Parcel p;
        while ((p = mail.get(m).poll()) != null) {
            out.add(p);
        }
        return out;
    }

    /** The earliest arrival of the frames taken for each member since the last call; and starts again. */
    public long[] takeMailArrivals() {
        long[] a = new long[mailArrival.length()];
        for (int m = 0; m < a.length; m++) {
            a[m] = mailArrival.getAndSet(m, Long.MAX_VALUE);
        }
        return a;
    }

    /** When device {@code d} next has something to do, as far as this member knows; Long.MIN_VALUE: unknown. */
    public long dueAt(String d) {
        Integer i = index.get(d);
        return i == null ? Long.MIN_VALUE : Math.min(own.get(i), arriving.get(i));
    }

    /**
     * The devices with something due before {@code end}, in this member's fixed order, which are
     * about to run a window: what was noted of frames sent to them is in their mailboxes, and
     * each will say its next time itself. All of them are taken in one call, before the agent
     * tells any to run: a device that ran early and noted a frame for a local neighbour must not
     * have that note cleared by the neighbour's taking afterwards (the neighbour could then sit
     * out the window the frame is due in and meet it late, silently).
     */
    public List<String> takeDue(long end) {
        List<String> due = new ArrayList<>();
        for (Map.Entry<String, Integer> d : order) {
            int i = d.getValue();
            if (Math.min(own.get(i), arriving.get(i)) < end) {
                arriving.set(i, Long.MAX_VALUE);
                due.add(d.getKey());
            }
        }
        return due;
    }

    /** Every device counts as having something to do (the coordinator touched them between windows). */
    public void unknown() {
        for (int i = 0; i < own.length(); i++) {
            own.set(i, Long.MIN_VALUE);
        }
    }

    /** The earliest time anything is due on this member's devices, or Long.MAX_VALUE. */
    public long next() {
        long n = Long.MAX_VALUE;
        for (int i = 0; i < own.length(); i++) {
            n = Math.min(n, Math.min(own.get(i), arriving.get(i)));
        }
        return n;
    }

    /** A device is done with the window; true when it was the last. */
    boolean deviceDone(
            String device,
            long deviceNext,
            List<DeviceCommand.DriverDone> finished,
            List<String> trouble,
            long processed,
            long busy) {
        Integer i = index.get(device);
        if (i != null) {
            own.set(i, deviceNext);
        }
        done.addAll(finished);
        problems.addAll(trouble);
        events.add(processed);
        busyNanos.add(busy);
        return waiting.decrementAndGet() == 0;
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
