package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TimeCurve;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Recovery;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.RecoveryTime;
import org.bitina.usecase.Straggler;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A member of a host AllReduce baseline (A7, L2): runs one {@link HostSchedule} (ring, double
 * binary tree, halving-doubling, hierarchical) the way a host library does.
 *
 * <ul>
 *   <li><b>Window</b> ({@code data.window}): a member has at most {@code window} data packets in
 *       flight (sent and not yet acknowledged), as NCCL's ring and tree keep a fixed number of steps
 *       in flight to each peer and a slot frees when the peer has taken the data; as an INA worker has
 *       at most {@code window} chunks waiting for their result. Sends due beyond the window wait, the
 *       lowest chunk first. A receiver takes (and acknowledges) every packet at once, so the window
 *       never deadlocks.
 *   <li><b>Duplicates</b>: a packet whose provenance the member's copy holds already is dropped and
 *       counted ({@code duplicatesDropped}); its contribution is never added twice (F4).
 *   <li><b>Loss</b>: every data packet is acknowledged by the member it went to (an {@code ACK} with
 *       the packet's chunk and provenance); an unacknowledged send goes again, flagged, after the
 *       retransmission timeout, doubling on each try. The timeout is RFC 6298's, SRTT + 4 RTTVAR over
 *       the acknowledgements of packets sent once (Karn), never below the plan's bound (the modelled
 *       round trip plus the most queueing the windows allow; {@link HostBaselines#retransmissionTimeout}),
 *       so no timer fires in a lossless virtual-clock run. A link's duplicate of a first send is not
 *       acknowledged again; a flagged retransmission is (its first acknowledgement may be what was lost).
 *       After {@link RecoveryPolicy#HOST_SENDS} sends a packet is given up and named, never silently, and so is every
 *       other send to that peer: it does not answer (a silent member), and waiting out each of its
 *       packets in turn would only hold the phase's end back.
 *   <li><b>Congestion</b> ({@code congestion = dcqcn}): as RoCE's reliable connections do, a member
 *       answers a data packet that arrived ECN-marked with a CNP on its acknowledgement (at most one
 *       per peer per CNP interval), and paces its sends to each peer at the rate of that peer's
 *       queue pair, DCQCN's reaction point ({@link Dcqcn}), cut by the CNPs that come back. A send
 *       whose peer's queue pair is still busy waits for it, and the sends due behind it wait too
 *       (the window's order is kept: lowest chunk first).
 * </ul>
 */
public final class ScheduleWorker implements EndpointDriver {

    private final AllReducePlan plan;
    private final HostSchedule schedule;
    private final String host;
    private final int me;
    private final int bit;
    private final Verifier verifier;
    private final ValueGuard guard;
    private final AllReduceData data;
    private final EndpointSet full;
    /** Whether this member's own data is part of the finished chunk (not for a broadcast's receivers). */
    private final boolean contributes;

    private final int capacity;
    /** Member index to bit and back. */
    private final int[] bits;

    private final Map<Integer, Integer> memberOfBit = new HashMap<>();
    private final SplittableRandom jitter;
    private final CompletionTimes times;
    private final boolean silent;

    /** Per chunk: what this member's copy holds (null for a silent member), its value, its sends not yet due. */
    private final EndpointSet[] holds;

    private final Payload[] value;
    private final List<List<Pending>> waiting;
    /** Sends that are due, waiting for room in the window: lowest chunk first, then in the order they fell due. */
    private final PriorityQueue<Due> due =
            new PriorityQueue<>(Comparator.comparingInt(Due::chunk).thenComparingLong(Due::order));

    private long dueOrder;
    /** The modelled time of the latest delivery or timer: when a send that waited for the window leaves. */
    private long lastEventVt;
    /** Per chunk: sends due or not yet acknowledged; whether its sum was taken. */
    private final int[] unacked;

    private final boolean[] stored;
    private final Map<Key, Outstanding> outstanding = new LinkedHashMap<>();
    /**
     * The same sends by when they fall due, then in the map's order: the next deadline is the first one's,
     * found without a scan of every send in flight on each event (a window's worth per member and job).
     */
    private final TreeSet<Outstanding> byDue =
            new TreeSet<>(Comparator.<Outstanding>comparingLong(o -> o.dueAt).thenComparingLong(o -> o.order));
    /** The order sends entered {@link #outstanding}: a timer retransmits what is due in it, as before. */
    private long outstandingOrder;

    private int received;
    /** The chunks whose finished sum this member ends with ({@link HostSchedule#keeps}). */
    private final int kept;

    private int verifiedChunks;
    private long lastVt;
    private final List<String> mismatches = new ArrayList<>();
    private final List<String> gaveUp = new ArrayList<>();
    /** Peers given up on: nothing more is sent to them. */
    private final Set<Integer> unanswering = new HashSet<>();

    private long givenUp;
    private final List<Long> failed = new ArrayList<>();
    private long duplicates;
    private long retransmissions;
    /** Sends gone again and not yet acknowledged: the time lost to recovery, as every mode counts it. */
    private final RecoveryTime<Key> recovery = new RecoveryTime<>();

    private long acks;
    private long dataSends;
    /** RFC 6298 estimator, in the driver's clock's nanoseconds; srtt < 0 before the first sample. */
    private double srtt = -1;

    private double rttvar;

    /** Under DCQCN, per peer: its queue pair's reaction point, when it may send next; null without. */
    private final Dcqcn[] rates;

    private final long[] qpFree;
    /** Per peer, when this member last put a CNP on an acknowledgement to it. */
    private final long[] lastCnp;

    private final TimeCurve rateCurve = new TimeCurve();
    private long marked;
    private long cnpsSent;

    private record Pending(int to, EndpointSet when) {}

    /** A send that fell due: what the chunk held then and its value then (payloads are never changed in place). */
    private record Due(int chunk, long order, int to, EndpointSet holds, Payload value, long vt) {}

    /** A send waiting for its acknowledgement: the chunk, the member it went to, what it held. */
    private record Key(int chunk, int to, EndpointSet holds) {}

    private static final class Outstanding {
        final Key key;
        final Frame frame;
        long order;
        int sends = 1;
        long sentAt;
        long dueAt;
        long dueVt;

        Outstanding(Key key, Frame frame, long order, long sentAt, long dueAt, long dueVt) {
            this.key = key;
            this.frame = frame;
            this.order = order;
            this.sentAt = sentAt;
            this.dueAt = dueAt;
            this.dueVt = dueVt;
        }
    }

    /** A member alone, checking against references of its own. */
    public ScheduleWorker(AllReducePlan plan, String host) {
        this(plan, host, new Verifier(), null);
    }

    /** @param endpointSecret what the job's endpoints share for S6: the baselines carry masked, checksummed values too */
    public ScheduleWorker(AllReducePlan plan, String host, Verifier verifier, byte[] endpointSecret) {
        this(plan, host, verifier, endpointSecret, HostBaselines.schedule(plan));
    }

    /** A member of {@code schedule}, which a kind of its own supplies (one that is none of {@link HostBaselines}). */
    public ScheduleWorker(
            AllReducePlan plan, String host, Verifier verifier, byte[] endpointSecret, HostSchedule schedule) {
        this.plan = plan;
        this.host = host;
        this.schedule = schedule;
        this.me = plan.members().indexOf(host);
        this.bit = plan.space().index(host);
        this.verifier = verifier;
        this.guard = new ValueGuard(plan, endpointSecret);
        this.data = verifier.data(plan.data());
        this.capacity = plan.space().capacity();
        this.bits = new int[plan.members().size()];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = plan.space().index(plan.members().get(i));
            memberOfBit.put(bits[i], i);
        }
        this.contributes = me >= 0 && schedule.contributors().get(me);
        this.full = set(schedule.contributors());
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
        this.times = new CompletionTimes(data.chunks());
        this.silent = plan.silent().contains(host);
        int chunks = data.chunks();
        this.holds = new EndpointSet[chunks];
        this.value = new Payload[chunks];
        this.waiting = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            waiting.add(null);
        }
        this.unacked = new int[chunks];
        this.stored = new boolean[chunks];
        int k = 0;
        for (int c = 0; c < chunks; c++) {
            k += me >= 0 && schedule.keeps(me, c) ? 1 : 0;
        }
        this.kept = k;
        this.rates = plan.congestion() == null ? null : new Dcqcn[bits.length];
        this.qpFree = new long[bits.length];
        this.lastCnp = new long[bits.length];
        Arrays.fill(lastCnp, Long.MIN_VALUE / 2);
        for (int m = 0; rates != null && m < rates.length; m++) {
            Long line = plan.lineBps().get(host);
            if (line == null) {
                throw new IllegalArgumentException("no line rate for " + host + " in the plan of " + plan.jobName());
            }
            rates[m] = new Dcqcn(plan.congestion(), line);
        }
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.UNICAST || p.header().type() == PacketType.ACK;
    }

    @Override
    public List<Out> start(long now) {
        List<Out> out = new ArrayList<>();
        if (silent) {
            return out;
        }
        for (int c = 0; c < data.chunks(); c++) {
            // a member with no data of its own (a broadcast's receiver) starts holding nothing
            holds[c] = contributes ? FlatBitmap.of(capacity, bit) : FlatBitmap.of(capacity);
            value[c] = contributes ? guard.encode(bit, c, data.payload(bit, c)) : null;
            List<Pending> p = new ArrayList<>(3);
            for (HostSchedule.Send s : schedule.sends(me, c)) {
                p.add(new Pending(s.to(), set(s.when())));
            }
            waiting.set(c, p);
            changed(c, 0);
        }
        drain(now, out);
        return out;
    }

    /** Sends what is due while the window has room. */
    private void drain(long now, List<Out> out) {
        while (outstanding.size() < plan.data().window() && !due.isEmpty()) {
            Due d = due.peek();
            if (rates != null && !unanswering.contains(d.to()) && leaves(d) > now) {
                return; // its peer's queue pair is busy: a timer at qpFree sends it
            }
            due.poll();
            if (unanswering.contains(d.to())) {
                givenUp++;
                unacked[d.chunk()]--;
                closeIfDone(d.chunk());
                continue;
            }
            out.add(send(d, now));
        }
    }

    private EndpointSet set(BitSet members) {
        int[] b = new int[members.cardinality()];
        int k = 0;
        for (int m = members.nextSetBit(0); m >= 0; m = members.nextSetBit(m + 1)) {
            b[k++] = bits[m];
        }
        return FlatBitmap.of(capacity, b);
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        List<Out> out = new ArrayList<>(2);
        if (silent) {
            return finishing(out, now);
        }
        InaPacket p = frame.packet();
        Integer from = MemberFrames.sender(p, holds.length, memberOfBit, mismatches);
        if (from == null) {
            return finishing(out, now);
        }
        int c = (int) p.header().seq();
        lastEventVt = Math.max(lastEventVt, frame.vt());
        if (p.header().type() == PacketType.ACK) {
            if (rates != null && p.header().has(Flags.CE)) {
                rates[from].cnp(now); // the CNP this acknowledgement carries
            }
            acked(c, from, p.endpoints(), now);
        } else {
            apply(frame, c, out);
        }
        drain(now, out);
        return finishing(out, now);
    }

    /** A data packet: a duplicate, the finished sum, or contributions to add. */
    private void apply(Frame frame, int c, List<Out> out) {
        InaPacket p = frame.packet();
        int from = memberOfBit.get(p.header().source());
        EndpointSet in = p.endpoints();
        EndpointSet h = holds[c];
        if (in.isSubsetOf(h)) {
            duplicate(frame, from, out);
            return;
        }
        out.add(ack(frame, from));
        if (in.equals(full)) {
            holds[c] = full;
            value[c] = p.payload();
        } else if (value[c] == null) {
            mismatches.add("chunk " + c + " from " + plan.members().get(from) + " holds " + in + ", not the whole "
                    + full + " that a member without data of its own waits for");
            return;
        } else if (!in.intersects(h)) {
            Payload sum = value[c].copy();
            plan.data().op().apply(sum, p.payload());
            value[c] = sum;
            holds[c] = h.or(in);
        } else {
            mismatches.add("chunk " + c + " from " + plan.members().get(from) + " holds " + in
                    + ", which overlaps what this member holds, " + h);
            return;
        }
        changed(c, frame.vt());
    }

    private void duplicate(Frame frame, int from, List<Out> out) {
        duplicates++;
        if (frame.packet().header().has(Flags.RETRANSMIT)) {
            out.add(ack(frame, from));
        }
    }

    /** The chunk's copy changed: the sends it now holds enough for fall due; the sum is taken when it is finished. */
    private void changed(int c, long vt) {
        List<Pending> p = waiting.get(c);
        for (Iterator<Pending> it = p.iterator(); it.hasNext(); ) {
            Pending s = it.next();
            if (s.when().equals(holds[c])) {
                it.remove();
                due.add(new Due(c, dueOrder++, s.to(), holds[c], value[c], vt));
                unacked[c]++;
            }
        }
        if (holds[c].equals(full) && !stored[c] && schedule.keeps(me, c)) {
            stored[c] = true;
            store(c, vt);
        }
        closeIfDone(c);
    }

    private void closeIfDone(int c) {
        if ((stored[c] || !schedule.keeps(me, c))
                && unacked[c] == 0
                && waiting.get(c) != null
                && waiting.get(c).isEmpty()) {
            // nothing of it is left to send or to hear back about: its copy can go
            waiting.set(c, null);
            value[c] = null;
        }
    }

    private void store(int c, long vt) {
        times.done(c, vt);
        received++;
        lastVt = Math.max(lastVt, vt);
        Payload clear = guard.decode(c, full, value[c]);
        if (clear == null) {
            mismatches.add("chunk " + c + ": the sum failed its checksum");
            failed.add((long) c);
            return;
        }
        Verifier.Mismatch m = verifier.check(data, c, full, clear);
        if (m == null) {
            verifiedChunks++;
        } else {
            mismatches.add(m.toString());
        }
    }

    private Out send(Due d, long now) {
        int c = d.chunk();
        int to = d.to();
        // a send that waited for the window leaves when the acknowledgement that made room came, or, under
        // DCQCN, when its peer's queue pair is free
        long vt = leaves(d);
        long delay = 0;
        Straggler s = plan.stragglers().get(host);
        if (s != null && s.delays(c)) {
            delay = s.draw(jitter);
        }
        String peer = plan.members().get(to);
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), c)
                .withOp(plan.data().op())
                .withSource(bit)
                .withDestination(bits[to]);
        Frame f = new Frame(new InaPacket(h, d.holds(), d.value()), peer, vt + delay);
        long rto = policy().after(1);
        Key k = new Key(c, to, d.holds().toFlat());
        Outstanding o = new Outstanding(k, f, outstandingOrder++, now + delay, now + delay + rto, vt + delay + rto);
        Outstanding replaced = outstanding.put(k, o);
        if (replaced != null) {
            unacked[c]--; // the same send fell due twice (it cannot: a chunk's holds only grow): one acknowledgement
            // will do
            byDue.remove(replaced);
            o.order = replaced.order; // the map keeps a replaced key where it was
        }
        byDue.add(o);
        dataSends++;
        if (rates != null) {
            long rate = rates[to].rateAt(vt);
            rateCurve.record(vt, rate);
            long bits = 8L * PacketCodec.encodedSize(f.packet());
            qpFree[to] = vt + delay + -Math.floorDiv(-bits * 1_000_000_000L, rate);
        }
        return new Out(f, delay);
    }

    /** When send {@code d} may leave: once it fell due and the window made room, and its peer's queue pair is free. */
    private long leaves(Due d) {
        long vt = Math.max(d.vt(), lastEventVt);
        return rates == null ? vt : Math.max(vt, qpFree[d.to()]);
    }

    private Out ack(Frame data, int to) {
        acks++;
        InaPacket p = data.packet();
        InaHeader h = InaHeader.of(
                        PacketType.ACK,
                        plan.tenant(),
                        plan.wireJob(),
                        p.header().seq())
                .withSource(bit)
                .withDestination(bits[to]);
        if (rates != null && p.header().has(Flags.CE)) {
            marked++;
            if (data.vt() - lastCnp[to] >= plan.congestion().cnpNanos()) {
                // the notification point: this acknowledgement carries the peer's CNP
                lastCnp[to] = data.vt();
                cnpsSent++;
                h = h.withFlags(Flags.CE);
            }
        }
        return new Out(
                new Frame(
                        new InaPacket(h, p.endpoints(), Payload.EMPTY),
                        plan.members().get(to),
                        data.vt()),
                0);
    }

    private void acked(int c, int from, EndpointSet what, long now) {
        // flat whatever encoding it came in (an edge may translate it): the key's equality and hash
        Outstanding o = outstanding.remove(new Key(c, from, what.toFlat()));
        if (o == null) {
            duplicates++; // a second acknowledgement (a link's duplicate, or of a retransmission)
            return;
        }
        byDue.remove(o);
        recovery.answered(o.key, now);
        if (o.sends == 1) {
            sample(now - o.sentAt);
        }
        unacked[c]--;
        closeIfDone(c);
    }

    /** RFC 6298 section 2, with alpha 1/8 and beta 1/4. */
    private void sample(long rtt) {
        if (rtt < 0) {
            return;
        }
        if (srtt < 0) {
            srtt = rtt;
            rttvar = rtt / 2.0;
        } else {
            rttvar = 0.75 * rttvar + 0.25 * Math.abs(srtt - rtt);
            srtt = 0.875 * srtt + 0.125 * rtt;
        }
    }

    /** The retransmission timeout now: the estimator's, never below the plan's bound. */
    long rto() {
        long bound = plan.timeoutNanos();
        return srtt < 0 ? bound : Math.max(bound, (long) Math.ceil(srtt + 4 * rttvar));
    }

    /** The one retransmission rule ({@link RecoveryPolicy}) on the estimator's timeout now, bounded by the job's settings. */
    private RecoveryPolicy policy() {
        return RecoveryPolicy.doubling(rto(), RecoveryPolicy.DOUBLINGS, RecoveryPolicy.HOST_SENDS, plan.recovery());
    }

    @Override
    public long nextDeadline() {
        long at = byDue.isEmpty() ? Long.MAX_VALUE : byDue.first().dueAt;
        if (rates != null && !due.isEmpty() && outstanding.size() < plan.data().window()) {
            at = Math.min(at, leaves(due.peek())); // the send that waits for its queue pair
        }
        return at;
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        List<Outstanding> fallen = new ArrayList<>();
        while (!byDue.isEmpty() && byDue.first().dueAt <= now) {
            fallen.add(byDue.pollFirst());
        }
        // in the order they were sent, as a walk over the map would meet them: a peer given up on early in
        // the walk is given up on for the sends after it
        fallen.sort(Comparator.comparingLong(o -> o.order));
        // the estimator moves only with acknowledgements: one rule for every packet that fell due now
        RecoveryPolicy rule = policy();
        for (Outstanding o : fallen) {
            Key k = o.key;
            if (unanswering.contains(k.to()) || rule.exhausted(o.sends)) {
                if (unanswering.add(k.to())) {
                    gaveUp.add("chunk " + k.chunk() + " to " + plan.members().get(k.to())
                            + ": no acknowledgement after " + o.sends + " sends; nothing more is sent to it");
                }
                outstanding.remove(k);
                recovery.answered(k, now);
                givenUp++;
                unacked[k.chunk()]--;
                closeIfDone(k.chunk());
                continue;
            }
            InaPacket p = o.frame.packet();
            InaPacket again = new InaPacket(
                    p.header().withFlags(p.header().flags() | Flags.RETRANSMIT), p.endpoints(), p.payload());
            long vt = o.dueVt;
            lastEventVt = Math.max(lastEventVt, vt);
            o.sends++;
            long wait = rule.after(o.sends);
            o.sentAt = now;
            o.dueAt = now + wait;
            o.dueVt = vt + wait;
            byDue.add(o);
            recovery.resent(k, now);
            retransmissions++;
            dataSends++;
            out.add(new Out(new Frame(again, o.frame.destination(), vt), 0));
        }
        drain(now, out);
        return finishing(out, now);
    }

    /** What a handler sends, after noting when this endpoint finished (its time lost to recovery ends there). */
    private List<Out> finishing(List<Out> out, long now) {
        // a member that keeps nothing (a chain's sender) is finished when its sends are answered
        if (done() && (kept > 0 || outstanding.isEmpty())) {
            recovery.finished(now);
        }
        return out;
    }

    @Override
    public boolean done() {
        return received == kept;
    }

    @Override
    public DriverReport report() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("dataSends", dataSends);
        stats.put(Recovery.RETRANSMISSIONS, retransmissions);
        stats.put("duplicatesDropped", duplicates);
        stats.put("acks", acks);
        stats.put("sendsGivenUp", givenUp);
        stats.put(Recovery.RECOVERY_NANOS, recovery.nanos());
        stats.putAll(policy().stats());
        if (rates != null) {
            long cnps = 0;
            long cuts = 0;
            long lowest = Long.MAX_VALUE;
            for (Dcqcn q : rates) {
                cnps += q.cnps();
                cuts += q.cuts();
                lowest = Math.min(lowest, q.lowestBps());
            }
            stats.put(ECN_MARKED, marked);
            stats.put(CNPS_SENT, cnpsSent);
            stats.put(CNPS_TAKEN, cnps);
            stats.put(RATE_CUTS, cuts);
            stats.put(DriverReport.LOWEST_RATE, lowest);
        }
        DriverReport r = DriverReport.of(host, DriverReport.Role.RING_WORKER)
                .chunks(kept)
                .received(received)
                .mismatches(List.copyOf(mismatches))
                // unfinished: how far it got in modelled time (its last event), so a stalled phase is not 0 ns
                .lastVt(done() ? lastVt : Math.max(lastVt, lastEventVt))
                .verifiedChunks(verifiedChunks)
                .done(done())
                .dropped(List.copyOf(gaveUp))
                .stats(stats)
                .pace(rates == null ? null : rateCurve.range())
                .build()
                .withUnitTimes(times);
        ValueSecurity v = Objects.requireNonNullElse(plan.values(), ValueSecurity.OFF);
        return v.any()
                ? r.withValues(new DriverReport.ValueChecks(v.masking(), v.checksum(), List.copyOf(failed), List.of()))
                : r;
    }

    static final String ECN_MARKED = "ecnMarked";
    static final String CNPS_SENT = "cnpsSent";
    static final String CNPS_TAKEN = "cnpsTaken";
    static final String RATE_CUTS = "rateCuts";
}
