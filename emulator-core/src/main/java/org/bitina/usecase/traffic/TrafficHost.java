package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TrafficFlows;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A host's part of one background-traffic entry (T3), as a pure state machine: each flow it sends
 * is a reliable connection with go-back-N, as RoCE's reliable connection is by default; each flow
 * addressed to it is received in order and acknowledged.
 *
 * <ul>
 *   <li><b>Sender</b>: at a flow's start it hands all the flow's packets to its NIC at once (open
 *       loop: the port's queue paces them at the link rate) and arms the flow's timer. An ACK that
 *       moves the flow's cumulative acknowledgement restarts the timer (RFC 6298 5.3); when the timer
 *       fires, every packet from the first unacknowledged one on is sent again (go-back-N) and the
 *       next wait is the policy's backoff ({@link RecoveryPolicy}). After the policy's sends without
 *       progress the sender gives up on the flow and names it.
 *   <li><b>Receiver</b>: a packet in order is taken and acknowledged with the number of packets
 *       taken (cumulative); one past a gap is discarded, as a go-back-N receiver does, and one
 *       already taken is acknowledged again (its ACK may be what was lost). NAKs are not modelled:
 *       a loss costs the sender one timeout. A flow is finished when its last packet is taken; its
 *       completion is that arrival. The receiver stops waiting for an unfinished flow at
 *       {@link TrafficDriverSpec#giveUpNanos()}, after its sender gave up.
 * </ul>
 *
 * <p>On the wire a data packet is {@link PacketType#UNICAST} with the entry's tenant and job, the
 * flow's number as its sequence and its index within the flow as its entropy, an empty one-bit
 * bitmap and int32 zeros as payload (only its size matters to the links); an ACK is
 * {@link PacketType#ACK} with the flow's number and the cumulative count as its entropy.
 */
final class TrafficHost implements EndpointDriver {
    private final TrafficDriverSpec spec;
    /** One payload for every full packet: nothing on the path writes into a unicast payload. */
    private final Payload full;

    private final FlatBitmap none = FlatBitmap.of(1);
    /** The next flow of {@link TrafficDriverSpec#sends()} to start. */
    private int next;

    // sender, per flow of spec.sends() by index
    private final Map<Integer, Integer> sendSlots = new HashMap<>();
    /** Packets of each flow sent. */
    private final int[] sendTotal;

    private final int[] acked;
    private final int[] sendsWithoutProgress;
    private final long[] due;
    /** Started flows neither acknowledged in full nor given up, by their timer, then index. */
    private final TreeSet<Integer> timers;

    private long packetsSent;
    private long retransmitted;
    private long timeouts;
    private int flowsAcked;
    private final List<String> gaveUpOn = new ArrayList<>();

    // receiver, per flow of spec.receives() by index
    private final Map<Integer, Integer> slots = new HashMap<>();
    private final int[] expected;
    private final int[] total;
    private final long[] finishedAt;
    private int finished;
    private long bytes;
    private long packets;
    private long acks;
    private long duplicates;
    private long outOfOrder;
    private long strays;
    private long lastVt;
    private boolean stoppedWaiting;

    TrafficHost(TrafficDriverSpec spec) {
        this.spec = spec;
        this.full = Payload.of(new int[spec.payloadBytes() / 4]);
        int s = spec.sends().size();
        this.sendTotal = new int[s];
        this.acked = new int[s];
        this.sendsWithoutProgress = new int[s];
        this.due = new long[s];
        this.timers =
                new TreeSet<>((a, b) -> a.equals(b) ? 0 : due[a] != due[b] ? Long.compare(due[a], due[b]) : a - b);
        for (int i = 0; i < s; i++) {
            sendSlots.put(spec.sends().get(i).index(), i);
            sendTotal[i] = TrafficDriverSpec.packets(spec.sends().get(i).bytes(), spec.payloadBytes());
        }
        int n = spec.receives().size();
        this.expected = new int[n];
        this.total = new int[n];
        this.finishedAt = new long[n];
        Arrays.fill(finishedAt, -1);
        for (int i = 0; i < n; i++) {
            TrafficFlows.Flow f = spec.receives().get(i);
            slots.put(f.index(), i);
            total[i] = TrafficDriverSpec.packets(f.bytes(), spec.payloadBytes());
        }
    }

    @Override
    public List<Out> start(long now) {
        return due(now);
    }

    @Override
    public boolean accepts(InaPacket packet) {
        PacketType t = packet.header().type();
        return t == PacketType.UNICAST || t == PacketType.ACK;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaHeader h = frame.packet().header();
        boolean flowNumber = h.seq() >= 0 && h.seq() <= Integer.MAX_VALUE;
        if (h.type() == PacketType.ACK) {
            Integer slot = flowNumber ? sendSlots.get((int) h.seq()) : null;
            if (slot == null || slot >= next || h.entropy() < 0 || h.entropy() > sendTotal[slot]) {
                strays++;
                return List.of();
            }
            onAck(slot, h.entropy(), now);
            return List.of();
        }
        Integer slot = flowNumber ? slots.get((int) h.seq()) : null;
        if (slot == null || h.entropy() < 0 || h.entropy() >= total[slot]) {
            // not a packet of a flow to this host (a misrouted or forged one): counted, never a crash
            strays++;
            return List.of();
        }
        if (h.entropy() > expected[slot]) {
            // past a gap: a go-back-N receiver takes packets in order only
            outOfOrder++;
            return List.of();
        }
        if (h.entropy() < expected[slot]) {
            duplicates++;
            return List.of(ack(slot, frame));
        }
        expected[slot]++;
        packets++;
        // the flow's own bytes, not the last packet's padding to whole int32 elements
        bytes += Math.min(
                spec.payloadBytes(), spec.receives().get(slot).bytes() - (long) h.entropy() * spec.payloadBytes());
        lastVt = Math.max(lastVt, frame.vt());
        if (expected[slot] == total[slot]) {
            finished++;
            finishedAt[slot] = frame.vt();
        }
        return List.of(ack(slot, frame));
    }

    private Out ack(int slot, Frame data) {
        acks++;
        TrafficFlows.Flow f = spec.receives().get(slot);
        InaHeader h = InaHeader.of(PacketType.ACK, spec.tenant(), spec.wireJob(), f.index())
                .withEntropy(expected[slot]);
        return new Out(new Frame(new InaPacket(h, none, Payload.EMPTY), f.from(), data.vt()), 0);
    }

    private void onAck(int slot, int cumulative, long now) {
        if (cumulative <= acked[slot] || !timers.contains(slot)) {
            return; // old news, or a flow already given up on
        }
        timers.remove(slot);
        acked[slot] = cumulative;
        sendsWithoutProgress[slot] = 1;
        if (cumulative == sendTotal[slot]) {
            flowsAcked++;
            return;
        }
        due[slot] = now + spec.policies().get(slot).after(1);
        timers.add(slot);
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = due(now);
        while (!timers.isEmpty() && due[timers.first()] <= now) {
            int slot = timers.pollFirst();
            timeouts++;
            RecoveryPolicy policy = spec.policies().get(slot);
            TrafficFlows.Flow f = spec.sends().get(slot);
            if (policy.exhausted(sendsWithoutProgress[slot])) {
                gaveUpOn.add("flow " + f.index() + " " + f.from() + "->" + f.to() + ": no acknowledgement of packet "
                        + acked[slot] + " of " + sendTotal[slot] + " after " + sendsWithoutProgress[slot]
                        + " sends; given up");
                continue;
            }
            int from = acked[slot];
            packets(f, from, sendTotal[slot], now, true, out);
            retransmitted += sendTotal[slot] - from;
            sendsWithoutProgress[slot]++;
            due[slot] = now + policy.after(sendsWithoutProgress[slot]);
            timers.add(slot);
        }
        if (now >= spec.giveUpNanos() && finished < total.length) {
            stoppedWaiting = true;
        }
        return out;
    }

    /** The packets of every flow whose start has come, each flow's at its own start. */
    private List<Out> due(long now) {
        List<Out> out = new ArrayList<>();
        while (next < spec.sends().size() && spec.sends().get(next).startNanos() <= now) {
            int slot = next++;
            TrafficFlows.Flow f = spec.sends().get(slot);
            packets(f, 0, sendTotal[slot], f.startNanos(), false, out);
            sendsWithoutProgress[slot] = 1;
            due[slot] = f.startNanos() + spec.policies().get(slot).after(1);
            timers.add(slot);
        }
        return out;
    }

    /** Packets {@code from} to the last ({@code n - 1}) of flow {@code f}, handed to the NIC at {@code vt}. */
    private void packets(TrafficFlows.Flow f, int from, int n, long vt, boolean again, List<Out> out) {
        for (int k = from; k < n; k++) {
            long left = f.bytes() - (long) k * spec.payloadBytes();
            Payload p = left >= spec.payloadBytes() ? full : Payload.of(new int[(int) ((left + 3) / 4)]);
            InaHeader h = InaHeader.of(PacketType.UNICAST, spec.tenant(), spec.wireJob(), f.index())
                    .withEntropy(k);
            if (again) {
                h = h.withFlags(Flags.RETRANSMIT);
            }
            out.add(new Out(new Frame(new InaPacket(h, none, p), f.to(), vt), 0));
            packetsSent++;
        }
    }

    @Override
    public long nextDeadline() {
        long at = Long.MAX_VALUE;
        if (next < spec.sends().size()) {
            at = spec.sends().get(next).startNanos();
        }
        if (!timers.isEmpty()) {
            at = Math.min(at, due[timers.first()]);
        }
        if (finished < total.length && !stoppedWaiting) {
            at = Math.min(at, spec.giveUpNanos());
        }
        return at;
    }

    @Override
    public boolean done() {
        return next == spec.sends().size() && timers.isEmpty() && (finished == total.length || stoppedWaiting);
    }

    /**
     * Per flow addressed here ({@code unitVt}, in {@link TrafficDriverSpec#receives()} order) its last
     * packet's arrival, -1 when unfinished; the counts in {@code stats}; the flows this host gave up
     * sending in {@code gaveUp}.
     */
    @Override
    public DriverReport report() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put(FLOWS_STARTED, (long) next);
        stats.put("flowsAcknowledged", (long) flowsAcked);
        stats.put("packetsSent", packetsSent);
        stats.put(RETRANSMITTED, retransmitted);
        stats.put(TIMEOUTS, timeouts);
        stats.put("packetsReceived", packets);
        stats.put(BYTES_RECEIVED, bytes);
        stats.put("acks", acks);
        stats.put(DUPLICATES, duplicates);
        stats.put(OUT_OF_ORDER, outOfOrder);
        stats.put("strays", strays);
        return DriverReport.of(spec.host(), DriverReport.Role.TRAFFIC)
                .chunks(total.length)
                .received(finished)
                .lastVt(lastVt)
                .verifiedChunks(finished)
                .done(done())
                .stats(stats)
                .unitVt(finishedAt.clone())
                .gaveUp(gaveUpOn)
                .build();
    }

    static final String FLOWS_STARTED = "flowsStarted";
    static final String BYTES_RECEIVED = "bytesReceived";
    static final String RETRANSMITTED = "retransmitted";
    static final String TIMEOUTS = "timeouts";
    static final String DUPLICATES = "duplicates";
    static final String OUT_OF_ORDER = "outOfOrder";
}
