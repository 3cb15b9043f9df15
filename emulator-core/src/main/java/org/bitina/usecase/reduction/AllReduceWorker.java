package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.protocol.TimeCurve;
import org.bitina.usecase.AimdWindow;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Recovery;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.RecoveryTime;
import org.bitina.usecase.Straggler;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * An AllReduce worker for the INA and parameter-server phases (A4): cuts its array into
 * chunks with sequence ids, keeps {@code window} chunks in flight, and sends the next one
 * whenever a result frees a slot. Each contribution carries P-BM = the worker's own bit.
 * Every result is checked against the reference of the contributions it holds; a better
 * result for a chunk (a straggler folded in at the root) replaces a partial one. With S6 the
 * contributions leave masked and checksummed ({@link ValueGuard}); a result that fails its
 * checksum is not taken, and the chunk is reduced again by the host ring ({@link FallbackRing}).
 */
public final class AllReduceWorker implements EndpointDriver {
    private final Verifier verifier;
    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    /** This worker's bit on the wire: its bit in the job's space, or in its partition's (H2). */
    private final int wireBit;

    private final AllReduceData data;
    private final EndpointSet expected;
    private final EndpointSet[] holds;
    private final boolean[] verified;
    private final List<String> mismatches = new ArrayList<>();
    /** Chunks this worker gave up on, its sends (or its fallback ring's) run out: its own outcome, not a wrong value. */
    private final List<String> gaveUp = new ArrayList<>();

    private final SplittableRandom jitter;
    private int nextChunk;
    private int received;
    private long lastVt;
    private final CompletionTimes times;
    /** Wall time each outstanding chunk was (re)sent, and how often; -1 once it has a result. */
    private final long[] sentAt;
    /** Chunks waiting for a result (at most a window of them): the only ones the timer looks at. */
    private final LinkedHashSet<Integer> pending = new LinkedHashSet<>();

    private boolean pendingInSendOrder = true;
    // the pending chunks by the time their result is due (due[c], set by retime), so that the next deadline
    // is the first one's instead of a scan of every pending chunk on every event
    private long[] due;
    private TreeSet<Integer> byDue;
    // when each pending chunk last joined the end of pending: a timer takes its due chunks in pending's order
    // from byDue instead of copying every pending chunk on every firing
    private final long[] queuedAt;
    private long queued;
    // a pending chunk's contribution as it went on the wire: sent again as it is instead of generated again
    // (payloads are never mutated: a switch copies before it adds)
    private final Payload[] onWire;
    private long lastSendAt = Long.MIN_VALUE;
    private final int[] attempts;
    /** When a chunk is sent again, and how often before the worker gives up on its result ({@link #policy}). */
    private final RecoveryPolicy rto;
    /**
     * Chunks whose result came partial without this worker's own contribution (lost on the way up): taken, and
     * the contribution sent again until a result holding it comes (the root folds it in), or the sends run out.
     */
    private final TreeSet<Integer> recovering = new TreeSet<>();
    /** Contributions sent again (flag RETRANSMIT) because a result was overdue. */
    private long retransmissions;
    /** Chunks sent again and still without the result they wait for: the time lost to recovery. */
    private final RecoveryTime<Integer> recovery = new RecoveryTime<>();
    /** S6: masks and checksum; the fallback ring (INA only: with a parameter server, unicasts are its results). */
    private final ValueGuard guard;

    private final FallbackRing ring;
    /** S6: chunks whose network result failed its checksum, those still waiting for the ring, those the ring gave. */
    private final TreeSet<Long> failed = new TreeSet<>();

    private final TreeSet<Integer> awaitingRing = new TreeSet<>();
    private final TreeSet<Long> fellBack = new TreeSet<>();
    /** A ring's sum that came round before this worker's own copy of the failed result did. */
    private final Map<Integer, FallbackRing.Result> early = new HashMap<>();

    /** Where contributions go: the plan's uplink, until a repaired VAT names another; null once cut off from it. */
    private String uplink;

    private boolean cutOff;
    /** Under congestion control (INA, PS): how many chunks may be in flight (null: always the plan's window). */
    private final AimdWindow window;
    /** The window after each first result, over modelled time (under AIMD). */
    private final TimeCurve windowCurve = new TimeCurve();
    /**
     * The members this worker knows will not contribute: the fault plan's silent ones and those a VAT
     * repair cut off. A partial result missing anyone else lacks a share that was lost and is sent again
     * by its worker; the root folds it in and multicasts the better result, and a worker whose copy of
     * that is lost asks for it (its contribution again: the root answers from its result cache).
     */
    private EndpointSet absent;

    /** A driver alone, checking against references of its own. */
    public AllReduceWorker(AllReducePlan plan, String host) {
        this(plan, host, new Verifier());
    }

    public AllReduceWorker(AllReducePlan plan, String host, Verifier verifier) {
        this(plan, host, verifier, null);
    }

    /** @param endpointSecret what the job's endpoints share for S6 (needed when the plan masks or checksums) */
    public AllReduceWorker(AllReducePlan plan, String host, Verifier verifier, byte[] endpointSecret) {
        this.verifier = verifier;
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.wireBit = plan.wire().index(host);
        this.data = verifier.data(plan.data());
        this.times = new CompletionTimes(data.chunks());
        // INA's results bring back the marks of the tree, a parameter server's those of its contributions
        this.window = plan.congestionControl() ? new AimdWindow(plan.data().window()) : null;
        this.expected = verifier.members(plan.space(), plan.members());
        this.holds = new EndpointSet[data.chunks()];
        this.verified = new boolean[data.chunks()];
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
        this.sentAt = new long[data.chunks()];
        this.attempts = new int[data.chunks()];
        this.due = new long[data.chunks()];
        this.queuedAt = new long[data.chunks()];
        this.onWire = new Payload[data.chunks()];
        this.byDue =
                new TreeSet<>(Comparator.<Integer>comparingLong(c -> due[c]).thenComparingInt(c -> c));
        Arrays.fill(sentAt, -1);
        this.guard = new ValueGuard(plan, endpointSecret);
        this.ring = guard.checksummed() && plan.psHost() == null ? new FallbackRing(plan, host, data.chunks()) : null;
        this.uplink = plan.uplink().get(host);
        this.rto = policy(plan);
        this.absent = plan.space().setOf(plan.silent());
    }

    /**
     * When an in-network worker sends a contribution again (L1; seed 000 sections 2 and 3: "selective
     * retransmission instead of a wholesale restart"), as SwitchML's workers do after a timeout: the one
     * {@link RecoveryPolicy}, its first timeout twice the plan's modelled round trip (the farthest member to
     * the root and back, plus a window's serialisation: {@link AllReducePlan#rttNanos()}), doubling up to the
     * root's completion timeout, past which the aggregation timers have sent a partial result anyway; at most
     * {@value RecoveryPolicy#INA_SENDS} sends, which with the cap bounds how long a worker may still ask below how long a root
     * keeps its results (20 timeouts), so every question finds its answer. The worker adds each chunk's
     * allowance (a straggler's delay, a silent member's timeout): a lossless run never retransmits. Without a
     * path model ({@code rtt = 0}: the parameter server, the real clock) four timeouts between sends, five sends.
     */
    static RecoveryPolicy policy(AllReducePlan plan) {
        long timeout = Math.max(1, plan.timeoutNanos());
        if (plan.rttNanos() <= 0) {
            return RecoveryPolicy.capped(4 * timeout, 4 * timeout, RecoveryPolicy.UNMODELLED_SENDS, plan.recovery());
        }
        return RecoveryPolicy.capped(
                Math.min(2 * plan.rttNanos(), timeout), timeout, RecoveryPolicy.INA_SENDS, plan.recovery());
    }

    /** Sends of a chunk before this worker gives up on its result. */
    int maxAttempts() {
        return rto.maxSends();
    }

    /** This worker's contribution to {@code chunk} as it goes on the wire (masked and checksummed under S6). */
    private Payload mine(int chunk) {
        return guard.encode(bit, chunk, data.payload(bit, chunk));
    }

    /** How long this worker waits for a chunk's result after its latest send before it sends the chunk again. */
    private long resultTimeout(int chunk) {
        return rto.after(attempts[chunk]) + allowance(chunk);
    }

    /**
     * What the fault plan lets a result take without anything being lost (path model only): a silent member's
     * results leave at the root's timer, a straggler's when its delayed contribution came.
     */
    private long allowance(int chunk) {
        if (plan.rttNanos() <= 0) {
            return 0;
        }
        long wait = plan.silent().isEmpty() ? 0 : plan.timeoutNanos();
        for (Straggler s : plan.stragglers().values()) {
            if (s.delays(chunk)) {
                wait = Math.max(wait, s.delayNanos() + s.jitterNanos());
            }
        }
        return wait;
    }

    @Override
    public List<Out> start(long now) {
        List<Out> out = new ArrayList<>();
        if (plan.silent().contains(host)) {
            return out;
        }
        while (nextChunk < Math.min(plan.data().window(), data.chunks())) {
            out.add(send(nextChunk++, 0, now, false));
        }
        return out;
    }

    @Override
    public long nextDeadline() {
        long ringDue = ring == null ? Long.MAX_VALUE : ring.nextDeadline();
        return Math.min(ringDue, resultDeadline());
    }

    private long resultDeadline() {
        if (pending.isEmpty()) {
            return Long.MAX_VALUE;
        }
        if (pendingInSendOrder && plan.rttNanos() <= 0) {
            int first = pending.iterator().next();
            return sentAt[first] + resultTimeout(first);
        }
        // with backoff and allowances the waits differ by chunk
        return due[byDue.first()];
    }

    /** After a chunk's send time, sends or pending state changed: its place among the deadlines. */
    private void retime(int chunk) {
        byDue.remove(chunk); // found by the due time it was filed under
        if (pending.contains(chunk)) {
            due[chunk] = sentAt[chunk] + resultTimeout(chunk);
            byDue.add(chunk);
        } else {
            onWire[chunk] = null;
        }
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        if (ring != null && ring.nextDeadline() <= now) {
            ringTimer(now, out);
        }
        for (int c : dueNow(now)) {
            if (attempts[c] >= rto.maxSends() && recovering.remove(c)) {
                // it has a partial result already, which names who is missing: the job ends with that
                sentAt[c] = -1;
                pending.remove(c);
                retime(c);
                recovered(c, now);
            } else if (attempts[c] >= rto.maxSends()) {
                // give the slot back so that the job ends, and say so: this chunk has no result
                sentAt[c] = -1;
                pending.remove(c);
                retime(c);
                received++;
                recovered(c, now);
                gaveUp.add("chunk " + c + ": no result after " + attempts[c] + " sends");
                out.addAll(sendNext(lastVt, now));
            } else {
                retransmissions++;
                recovery.resent(c, now);
                out.add(send(c, lastVt, now, true));
            }
        }
        return finishing(out, now);
    }

    /**
     * The pending chunks whose result is overdue at {@code now}, in pending's order (the order they joined its
     * end), as a scan of all of them would find them: nothing handled in a firing moves another's deadline.
     */
    private List<Integer> dueNow(long now) {
        List<Integer> out = new ArrayList<>();
        for (int c : byDue) {
            if (due[c] > now) {
                break;
            }
            out.add(c);
        }
        if (out.size() > 1) {
            out.sort(Comparator.comparingLong(c -> queuedAt[c]));
        }
        return out;
    }

    /** A chunk sent again has what it waited for (or no more sends): the time lost to recovery stops when none is left. */
    private void recovered(int chunk, long now) {
        recovery.answered(chunk, now);
    }

    private Out send(int chunk, long vt, long now, boolean retransmit) {
        sentAt[chunk] = now;
        // pending stays in the order of its send times (a resent chunk moves to the end), so the
        // earliest deadline is the first one's; a clock that went back makes nextDeadline look at all
        pendingInSendOrder &= now >= lastSendAt;
        lastSendAt = Math.max(lastSendAt, now);
        pending.remove(chunk);
        pending.add(chunk);
        queuedAt[chunk] = queued++;
        attempts[chunk]++;
        retime(chunk);
        return contribution(chunk, vt, retransmit);
    }

    private Out contribution(int chunk, long vt, boolean retransmit) {
        long delay = 0;
        Straggler s = plan.stragglers().get(host);
        if (s != null && s.delays(chunk)) {
            delay = s.draw(jitter);
        }
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, plan.tenant(), plan.wireJob(), chunk)
                .withOp(plan.data().op())
                .withSource(wireBit)
                .withFlags(retransmit ? Flags.RETRANSMIT : 0);
        Payload payload = onWire[chunk];
        if (payload == null) {
            payload = mine(chunk);
            if (sentAt[chunk] >= 0) {
                onWire[chunk] = payload; // pending: it may go again
            }
        }
        InaPacket p = new InaPacket(h, FlatBitmap.of(plan.wire().capacity(), wireBit), payload);
        return new Out(new Frame(p, uplink, vt + delay), delay);
    }

    /**
     * The VAT was rebuilt (its switches forgot the chunks they were aggregating): this worker
     * sends again, flagged as retransmissions, toward its new uplink, every chunk it sent from
     * two windows below its lowest chunk without a result on. Why that is enough: a worker sends
     * chunk x only once results freed its window, and a result needs everyone's contribution, so
     * no worker lacks a chunk more than two windows below another's lowest chunk without a
     * result; every chunk someone lacks is thus sent again by everyone who sent it. Nothing
     * counts twice: a result already held is ignored when it comes again, the VAT nodes' P-BM
     * checks take a contribution they hold as a duplicate, and a root that stays the root keeps
     * its tombstones, so a chunk it finished gets its remembered result resent, never a new sum.
     * A worker cut off stops: it is not awaited, and the others' results leave partial without it.
     */
    @Override
    public List<Out> onRetree(Map<String, String> uplinks, List<String> cut, long now) {
        if (plan.psHost() != null) {
            // the server is a host and keeps what it holds: only a worker with no path left to it hears of a crash
            if (cut.contains(host)) {
                cutOff = true;
                pending.clear();
                byDue.clear();
                recovering.clear();
            }
            return List.of();
        }
        // a worker cut off before joins again when the rebuilt tree reaches it (a switch came back):
        // it offers the chunks it has no result for again and goes on with its window; it is no longer
        // awaited (the others may have finished chunks without it, which stay partial naming it)
        absent = absent.or(plan.space().setOf(cut));
        boolean rejoined = cutOff && !cut.contains(host) && uplinks.containsKey(host);
        if (cutOff && !rejoined) {
            return List.of();
        }
        cutOff = false;
        if (cut.contains(host)) {
            cutOff = true;
            uplink = null;
            pending.clear();
            byDue.clear();
            return List.of();
        }
        if (!uplinks.containsKey(host)) {
            return List.of();
        }
        uplink = uplinks.get(host);
        List<Out> out = new ArrayList<>();
        if (plan.silent().contains(host)) {
            return out;
        }
        int lowest = 0;
        while (lowest < nextChunk && holds[lowest] != null) {
            lowest++;
        }
        for (int c = Math.max(0, lowest - 2 * plan.data().window()); c < nextChunk; c++) {
            if (pending.contains(c) || (rejoined && holds[c] == null)) {
                attempts[c] = 0; // a new tree: the chunk gets its sends afresh
                out.add(send(c, lastVt, now, true));
            } else {
                out.add(contribution(c, lastVt, true)); // for the others; this worker has its result (or gave up on it)
            }
        }
        return out;
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.RESULT || p.header().type() == PacketType.UNICAST;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket packet = frame.packet();
        long vt = frame.vt();
        long seq = packet.header().seq();
        if (seq < 0 || seq >= holds.length) {
            mismatches.add("result for unknown chunk " + seq);
            return List.of();
        }
        int chunk = (int) seq;
        if (ring != null && packet.header().type() == PacketType.UNICAST) {
            return finishing(onRing(packet, vt, now), now);
        }
        // a complete result's P-BM is the root's node bitmap (F2), which is every member; the
        // multicast copy's bitmap names only this receiver, so only a partial carries provenance
        EndpointSet got = packet.provenance() != null
                ? packet.provenance()
                : packet.header().type() == PacketType.RESULT ? expected : packet.endpoints();
        if (got != expected && (got.capacity() != expected.capacity() || !got.isSubsetOf(expected))) {
            // no result of this job holds that: named, never taken (nor a reason to stop the host)
            mismatches.add("chunk " + chunk + ": a result holding " + got + ", not members of this job");
            return List.of();
        }
        if (holds[chunk] != null && got.isSubsetOf(holds[chunk])) {
            return List.of(); // a copy, or nothing better than what this worker has
        }
        boolean gaveUp = holds[chunk] == null && sentAt[chunk] < 0 && attempts[chunk] >= rto.maxSends();
        boolean inFlight = sentAt[chunk] >= 0;
        // the first result of a chunk counts, also one that came before this worker sent it (the
        // others finished it without this worker, e.g. while its link was down); one it gave up on counted already
        boolean first = holds[chunk] == null && !gaveUp;
        if (gaveUp) {
            // a result after this worker gave up on it: take it, and withdraw the complaint
            this.gaveUp.remove("chunk " + chunk + ": no result after " + attempts[chunk] + " sends");
        }
        // a partial result without this worker's own contribution: taken, but its contribution was lost on the way
        // up, so it is sent again until the root folds it in (path model only: the unmodelled rule takes partials)
        boolean lostMine = plan.rttNanos() > 0
                && !got.contains(bit)
                && attempts[chunk] > 0
                && !cutOff
                && !plan.silent().contains(host)
                && attempts[chunk] < rto.maxSends();
        // a partial holding this worker's contribution but missing a member not known absent: that
        // member's share was lost and is on its way again; the better result is asked for if it does not come
        boolean lostOthers = plan.rttNanos() > 0
                && !lostMine
                && got.contains(bit)
                && !expected.andNot(got).isSubsetOf(absent)
                && attempts[chunk] > 0
                && !cutOff
                && !plan.silent().contains(host)
                && attempts[chunk] < rto.maxSends();
        if (lostMine) {
            recovering.add(chunk);
            if (sentAt[chunk] < 0) {
                sentAt[chunk] = now; // (a chunk offered untracked: its wait starts now)
                if (pending.add(chunk)) {
                    queuedAt[chunk] = queued++;
                }
                pendingInSendOrder = false;
                retime(chunk);
            }
        } else if (lostOthers) {
            recovering.add(chunk);
            // the wait starts now: the better result is normally multicast to everyone before it ends
            sentAt[chunk] = now;
            pending.remove(chunk);
            pending.add(chunk);
            queuedAt[chunk] = queued++;
            pendingInSendOrder = false;
            retime(chunk);
        } else {
            recovering.remove(chunk);
            sentAt[chunk] = -1;
            pending.remove(chunk);
            retime(chunk);
            recovered(chunk, now);
        }
        holds[chunk] = got;
        lastVt = Math.max(lastVt, vt);
        List<Out> out = new ArrayList<>(1);
        // a completion notice (the root's plan gave the chunk's result to its owner alone, protocol.ResultRoute):
        // what it holds is named as any result's, and there is no value here to check
        boolean notice = packet.payload().elementType() == ElementType.NONE;
        Payload clear = notice ? null : guard.decode(chunk, got, packet.payload());
        if (notice) {
            verified[chunk] = true;
            awaitingRing.remove(chunk);
            times.done(chunk, vt);
        } else if (clear == null) {
            // S6: the network's sum is not what the members sent; never taken, reduced again by the hosts
            verified[chunk] = false;
            failed.add((long) chunk);
            if (ring == null) {
                mismatches.add("chunk " + chunk + ": a result holding " + got + " failed its checksum");
            } else {
                awaitingRing.add(chunk);
                fallback(ring.failed(chunk, got, mine(chunk), vt, now), vt, out);
                FallbackRing.Result e = early.remove(chunk);
                if (e != null) {
                    fallback(new FallbackRing.Step(List.of(), e, null), vt, out);
                }
            }
        } else {
            Verifier.Mismatch m = verifier.check(data, chunk, got, clear);
            verified[chunk] = m == null;
            if (m != null) {
                mismatches.add(m + " from " + got);
            }
            awaitingRing.remove(chunk);
            times.done(chunk, vt);
        }
        if (first) {
            received++;
        }
        if (first && window != null) {
            window.onResult(chunk, packet.header().has(Flags.CE), nextChunk);
            windowCurve.record(vt, window.size());
        }
        // a chunk in flight frees a window slot (under AIMD: as many as the window now holds)
        if (first && inFlight && !plan.silent().contains(host)) {
            if (window == null) {
                out.addAll(sendNext(vt, now));
            }
            while (window != null && nextChunk < data.chunks() && nextChunk - received < window.size()) {
                out.addAll(sendNext(vt, now));
            }
        }
        return finishing(out, now);
    }

    private List<Out> onRing(InaPacket packet, long vt, long now) {
        List<Out> out = new ArrayList<>(1);
        int chunk = (int) packet.header().seq();
        fallback(ring.onPacket(packet, mine(chunk), vt, now), vt, out);
        return out;
    }

    /** S6 under loss: the fallback ring's unacknowledged packets go again; a chunk it gave up on is named. */
    private void ringTimer(long now, List<Out> out) {
        FallbackRing.Retries r = ring.onTimer(now, lastVt);
        out.addAll(r.out());
        for (FallbackRing.GaveUp g : r.gaveUp()) {
            if (awaitingRing.remove(g.chunk())) {
                gaveUp.add(g.why()); // this member has no sum for it: it gave up, and ends saying so
            }
        }
    }

    /** What the fallback ring said: packets to send on, and a sum that came round, checked as any result is. */
    private void fallback(FallbackRing.Step step, long vt, List<Out> out) {
        out.addAll(step.out());
        if (step.problem() != null) {
            mismatches.add(step.problem());
        }
        FallbackRing.Result r = step.result();
        if (r == null) {
            return;
        }
        if (!awaitingRing.remove(r.chunk())) {
            if (!verified[r.chunk()]) {
                early.put(r.chunk(), r); // this worker's own copy of the failed result is still on its way
            }
            return;
        }
        lastVt = Math.max(lastVt, vt);
        Payload clear = guard.decode(r.chunk(), r.holds(), r.payload());
        if (clear == null) {
            mismatches.add(
                    "chunk " + r.chunk() + ": the fallback ring's sum over " + r.holds() + " failed its checksum too");
            return;
        }
        holds[r.chunk()] = r.holds();
        times.done(r.chunk(), vt);
        Verifier.Mismatch m = verifier.check(data, r.chunk(), r.holds(), clear);
        verified[r.chunk()] = m == null;
        if (m != null) {
            mismatches.add(m + " from the fallback ring over " + r.holds());
        } else {
            fellBack.add((long) r.chunk());
        }
    }

    /**
     * The next chunk of the window. A chunk whose result is here already (finished without this
     * worker) is still offered, once and untracked, so that the root can fold it in while it
     * remembers the result; the window moves on to the next chunk without a result.
     */
    private List<Out> sendNext(long vt, long now) {
        List<Out> out = new ArrayList<>(1);
        if (cutOff) {
            return out;
        }
        while (nextChunk < data.chunks()) {
            int c = nextChunk++;
            if (holds[c] == null) {
                out.add(send(c, vt, now, false));
                break;
            }
            out.add(contribution(c, vt, false));
        }
        return out;
    }

    /** What a handler sends, after noting when this endpoint finished (its time lost to recovery ends there). */
    private List<Out> finishing(List<Out> out, long now) {
        if (done()) {
            recovery.finished(now);
        }
        return out;
    }

    @Override
    public boolean done() {
        return received == data.chunks() && awaitingRing.isEmpty() && recovering.isEmpty();
    }

    @Override
    public DriverReport report() {
        List<String> problems = new ArrayList<>(mismatches);
        awaitingRing.forEach(
                c -> problems.add("chunk " + c + ": its result failed its checksum and the fallback ring gave none"));
        DriverReport r = DriverReport.ofChunks(
                        host,
                        DriverReport.Role.WORKER,
                        plan.space(),
                        expected,
                        holds,
                        verified,
                        null,
                        received,
                        problems,
                        lastVt,
                        done(),
                        stats())
                .toBuilder()
                .unitVt(times.toArray())
                .gaveUp(gaveUp)
                .pace(window == null ? null : windowCurve.range())
                .build();
        ValueSecurity v = plan.values() == null ? ValueSecurity.OFF : plan.values();
        return v.any()
                ? r.withValues(new DriverReport.ValueChecks(
                        v.masking(), v.checksum(), List.copyOf(failed), List.copyOf(fellBack)))
                : r;
    }

    private Map<String, Long> stats() {
        Map<String, Long> s = Recovery.stats(retransmissions, recovery.nanos(), rto);
        if (window == null) {
            return s;
        }
        Map<String, Long> out = new HashMap<>(s);
        out.putAll(window.stats());
        return Map.copyOf(out);
    }
}
