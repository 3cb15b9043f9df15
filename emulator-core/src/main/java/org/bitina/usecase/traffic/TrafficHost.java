package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TrafficFlows;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A host's part of one background-traffic entry (T3), as a pure state machine: at each of its
 * flows' start times it hands the flow's packets to its NIC at once (open loop: the port's queue
 * paces them at the link rate), and it counts the packets of the flows addressed to it. A flow is
 * finished when every one of its packets arrived; its completion is its last packet's arrival.
 * Lost packets are not sent again: a flow missing some is unfinished, and the host stops waiting
 * for it at {@link TrafficDriverSpec#giveUpNanos()}.
 *
 * <p>On the wire a packet is {@link PacketType#UNICAST} with the entry's tenant and job, the flow's
 * number as its sequence and its index within the flow as its entropy, an empty one-bit bitmap and
 * int32 zeros as payload: only its size matters to the links.
 */
final class TrafficHost implements EndpointDriver {
    private final TrafficDriverSpec spec;
    /** One payload for every full packet: nothing on the path writes into a unicast payload. */
    private final Payload full;

    private final FlatBitmap none = FlatBitmap.of(1);
    /** The next flow of {@link TrafficDriverSpec#sends()} to start. */
    private int next;

    private long packetsSent;
    /** Receive slot of each flow addressed here, by the flow's number. */
    private final Map<Integer, Integer> slots = new HashMap<>();

    private final BitSet[] seen;
    private final int[] missing;
    private final long[] finishedAt;
    private int finished;
    private long bytes;
    private long packets;
    private long duplicates;
    private long strays;
    private long lastVt;
    private boolean gaveUp;

    TrafficHost(TrafficDriverSpec spec) {
        this.spec = spec;
        this.full = Payload.of(new int[spec.payloadBytes() / 4]);
        int n = spec.receives().size();
        this.seen = new BitSet[n];
        this.missing = new int[n];
        this.finishedAt = new long[n];
        Arrays.fill(finishedAt, -1);
        for (int i = 0; i < n; i++) {
            TrafficFlows.Flow f = spec.receives().get(i);
            slots.put(f.index(), i);
            missing[i] = TrafficDriverSpec.packets(f.bytes(), spec.payloadBytes());
            seen[i] = new BitSet(missing[i]);
        }
    }

    @Override
    public List<Out> start(long now) {
        return due(now);
    }

    @Override
    public boolean accepts(InaPacket packet) {
        return packet.header().type() == PacketType.UNICAST;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaHeader h = frame.packet().header();
        Integer slot = h.seq() >= 0 && h.seq() <= Integer.MAX_VALUE ? slots.get((int) h.seq()) : null;
        int total = slot == null
                ? 0
                : TrafficDriverSpec.packets(spec.receives().get(slot).bytes(), spec.payloadBytes());
        if (slot == null || h.entropy() < 0 || h.entropy() >= total) {
            // not a packet of a flow to this host (a misrouted or forged one): counted, never a crash
            strays++;
            return List.of();
        }
        if (seen[slot].get(h.entropy())) {
            duplicates++;
            return List.of();
        }
        seen[slot].set(h.entropy());
        packets++;
        // the flow's own bytes, not the last packet's padding to whole int32 elements
        bytes += Math.min(
                spec.payloadBytes(), spec.receives().get(slot).bytes() - (long) h.entropy() * spec.payloadBytes());
        lastVt = Math.max(lastVt, frame.vt());
        if (--missing[slot] == 0) {
            finished++;
            finishedAt[slot] = frame.vt();
        }
        return List.of();
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = due(now);
        if (now >= spec.giveUpNanos() && finished < missing.length) {
            gaveUp = true;
        }
        return out;
    }

    /** The packets of every flow whose start has come, each flow's at its own start. */
    private List<Out> due(long now) {
        List<Out> out = new ArrayList<>();
        while (next < spec.sends().size() && spec.sends().get(next).startNanos() <= now) {
            TrafficFlows.Flow f = spec.sends().get(next++);
            int n = TrafficDriverSpec.packets(f.bytes(), spec.payloadBytes());
            for (int k = 0; k < n; k++) {
                long left = f.bytes() - (long) k * spec.payloadBytes();
                Payload p = left >= spec.payloadBytes() ? full : Payload.of(new int[(int) ((left + 3) / 4)]);
                InaHeader h = InaHeader.of(PacketType.UNICAST, spec.tenant(), spec.wireJob(), f.index())
                        .withEntropy(k);
                out.add(new Out(new Frame(new InaPacket(h, none, p), f.to(), f.startNanos()), 0));
                packetsSent++;
            }
        }
        return out;
    }

    @Override
    public long nextDeadline() {
        if (next < spec.sends().size()) {
            return spec.sends().get(next).startNanos();
        }
        return finished < missing.length && !gaveUp ? spec.giveUpNanos() : Long.MAX_VALUE;
    }

    @Override
    public boolean done() {
        return next == spec.sends().size() && (finished == missing.length || gaveUp);
    }

    /**
     * Per flow addressed here ({@code unitVt}, in {@link TrafficDriverSpec#receives()} order) its last
     * packet's arrival, -1 when unfinished; the counts in {@code stats}.
     */
    @Override
    public DriverReport report() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put(FLOWS_STARTED, (long) next);
        stats.put("packetsSent", packetsSent);
        stats.put("packetsReceived", packets);
        stats.put(BYTES_RECEIVED, bytes);
        stats.put("duplicates", duplicates);
        stats.put("strays", strays);
        return new DriverReport(
                spec.host(),
                DriverReport.Role.TRAFFIC,
                missing.length,
                finished,
                List.of(),
                List.of(),
                lastVt,
                finished,
                done(),
                List.of(),
                stats,
                null,
                finishedAt.clone());
    }

    static final String FLOWS_STARTED = "flowsStarted";
    static final String BYTES_RECEIVED = "bytesReceived";
}
