package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TimeCurve;
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
 *   <li><b>Sender</b>: without congestion control, at a flow's start it hands all the flow's packets
 *       to its NIC at once (open loop: the port's queue paces them at the link rate). Under DCQCN it
 *       paces each flow at the rate of the flow's reaction point ({@link Dcqcn}): a packet leaves one
 *       serialisation at that rate after the one before, and an ACK carrying a CNP cuts the rate. The
 *       flow's timer runs while packets are in flight: an ACK that moves the flow's cumulative
 *       acknowledgement restarts it (RFC 6298 5.3); when it fires, sending goes back to the first
 *       unacknowledged packet (go-back-N) and the next wait is the policy's backoff
 *       ({@link RecoveryPolicy}). After the policy's sends without progress the sender gives up on
 *       the flow and names it.
 *   <li><b>Receiver</b>: a packet in order is taken and acknowledged with the number of packets
 *       taken (cumulative); one past a gap is discarded, as a go-back-N receiver does, and one
 *       already taken is acknowledged again (its ACK may be what was lost); under DCQCN an ACK for a
 *       packet that arrived ECN-marked carries a CNP, at most one per flow per CNP interval (the
 *       notification point). NAKs are not modelled:
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
    /** Flows with packets in flight, by their timer, then index. */
    private final TreeSet<Integer> timers;

    private final boolean[] armed;
    /** The next packet of each flow to send, and one past the highest sent (below it a send is a resend). */
    private final int[] sndNxt;

    private final int[] highest;
    /** When each flow may send its next packet (its rate's pacing; the start without congestion control). */
    private final long[] nextSend;
    /** Flows with packets waiting for their pacing, by {@link #nextSend}, then index. */
    private final TreeSet<Integer> paced;

    private final boolean[] waiting;
    /** Flows acknowledged in full or given up: nothing more to send. */
    private final boolean[] over;
    /**
     * Under DCQCN, one queue pair per destination host, as a RoCE NIC keeps one per peer: its reaction
     * point ({@code rates}) and when it may send next ({@code qpFree}); its flows share its rate, so its
     * state outlives each flow. Null without congestion control.
     */
    private final Dcqcn[] rates;

    private final long[] qpFree;
    /** The rate each packet left at, over modelled time (under congestion control). */
    private final TimeCurve rateCurve = new TimeCurve();
    /** Each flow's queue pair (an index into {@link #rates}). */
    private final int[] qpOf;

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
    private long marked;
    private long cnpsSent;
    private final long[] lastCnp;

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
        this.armed = new boolean[s];
        this.sndNxt = new int[s];
        this.highest = new int[s];
        this.nextSend = new long[s];
        this.paced = new TreeSet<>((a, b) ->
                a.equals(b) ? 0 : nextSend[a] != nextSend[b] ? Long.compare(nextSend[a], nextSend[b]) : a - b);
        this.waiting = new boolean[s];
        this.over = new boolean[s];
        this.qpOf = new int[s];
        Map<String, Integer> peers = new LinkedHashMap<>();
        for (int i = 0; i < s; i++) {
            sendSlots.put(spec.sends().get(i).index(), i);
            sendTotal[i] = TrafficDriverSpec.packets(spec.sends().get(i).bytes(), spec.payloadBytes());
            qpOf[i] = peers.computeIfAbsent(spec.sends().get(i).to(), k -> peers.size());
        }
        this.rates = spec.congestion() == null ? null : new Dcqcn[peers.size()];
        this.qpFree = new long[peers.size()];
        for (int q = 0; rates != null && q < rates.length; q++) {
            rates[q] = new Dcqcn(spec.congestion(), spec.lineBps());
        }
        int n = spec.receives().size();
        this.expected = new int[n];
        this.total = new int[n];
        this.finishedAt = new long[n];
        Arrays.fill(finishedAt, -1);
        this.lastCnp = new long[n];
        // as if one had gone a whole interval before time 0: the first marked packet brings one
        Arrays.fill(lastCnp, spec.congestion() == null ? 0 : -spec.congestion().cnpNanos());
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
            onAck(slot, h.entropy(), h.has(Flags.CE), now);
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
        boolean ce = h.has(Flags.CE);
        if (ce) {
            marked++;
        }
        if (h.entropy() < expected[slot]) {
            duplicates++;
            return List.of(ack(slot, frame, ce));
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
        return List.of(ack(slot, frame, ce));
    }

    private Out ack(int slot, Frame data, boolean ce) {
        acks++;
        TrafficFlows.Flow f = spec.receives().get(slot);
        InaHeader h = InaHeader.of(PacketType.ACK, spec.tenant(), spec.wireJob(), f.index())
                .withEntropy(expected[slot]);
        if (ce
                && spec.congestion() != null
                && data.vt() - lastCnp[slot] >= spec.congestion().cnpNanos()) {
            // the notification point: this ACK carries the flow's CNP
            lastCnp[slot] = data.vt();
            cnpsSent++;
            h = h.withFlags(Flags.CE);
        }
        return new Out(new Frame(new InaPacket(h, none, Payload.EMPTY), f.from(), data.vt()), 0);
    }

    private void onAck(int slot, int cumulative, boolean cnp, long now) {
        if (over[slot]) {
            return; // a flow acknowledged in full or given up on
        }
        if (cnp && rates != null) {
            rates[qpOf[slot]].cnp(now);
        }
        if (cumulative <= acked[slot]) {
            return; // old news
        }
        disarm(slot);
        acked[slot] = cumulative;
        sendsWithoutProgress[slot] = 1;
        if (cumulative == sendTotal[slot]) {
            flowsAcked++;
            finish(slot);
            return;
        }
        if (sndNxt[slot] < cumulative) {
            // a go-back sent again what had arrived already: go on from what the receiver has
            unpace(slot);
            sndNxt[slot] = cumulative;
            if (sndNxt[slot] < sendTotal[slot]) {
                pace(slot);
            }
        }
        if (sndNxt[slot] > cumulative) {
            arm(slot, now + spec.policies().get(slot).after(1)); // packets still in flight
        }
    }

    private void arm(int slot, long at) {
        disarm(slot);
        due[slot] = at;
        timers.add(slot);
        armed[slot] = true;
    }

    private void disarm(int slot) {
        if (armed[slot]) {
            timers.remove(slot);
            armed[slot] = false;
        }
    }

    private void pace(int slot) {
        paced.add(slot);
        waiting[slot] = true;
    }

    private void unpace(int slot) {
        if (waiting[slot]) {
            paced.remove(slot);
            waiting[slot] = false;
        }
    }

    private void finish(int slot) {
        over[slot] = true;
        disarm(slot);
        unpace(slot);
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = due(now);
        while (!paced.isEmpty() && nextSend[paced.first()] <= now) {
            send(paced.first(), now, out);
        }
        while (!timers.isEmpty() && due[timers.first()] <= now) {
            int slot = timers.pollFirst();
            armed[slot] = false;
            timeouts++;
            RecoveryPolicy policy = spec.policies().get(slot);
            TrafficFlows.Flow f = spec.sends().get(slot);
            if (policy.exhausted(sendsWithoutProgress[slot])) {
                gaveUpOn.add("flow " + f.index() + " " + f.from() + "->" + f.to() + ": no acknowledgement of packet "
                        + acked[slot] + " of " + sendTotal[slot] + " after " + sendsWithoutProgress[slot]
                        + " sends; given up");
                finish(slot);
                continue;
            }
            // go back to the first packet not acknowledged, from now
            unpace(slot);
            sndNxt[slot] = acked[slot];
            nextSend[slot] = now;
            sendsWithoutProgress[slot]++;
            // the timer starts again with the first packet that leaves: under DCQCN its queue pair may
            // still be busy, and a timer that ran with nothing in flight would spend sends never made
            send(slot, now, out);
        }
        if (now >= spec.giveUpNanos() && finished < total.length) {
            stoppedWaiting = true;
        }
        return out;
    }

    /** The packets of every flow whose start has come, each flow's from its own start. */
    private List<Out> due(long now) {
        List<Out> out = new ArrayList<>();
        while (next < spec.sends().size() && spec.sends().get(next).startNanos() <= now) {
            int slot = next++;
            sendsWithoutProgress[slot] = 1;
            nextSend[slot] = spec.sends().get(slot).startNanos();
            send(slot, now, out);
        }
        return out;
    }

    /**
     * Flow {@code slot}'s packets whose pacing lets them go by {@code now}, each at its own time (all of
     * them at once without congestion control); arms the flow's timer when none runs.
     */
    private void send(int slot, long now, List<Out> out) {
        unpace(slot);
        TrafficFlows.Flow f = spec.sends().get(slot);
        while (sndNxt[slot] < sendTotal[slot]) {
            // a flow waits for its own pacing and for its queue pair's (another flow to the same host)
            long vt = rates == null ? nextSend[slot] : Math.max(nextSend[slot], qpFree[qpOf[slot]]);
            if (vt > now) {
                nextSend[slot] = vt;
                break;
            }
            int k = sndNxt[slot]++;
            long left = f.bytes() - (long) k * spec.payloadBytes();
            Payload p = left >= spec.payloadBytes() ? full : Payload.of(new int[(int) ((left + 3) / 4)]);
            InaHeader h = InaHeader.of(PacketType.UNICAST, spec.tenant(), spec.wireJob(), f.index())
                    .withEntropy(k);
            if (k < highest[slot]) {
                h = h.withFlags(Flags.RETRANSMIT);
                retransmitted++;
            }
            highest[slot] = Math.max(highest[slot], k + 1);
            out.add(new Out(new Frame(new InaPacket(h, none, p), f.to(), vt), 0));
            packetsSent++;
            if (!armed[slot]) {
                arm(slot, vt + spec.policies().get(slot).after(sendsWithoutProgress[slot]));
            }
            if (rates != null) {
                // the next packet leaves one serialisation of this one at the flow's rate later
                long bits = 8L * (p.byteSize() + spec.overheadBytes());
                int q = qpOf[slot];
                long rate = rates[q].rateAt(vt);
                rateCurve.record(vt, rate);
                nextSend[slot] = vt + -Math.floorDiv(-bits * 1_000_000_000L, rate);
                qpFree[q] = nextSend[slot];
            }
        }
        if (sndNxt[slot] < sendTotal[slot]) {
            pace(slot);
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
        if (!paced.isEmpty()) {
            at = Math.min(at, nextSend[paced.first()]);
        }
        if (finished < total.length && !stoppedWaiting) {
            at = Math.min(at, spec.giveUpNanos());
        }
        return at;
    }

    @Override
    public boolean done() {
        return next == spec.sends().size()
                && timers.isEmpty()
                && paced.isEmpty()
                && (finished == total.length || stoppedWaiting);
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
        if (rates != null) {
            long cnps = 0;
            long cuts = 0;
            long lowest = spec.lineBps();
            for (Dcqcn r : rates) {
                cnps += r.cnps();
                cuts += r.cuts();
                lowest = Math.min(lowest, r.lowestBps());
            }
            stats.put(MARKED, marked);
            stats.put(CNPS_SENT, cnpsSent);
            stats.put(CNPS_TAKEN, cnps);
            stats.put(RATE_CUTS, cuts);
            stats.put(LOWEST_RATE, lowest);
        }
        return DriverReport.of(spec.host(), DriverReport.Role.TRAFFIC)
                .chunks(total.length)
                .received(finished)
                .lastVt(lastVt)
                .verifiedChunks(finished)
                .done(done())
                .stats(stats)
                .unitVt(finishedAt.clone())
                .gaveUp(gaveUpOn)
                .pace(rates == null ? null : rateCurve.range())
                .build();
    }

    static final String FLOWS_STARTED = "flowsStarted";
    static final String BYTES_RECEIVED = "bytesReceived";
    static final String RETRANSMITTED = "retransmitted";
    static final String TIMEOUTS = "timeouts";
    static final String DUPLICATES = "duplicates";
    static final String OUT_OF_ORDER = "outOfOrder";
    static final String MARKED = "ecnMarked";
    static final String CNPS_SENT = "cnpsSent";
    static final String CNPS_TAKEN = "cnpsTaken";
    static final String RATE_CUTS = "rateCuts";
    static final String LOWEST_RATE = DriverReport.LOWEST_RATE;
}
