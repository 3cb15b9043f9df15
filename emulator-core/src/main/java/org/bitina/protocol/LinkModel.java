package org.bitina.protocol;

import java.util.SplittableRandom;
import org.bitina.topology.LinkSpec;

/**
 * One direction of a link, owned by the sending device (docs/architecture.md "Two clocks"):
 * modelled queueing (busy-until), serialisation (bytes / bandwidth) and propagation, the
 * link's counters, and loss, duplication and reordering drawn from a seeded generator.
 *
 * <p>The egress queue (T3) holds the packets waiting behind the one on the wire, as ns-3's
 * {@code DropTailQueue} under a {@code PointToPointNetDevice}: a packet that would take the waiting
 * bytes above {@link LinkSpec#bufferBytes()} is dropped ({@link #QUEUE_FULL}) and never serialised.
 * Its depth is tracked with an unlimited buffer too, for {@link #maxQueueBytes()}.
 */
public final class LinkModel {
    private final LinkSpec spec;
    private final SplittableRandom random;
    private final long seed;
    /**
     * RED's draws, apart from the loss draws so that marking leaves every loss pattern as it was; started
     * again at every phase, so that a phase's marks do not depend on the phases before it.
     */
    private SplittableRandom marking;

    private boolean up = true;
    /** When the link went down, in modelled time (0 under the real clock): meaningful while it is down. */
    private long downSince;

    private double loss;
    private double duplicate;
    private double reorder;
    private long wallDelayNanos;
    private boolean modelledDelays;
    private long busyUntil;
    private long packets;
    private long bytes;
    private long headerBytes;
    private long lost;
    private long queueDrops;
    private long maxQueueBytes;
    private long ecnMarks;
    /** The waiting packets' departure times (when their serialisation starts) and sizes, oldest first. */
    private final WaitingPackets waiting = new WaitingPackets();
    /** The queue's depth over modelled time, kept only where the buffer is finite (null elsewhere: no cost). */
    private final TimeCurve curve;

    public static final String QUEUE_FULL = "queue full";

    public LinkModel(LinkSpec spec, long seed) {
        this.spec = spec;
        this.random = new SplittableRandom(seed);
        this.seed = seed;
        this.marking = new SplittableRandom(~seed);
        this.loss = spec.loss();
        this.curve = spec.bufferLimited() ? new TimeCurve() : null;
    }

    /**
     * What happens to one packet put on this link.
     *
     * @param copies         0 (lost or link down), 1, or 2 (duplicated)
     * @param startVt        when its first bit goes onto the link, after any queue (when it was refused, if it was)
     * @param arrivalVt      modelled arrival time at the far end
     * @param wallDelayNanos extra wall-clock delay before delivery (a delay fault, or a small
     *                       hold-back that lets a later packet overtake this one)
     * @param marked         ECN-marked as it joined the queue: the packet arrives with CE set
     */
    public record Transmission(
            int copies, long startVt, long arrivalVt, long wallDelayNanos, String dropReason, boolean marked) {
        Transmission(int copies, long startVt, long arrivalVt, long wallDelayNanos, String dropReason) {
            this(copies, startVt, arrivalVt, wallDelayNanos, dropReason, false);
        }
    }

    /** What happens to a packet that may be ECN-marked (see {@link #transmit(int, int, long, boolean)}). */
    public Transmission transmit(int packetBytes, int packetHeaderBytes, long vt) {
        return transmit(packetBytes, packetHeaderBytes, vt, true);
    }

    /**
     * What happens to one packet of {@code packetBytes} put on this link at {@code vt}; one that is not
     * {@code ecnCapable} (an ACK: RoCE sends those in a class no switch marks) is never marked.
     */
    public Transmission transmit(int packetBytes, int packetHeaderBytes, long vt, boolean ecnCapable) {
        if (!up) {
            lost++;
            return new Transmission(0, vt, vt, 0, "link down");
        }
        if (packetBytes > spec.mtu()) {
            lost++;
            return new Transmission(
                    0, vt, vt, 0, "packet of " + packetBytes + " bytes exceeds the MTU of " + spec.mtu());
        }
        waiting.departedBy(vt);
        long departure = Math.max(vt, busyUntil);
        boolean marked = false;
        if (departure > vt) {
            long queued = waiting.bytes() + packetBytes;
            if (queued > spec.bufferBytes()) {
                lost++;
                queueDrops++;
                if (curve != null) {
                    curve.record(vt, waiting.bytes());
                }
                return new Transmission(0, vt, vt, 0, QUEUE_FULL);
            }
            waiting.add(departure, packetBytes);
            maxQueueBytes = Math.max(maxQueueBytes, queued);
            if (ecnCapable && queued > spec.ecnThresholdBytes()) {
                // marked as it joins the queue (the instantaneous depth, as DCTCP's switches mark); a step
                // draws nothing, RED between kmin and kmax draws from its own generator
                double p = spec.markProbability(queued);
                marked = p >= 1 || (p > 0 && marking.nextDouble() < p);
                if (marked) {
                    ecnMarks++;
                }
            }
        }
        if (curve != null) {
            curve.record(vt, waiting.bytes());
        }
        busyUntil = departure + spec.serializationNanos(packetBytes);
        long arrival = busyUntil + spec.latencyNanos();
        packets++;
        bytes += packetBytes;
        headerBytes += packetHeaderBytes;
        if (loss > 0 && random.nextDouble() < loss) {
            lost++;
            return new Transmission(0, departure, arrival, 0, "lost on the link", marked);
        }
        int copies = duplicate > 0 && random.nextDouble() < duplicate ? 2 : 1;
        if (modelledDelays) {
            // virtual clock: a delay fault adds modelled latency; a reordered packet is held one to
            // three times its own time on the link, so the packets sent right after it arrive first
            long hold = wallDelayNanos;
            if (reorder > 0 && random.nextDouble() < reorder) {
                long span = spec.latencyNanos() + spec.serializationNanos(packetBytes);
                hold += span + random.nextLong(2 * span + 1);
            }
            return new Transmission(copies, departure, arrival + hold, 0, null, marked);
        }
        long hold = wallDelayNanos;
        if (reorder > 0 && random.nextDouble() < reorder) {
            // held back 1-3 ms so that packets sent after it arrive first
            hold += 1_000_000L + random.nextLong(2_000_000L);
        }
        return new Transmission(copies, departure, arrival, hold, null, marked);
    }

    public void setUp(boolean isUp) {
        setUp(isUp, 0);
    }

    /** Up or down from modelled time {@code vt} on (0: from whenever it is told). */
    public void setUp(boolean isUp, long vt) {
        if (up && !isUp) {
            downSince = vt;
        }
        this.up = isUp;
    }

    /**
     * Whether a frame arriving over this link (the other direction's: a link fails both ways) at
     * modelled time {@code arrivalVt} was lost with it: the link is down and was already down at
     * the arrival. One sent after the link went down never left its sender, so such a frame was on
     * the wire when it went.
     */
    public boolean lostInFlight(long arrivalVt) {
        return !up && arrivalVt >= downSince;
    }

    public boolean isUp() {
        return up;
    }

    public void setLoss(double rate) {
        this.loss = rate;
    }

    public void setDuplicate(double rate) {
        this.duplicate = rate;
    }

    public void setReorder(double rate) {
        this.reorder = rate;
    }

    /** Under the virtual clock, delays and reordering holds are modelled time added to the arrival, not wall-clock waits. */
    public void modelDelays(boolean modelled) {
        this.modelledDelays = modelled;
    }

    public void setWallDelayNanos(long nanos) {
        this.wallDelayNanos = nanos;
    }

    public LinkSpec spec() {
        return spec;
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public long headerBytes() {
        return headerBytes;
    }

    /** Packets lost on this link for any reason: down, over the MTU, random loss, queue full. */
    public long lost() {
        return lost;
    }

    /** Packets dropped because the egress queue was full (a part of {@link #lost()}). */
    public long queueDrops() {
        return queueDrops;
    }

    /** Packets ECN-marked as they joined the queue ({@link LinkSpec#markProbability}). */
    public long ecnMarks() {
        return ecnMarks;
    }

    /** The most bytes that waited behind the packet on the wire at once. */
    public long maxQueueBytes() {
        return maxQueueBytes;
    }

    /**
     * The queue's depth over modelled time ({@link TimeCurve}: the most bytes waiting per interval),
     * or null where the buffer is unlimited.
     */
    public TimeCurve queueCurve() {
        return curve;
    }

    /**
     * The bytes waiting at modelled time {@code vt} (sent, their serialisation not started); times
     * asked go forward, as a device's do.
     */
    public long queuedBytes(long vt) {
        waiting.departedBy(vt);
        return waiting.bytes();
    }

    /** Zeroes the counters and the modelled queue, between the phases of a run. */
    public void reset() {
        packets = 0;
        bytes = 0;
        headerBytes = 0;
        lost = 0;
        queueDrops = 0;
        maxQueueBytes = 0;
        ecnMarks = 0;
        marking = new SplittableRandom(~seed);
        busyUntil = 0;
        waiting.clear();
        if (curve != null) {
            curve.clear();
        }
    }

    /** A FIFO of (departure, bytes) pairs in a growable ring of longs: no object per packet on the hot path. */
    private static final class WaitingPackets {
        private long[] departures = new long[16];
        private int[] sizes = new int[16];
        private int head;
        private int count;
        private long bytes;

        long bytes() {
            return bytes;
        }

        void add(long departure, int size) {
            if (count == departures.length) {
                grow();
            }
            int i = (head + count) & (departures.length - 1);
            departures[i] = departure;
            sizes[i] = size;
            count++;
            bytes += size;
        }

        /** Takes off the packets whose serialisation has started by {@code vt}. */
        void departedBy(long vt) {
            while (count > 0 && departures[head] <= vt) {
                bytes -= sizes[head];
                head = (head + 1) & (departures.length - 1);
                count--;
            }
        }

        void clear() {
            head = 0;
            count = 0;
            bytes = 0;
        }

        private void grow() {
            long[] d = new long[departures.length * 2];
            int[] s = new int[d.length];
            for (int k = 0; k < count; k++) {
                int i = (head + k) & (departures.length - 1);
                d[k] = departures[i];
                s[k] = sizes[i];
            }
            departures = d;
            sizes = s;
            head = 0;
        }
    }
}
