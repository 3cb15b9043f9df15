package org.bitina.usecase.allreduce;

import org.bitina.usecase.Straggler;

import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.DriverReport;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * An AllReduce worker for the INA and parameter-server phases (A4): cuts its array into
 * chunks with sequence ids, keeps {@code window} chunks in flight, and sends the next one
 * whenever a result frees a slot. Each contribution carries P-BM = the worker's own bit.
 * Every result is checked against the reference of the contributions it holds; a better
 * result for a chunk (a straggler folded in at the root) replaces a partial one.
 */
public final class AllReduceWorker implements EndpointDriver {
    private final Verifier verifier;
    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    private final AllReduceData data;
    private final EndpointSet expected;
    private final EndpointSet[] holds;
    private final boolean[] verified;
    private final List<String> mismatches = new ArrayList<>();
    private final SplittableRandom jitter;
    private int nextChunk;
    private int received;
    private long lastVt;
    /** Wall time each outstanding chunk was (re)sent, and how often; -1 once it has a result. */
    private final long[] sentAt;
    /** Chunks waiting for a result (at most a window of them): the only ones the timer looks at. */
    private final java.util.LinkedHashSet<Integer> pending = new java.util.LinkedHashSet<>();
    private final int[] attempts;
    /** Sends of a chunk before the worker gives up on its result (a result lost on every try). */
    static final int MAX_ATTEMPTS = 5;

    /** A driver alone, checking against references of its own. */
    public AllReduceWorker(AllReducePlan plan, String host) {
        this(plan, host, new Verifier());
    }

    public AllReduceWorker(AllReducePlan plan, String host, Verifier verifier) {
        this.verifier = verifier;
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.data = new AllReduceData(plan.data());
        this.expected = plan.space().setOf(plan.members());
        this.holds = new EndpointSet[data.chunks()];
        this.verified = new boolean[data.chunks()];
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
        this.sentAt = new long[data.chunks()];
        this.attempts = new int[data.chunks()];
        java.util.Arrays.fill(sentAt, -1);
    }

    /** How long a worker waits for a chunk's result before it sends the chunk again. */
    private long resultTimeout() {
        return 4 * plan.timeoutNanos();
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
        long d = Long.MAX_VALUE;
        for (int c : pending) {
            d = Math.min(d, sentAt[c] + resultTimeout());
        }
        return d;
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        for (int c : List.copyOf(pending)) {
            if (now < sentAt[c] + resultTimeout()) {
                continue;
            }
            if (attempts[c] >= MAX_ATTEMPTS) {
                // give the slot back so that the job ends, and say so: this chunk has no result
                sentAt[c] = -1;
                pending.remove(c);
                received++;
                mismatches.add("chunk " + c + ": no result after " + attempts[c] + " sends");
                out.addAll(sendNext(lastVt, now));
            } else {
                out.add(send(c, lastVt, now, true));
            }
        }
        return out;
    }

    private Out send(int chunk, long vt, long now, boolean retransmit) {
        sentAt[chunk] = now;
        pending.add(chunk);
        attempts[chunk]++;
        return contribution(chunk, vt, retransmit);
    }

    private Out contribution(int chunk, long vt, boolean retransmit) {
        long delay = 0;
        Straggler s = plan.stragglers().get(host);
        if (s != null && s.delays(chunk)) {
            delay = s.draw(jitter);
        }
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, plan.tenant(), plan.wireJob(), chunk)
                .withOp(plan.data().op()).withSource(bit).withFlags(retransmit ? Flags.RETRANSMIT : 0);
        InaPacket p = new InaPacket(h, FlatBitmap.of(plan.space().capacity(), bit), data.payload(bit, chunk));
        return new Out(new Frame(p, plan.uplink().get(host), vt + delay), delay);
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
        // a complete result's P-BM is the root's node bitmap (F2), which is every member; the
        // multicast copy's bitmap names only this receiver, so only a partial carries provenance
        EndpointSet got = packet.provenance() != null ? packet.provenance()
                : packet.header().type() == PacketType.RESULT ? expected : packet.endpoints();
        if (got.capacity() != expected.capacity() || !got.isSubsetOf(expected)) {
            // no result of this job holds that: named, never taken (nor a reason to stop the host)
            mismatches.add("chunk " + chunk + ": a result holding " + got + ", not members of this job");
            return List.of();
        }
        if (holds[chunk] != null && got.isSubsetOf(holds[chunk])) {
            return List.of(); // a copy, or nothing better than what this worker has
        }
        boolean gaveUp = holds[chunk] == null && sentAt[chunk] < 0 && attempts[chunk] >= MAX_ATTEMPTS;
        boolean inFlight = sentAt[chunk] >= 0;
        // the first result of a chunk counts, also one that came before this worker sent it (the
        // others finished it without this worker, e.g. while its link was down); one it gave up on counted already
        boolean first = holds[chunk] == null && !gaveUp;
        if (gaveUp) {
            // a result after this worker gave up on it: take it, and withdraw the complaint
            mismatches.remove("chunk " + chunk + ": no result after " + attempts[chunk] + " sends");
        }
        sentAt[chunk] = -1;
        pending.remove(chunk);
        holds[chunk] = got;
        lastVt = Math.max(lastVt, vt);
        Verifier.Mismatch m = verifier.check(data, chunk, got, packet.payload());
        verified[chunk] = m == null;
        if (m != null) {
            mismatches.add(m + " from " + got);
        }
        if (first) {
            received++;
        }
        // a chunk in flight frees a window slot
        return first && inFlight && !plan.silent().contains(host) ? sendNext(vt, now) : List.of();
    }

    /**
     * The next chunk of the window. A chunk whose result is here already (finished without this
     * worker) is still offered, once and untracked, so that the root can fold it in while it
     * remembers the result; the window moves on to the next chunk without a result.
     */
    private List<Out> sendNext(long vt, long now) {
        List<Out> out = new ArrayList<>(1);
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

    @Override
    public boolean done() {
        return received == data.chunks();
    }

    @Override
    public DriverReport report() {
        return DriverReport.ofChunks(host, DriverReport.Role.WORKER, plan.space(), expected, holds, verified, received, mismatches, lastVt, done());
    }
}
