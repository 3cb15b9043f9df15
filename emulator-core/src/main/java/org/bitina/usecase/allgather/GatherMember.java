package org.bitina.usecase.allgather;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Recovery;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.RecoveryTime;
import org.bitina.usecase.Straggler;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.MemberFrames;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A member of an all-gather (C2), in the network or on the ring ({@link GatherRoutes}). It starts
 * with its own shard (chunk c is member c mod N's) and sends each chunk it holds to the members the
 * routes name: in the network one DATA packet whose bitmap names every other member, replicated by
 * the switches (F3); on the ring a unicast to its successor, passed on. Every copy that arrives is
 * acknowledged to its sender (an ACK with the receiver's bit) and checked against the owner's
 * seeded input, exactly (nothing is computed on the way). The sender keeps at most {@code window}
 * chunks unacknowledged and sends a chunk again, flagged, to exactly the members whose
 * acknowledgement is overdue (R3's miss set), doubling the wait each time; after {@link RecoveryPolicy#GATHER_SENDS}
 * it gives up on them and says so: per member given up on, which chunks went unacknowledged after
 * how many sends, and how many it held back from it since (a give-up in the report, never silence).
 */
final class GatherMember implements EndpointDriver {
    /** What a give-up line says ({@link DriverReport#gaveUp}). */
    static final String GAVE_UP = "no acknowledgement after";

    /** Chunks named in a give-up line before "...": its count is always whole. */
    private static final int NAMED_CHUNKS = 8;

    private final AllReducePlan plan;
    /** When a copy goes again to those who did not acknowledge it, and how often ({@link RecoveryPolicy}). */
    private final RecoveryPolicy policy;

    private final GatherRoutes routes;
    private final String host;
    private final int me;
    private final int bit;
    private final int n;
    private final int capacity;
    private final int[] bits;
    private final Map<Integer, Integer> memberOfBit = new HashMap<>();
    private final AllReduceData data;
    private final boolean silent;
    private final SplittableRandom jitter;
    private final CompletionTimes times;

    /** Per chunk: its values here (null until it came), whether they are the owner's. */
    private final Payload[] value;

    private final boolean[] verified;
    private int held;
    private int verifiedChunks;
    /** Chunks held and due to be sent on, lowest first. */
    private final TreeSet<Integer> due = new TreeSet<>();
    /** Chunks sent and not acknowledged by every member they went to. */
    private final Map<Integer, Outstanding> outstanding = new LinkedHashMap<>();
    /** Members given up on: nothing more is sent to them. */
    private final Set<Integer> unanswering = new HashSet<>();

    private final List<String> mismatches = new ArrayList<>();
    /** Per member given up on: the chunks it never acknowledged, and how many were held back from it since. */
    private final Map<Integer, TreeSet<Integer>> gaveUpOn = new TreeMap<>();

    private final Map<Integer, Integer> heldBack = new TreeMap<>();
    private long lastEventVt;
    private long lastVt;
    private long dataSends;
    private long retransmissions;
    /** Shards sent again and not yet acknowledged by everyone they went to: the time lost to recovery. */
    private final RecoveryTime<Integer> recovery = new RecoveryTime<>();

    private long acks;
    private long duplicates;

    private static final class Outstanding {
        EndpointSet waiting;
        int sends = 1;
        long dueAt;
        long vt;

        Outstanding(EndpointSet waiting, long dueAt, long vt) {
            this.waiting = waiting;
            this.dueAt = dueAt;
            this.vt = vt;
        }
    }

    GatherMember(AllReducePlan plan, String host, GatherRoutes routes) {
        this(plan, host, routes, new AllReduceData(plan.data()));
    }

    /** @param data the job's inputs, shared by the members of a JVM (a sum's bases are drawn once) */
    GatherMember(AllReducePlan plan, String host, GatherRoutes routes, AllReduceData data) {
        this.plan = plan;
        this.policy = RecoveryPolicy.doubling(
                plan.timeoutNanos(), RecoveryPolicy.DOUBLINGS, RecoveryPolicy.GATHER_SENDS, plan.recovery());
        this.routes = routes;
        this.host = host;
        this.me = plan.members().indexOf(host);
        this.bit = plan.space().index(host);
        this.n = plan.members().size();
        this.capacity = plan.space().capacity();
        this.bits = new int[n];
        for (int i = 0; i < n; i++) {
            bits[i] = plan.space().index(plan.members().get(i));
            memberOfBit.put(bits[i], i);
        }
        this.data = data;
        this.silent = plan.silent().contains(host);
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
        this.times = new CompletionTimes(data.chunks());
        this.value = new Payload[data.chunks()];
        this.verified = new boolean[data.chunks()];
    }

    private int owner(int chunk) {
        return GatherRoutes.owner(chunk, n);
    }

    @Override
    public boolean accepts(InaPacket p) {
        PacketType t = p.header().type();
        return t == PacketType.DATA || t == PacketType.UNICAST || t == PacketType.ACK;
    }

    @Override
    public List<Out> start(long now) {
        List<Out> out = new ArrayList<>();
        if (silent) {
            return out;
        }
        for (int c = 0; c < data.chunks(); c++) {
            if (owner(c) == me) {
                // its own shard: its own seeded input, held from the start
                value[c] = data.payload(bit, c);
                verified[c] = true;
                verifiedChunks++;
                held++;
                times.done(c, 0);
                due.add(c);
            }
        }
        drain(now, out);
        return out;
    }

    private void drain(long now, List<Out> out) {
        while (outstanding.size() < plan.data().window() && !due.isEmpty()) {
            int c = due.pollFirst();
            EndpointSet to = FlatBitmap.of(capacity);
            for (int m : routes.targets(me, c)) {
                if (!unanswering.contains(m)) {
                    to = to.or(FlatBitmap.of(capacity, bits[m]));
                } else {
                    heldBack.merge(m, 1, Integer::sum);
                }
            }
            if (to.isEmpty()) {
                continue;
            }
            long delay = 0;
            Straggler s = plan.stragglers().get(host);
            if (s != null && s.delays(c)) {
                delay = s.draw(jitter);
            }
            long vt = lastEventVt + delay;
            outstanding.put(c, new Outstanding(to, now + delay + policy.after(1), vt + policy.after(1)));
            out.add(new Out(copy(c, to, vt, false), delay));
        }
    }

    /** Chunk {@code c} to the members of {@code to}: a multicast DATA packet, or a unicast to the one ring successor. */
    private Frame copy(int c, EndpointSet to, long vt, boolean again) {
        dataSends++;
        int flags = again ? Flags.RETRANSMIT : 0;
        if (routes.ring()) {
            int peer = memberOfBit.get(to.nextSetBit(0));
            InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), c)
                    .withSource(bit)
                    .withDestination(bits[peer])
                    .withFlags(flags);
            return new Frame(new InaPacket(h, to, value[c]), plan.members().get(peer), vt);
        }
        InaHeader h = InaHeader.of(PacketType.DATA, plan.tenant(), plan.wireJob(), c)
                .withSource(bit)
                .withFlags(flags);
        return new Frame(new InaPacket(h, to, value[c]), null, vt, host);
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        List<Out> out = new ArrayList<>(2);
        if (silent) {
            return out;
        }
        InaPacket p = frame.packet();
        Integer from = MemberFrames.sender(p, value.length, memberOfBit, mismatches);
        if (from == null) {
            return out;
        }
        int c = (int) p.header().seq();
        lastEventVt = Math.max(lastEventVt, frame.vt());
        if (p.header().type() == PacketType.ACK) {
            acked(c, from, now);
        } else {
            take(frame, c, from, out);
        }
        drain(now, out);
        return finishing(out, now);
    }

    /** What a handler sends, after noting when this member finished (its time lost to recovery ends there). */
    private List<Out> finishing(List<Out> out, long now) {
        if (done()) {
            recovery.finished(now);
        }
        return out;
    }

    private void take(Frame frame, int c, int from, List<Out> out) {
        InaPacket p = frame.packet();
        if (value[c] != null) {
            duplicates++;
            if (p.header().has(Flags.RETRANSMIT)) {
                out.add(ack(frame, c, from)); // its first acknowledgement may be what was lost
            }
            return;
        }
        out.add(ack(frame, c, from));
        value[c] = p.payload();
        held++;
        times.done(c, frame.vt());
        lastVt = Math.max(lastVt, frame.vt());
        int owner = owner(c);
        if (same(p.payload(), data.payload(bits[owner], c))) {
            verified[c] = true;
            verifiedChunks++;
        } else {
            mismatches.add("chunk " + c + ": not " + plan.members().get(owner) + "'s shard as it sent it");
        }
        if (!routes.targets(me, c).isEmpty()) {
            due.add(c);
        }
    }

    private static boolean same(Payload a, Payload b) {
        if (a instanceof Payload.Float32 x && b instanceof Payload.Float32 y) {
            return Arrays.equals(x.values(), y.values());
        }
        if (a instanceof Payload.Int32 x && b instanceof Payload.Int32 y) {
            return Arrays.equals(x.values(), y.values());
        }
        return false;
    }

    private Out ack(Frame got, int c, int to) {
        acks++;
        InaHeader h = InaHeader.of(PacketType.ACK, plan.tenant(), plan.wireJob(), c)
                .withSource(bit)
                .withDestination(bits[to]);
        InaPacket a = new InaPacket(h, FlatBitmap.of(capacity, bit), Payload.EMPTY);
        return new Out(new Frame(a, plan.members().get(to), got.vt()), 0);
    }

    private void acked(int c, int from, long now) {
        Outstanding o = outstanding.get(c);
        if (o == null || !o.waiting.contains(bits[from])) {
            duplicates++; // a second acknowledgement (a link's duplicate, or of a retransmission)
            return;
        }
        o.waiting = o.waiting.andNot(FlatBitmap.of(capacity, bits[from]));
        if (o.waiting.isEmpty()) {
            outstanding.remove(c);
            recovery.answered(c, now);
        }
    }

    @Override
    public long nextDeadline() {
        long d = Long.MAX_VALUE;
        for (Outstanding o : outstanding.values()) {
            d = Math.min(d, o.dueAt);
        }
        return d;
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        for (Iterator<Map.Entry<Integer, Outstanding>> it =
                        outstanding.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Integer, Outstanding> e = it.next();
            Outstanding o = e.getValue();
            if (o.dueAt > now) {
                continue;
            }
            int c = e.getKey();
            if (policy.exhausted(o.sends)) {
                for (int b = o.waiting.nextSetBit(0); b >= 0; b = o.waiting.nextSetBit(b + 1)) {
                    int m = memberOfBit.get(b);
                    unanswering.add(m);
                    gaveUpOn.computeIfAbsent(m, x -> new TreeSet<>()).add(c);
                }
                it.remove();
                recovery.answered(c, now);
                continue;
            }
            // again, to exactly those whose acknowledgement is overdue
            o.sends++;
            long wait = policy.after(o.sends);
            long vt = o.vt;
            lastEventVt = Math.max(lastEventVt, vt);
            o.dueAt = now + wait;
            o.vt = vt + wait;
            retransmissions++;
            recovery.resent(c, now);
            out.add(new Out(copy(c, o.waiting, vt, true), 0));
        }
        drain(now, out);
        return finishing(out, now);
    }

    @Override
    public boolean done() {
        return !silent && held == data.chunks();
    }

    /**
     * One line per member given up on, in the words the report files under its give-ups (not wrong values): {@code
     * to h3: no acknowledgement after 10 sends of 2 chunks (17, 33); 5 more chunks held back from it}.
     */
    private List<String> gaveUp() {
        List<String> lines = new ArrayList<>();
        gaveUpOn.forEach((m, chunks) -> {
            StringBuilder b = new StringBuilder("to ")
                    .append(plan.members().get(m))
                    .append(": ")
                    .append(GAVE_UP)
                    .append(' ')
                    .append(policy.maxSends())
                    .append(" sends of ")
                    .append(chunks.size())
                    .append(chunks.size() == 1 ? " chunk (" : " chunks (");
            chunks.stream().limit(NAMED_CHUNKS).forEach(c -> b.append(c).append(", "));
            b.setLength(b.length() - 2);
            b.append(chunks.size() > NAMED_CHUNKS ? ", ...)" : ")");
            int back = heldBack.getOrDefault(m, 0);
            if (back > 0) {
                b.append("; ").append(back).append(back == 1 ? " more chunk" : " more chunks");
                b.append(" held back from it");
            }
            lines.add(b.toString());
        });
        return lines;
    }

    @Override
    public DriverReport report() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("dataSends", dataSends);
        stats.put(Recovery.RETRANSMISSIONS, retransmissions);
        stats.put("duplicatesDropped", duplicates);
        stats.put("acks", acks);
        stats.put(Recovery.RECOVERY_NANOS, recovery.nanos());
        stats.putAll(policy.stats());
        return DriverReport.of(host, routes.ring() ? DriverReport.Role.RING_WORKER : DriverReport.Role.WORKER)
                .chunks(data.chunks())
                .received(held)
                .mismatches(List.copyOf(mismatches))
                .lastVt(lastVt)
                .verifiedChunks(verifiedChunks)
                .done(done())
                .stats(stats)
                .build()
                .withUnitTimes(times)
                .withGaveUp(gaveUp());
    }
}
