package org.bitina.usecase.bierinc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.RecoverySettings;
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
import org.bitina.usecase.reduction.Verifier;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A member of a BIER-INC collective (seed 001). An owner is the BFIR of its tree for its
 * chunks: its first forward packet builds the tree (B2), the other members answer in
 * reverse (B3), and it broadcasts the AllReduce result on the same tree, naming through the
 * result's provenance the members whose reductions did not arrive (B4). Reduce stops at the
 * owner; Broadcast sends the owner's data down the tree and nothing comes back.
 *
 * <p>Recovery, for loss and for routing changes (B5; L1): an owner that lacks reductions a wait
 * after the first arrived asks the missing members again (a forward request, flag
 * RETRANSMIT) up to {@value RecoveryPolicy#INC_ASKS} times, then settles the chunk partial. The waits are
 * {@link IncPlan#wait(int)}: a few modelled round trips at first, doubled at each ask. The tree
 * is data-driven, so an ask first sends the owner's first forward packet again with the same
 * bitstring: a node whose tree is there reuses it untouched (same incoming bitstring), a node
 * that lost it (a crash, a new route) builds it again; the request itself is replicated by the
 * BIFT alone and never replaces a branch. The shares it brings travel outside the tree. A result is
 * final when it is complete or settled (flag LAST); a partial result that is not final yet
 * (the network's timers gave up, the owner has not) is improved by later broadcasts. A
 * member that has heard nothing new for a wait sends the shares of its chunks without a
 * final result again (flag RETRANSMIT), and the owner answers a repeat with its result. Retransmissions travel
 * outside the tree, so they can overtake the aggregate that already holds them: the owner
 * keeps the parts it holds and lets an aggregate replace the single contributions it covers,
 * so nothing is counted twice.
 */
public final class IncMember implements EndpointDriver {
    private static final long SETUP = -1;

    private final Verifier verifier;
    private final IncPlan plan;
    private final AllReducePlan base;
    private final String host;
    private final int bit;
    private final AllReduceData data;
    private final EndpointSet all;
    private final EndpointSet me;
    /** The members the fault plan silences, as a set: who an owner may stop asking for early. */
    private final EndpointSet silentSet;

    private final EndpointSet[] holds;
    private final boolean[] verified;
    private final boolean[] expectsResult;
    /** As owner: per chunk owned here, what arrived; null for the chunks of other owners. */
    private final OwnedChunk[] owned;

    private final IncPackets packets;
    /** Per chunk: the result held is final (complete, or settled by the owner). */
    private final boolean[] fin;
    /** As a contributor: per chunk, how often this member's share was sent. */
    private final int[] sends;

    private final boolean[] abandoned;
    /** As a contributor: per chunk, when this member last sent its share (or asked) again by itself; -1: never. */
    private final long[] resentAt;
    /** The next chunk whose share may go, the owners whose trees exist, and the AllReduce window. */
    private int next;

    private final Set<String> setups = new HashSet<>();
    private final boolean[] inWindow;
    private int inFlight;
    private final List<String> mismatches = new ArrayList<>();
    private final List<String> gaveUp = new ArrayList<>();
    private final SplittableRandom jitter;
    private int expected;
    /** Chunks expected here whose result is final, or given up on. */
    private int settled;

    private int received;
    private long lastVt;
    private final CompletionTimes times;
    private long started = Long.MIN_VALUE;
    private long lastNews;
    /** Waits in a row without news: a member's next wait is backed off by them, news starts again at the first. */
    private int quietRounds;

    private long retransmissions;
    /**
     * Chunks whose share (or NACK) went again, or whose owner asked again, still without their
     * final result: the time lost to recovery. The handler's time is kept for the helpers it calls.
     */
    private final RecoveryTime<Integer> recovery = new RecoveryTime<>();

    private long now;
    private long requests;
    /**
     * As owner: no part of any chunk it owns arrived yet, so its first forward packet may have been lost
     * before it reached anyone (on the owner's own uplink). Every member's window then waits at the
     * owner's first chunk, and nobody's share comes that would start the asking: the owner sends its first
     * forward packet again, backed off, until a part arrives or the longest wait (the asks) takes over.
     */
    private boolean heardAny;

    private int setupResends;

    /** A driver alone, checking against references of its own. */
    public IncMember(IncPlan plan, String host) {
        this(plan, host, new Verifier());
    }

    public IncMember(IncPlan plan, String host, Verifier verifier) {
        this.verifier = verifier;
        this.plan = plan;
        this.base = plan.base();
        this.host = host;
        this.bit = base.space().index(host);
        this.data = verifier.data(base.data());
        this.all = base.space().setOf(base.members());
        this.me = FlatBitmap.of(all.capacity(), bit);
        this.silentSet = base.space().setOf(base.silent());
        this.packets = new IncPackets(plan, data, host, me);
        int n = data.chunks();
        this.holds = new EndpointSet[n];
        this.times = new CompletionTimes(n);
        this.verified = new boolean[n];
        this.expectsResult = new boolean[n];
        this.owned = new OwnedChunk[n];
        this.fin = new boolean[n];
        this.sends = new int[n];
        this.abandoned = new boolean[n];
        this.resentAt = new long[n];
        Arrays.fill(resentAt, -1);
        this.inWindow = new boolean[n];
        this.jitter = new SplittableRandom(base.seed() ^ bit);
        for (int c = 0; c < n; c++) {
            expectsResult[c] = plan.expectsResult(c, host);
            if (expectsResult[c]) {
                expected++;
            }
            if (plan.owner(c).equals(host)) {
                owned[c] = new OwnedChunk(all.capacity());
            }
        }
    }

    /**
     * The asks an owner spends on a chunk still missing {@code missing}: the silent rule only when
     * nobody but silenced members is missing (under loss a live member's share may be lost, and is
     * asked for as without a silent member).
     */
    private int maxAsks(EndpointSet missing) {
        return base.silent().isEmpty() || !missing.isSubsetOf(silentSet)
                ? asks(base.recovery())
                : RecoveryPolicy.INC_ASKS_SILENT;
    }

    /** The sends a member spends on chunk {@code c}: the silent rule only for a chunk a silenced owner holds. */
    private int maxSends(int c) {
        return base.silent().contains(plan.owner(c)) ? RecoveryPolicy.INC_SENDS_SILENT : shareSends(base.recovery());
    }

    /** An owner's asks for one chunk under loss: {@value RecoveryPolicy#INC_ASKS}, or the job's {@code recovery.max-sends}. */
    static int asks(RecoverySettings s) {
        return s.maxSends() > 0 ? s.maxSends() : RecoveryPolicy.INC_ASKS;
    }

    /** A member's sends of one share under loss: twice its owner's asks ({@value RecoveryPolicy#INC_SENDS} by default). */
    public static int shareSends(RecoverySettings s) {
        return s.maxSends() > 0 ? 2 * s.maxSends() : RecoveryPolicy.INC_SENDS;
    }

    private boolean silent() {
        return base.silent().contains(host);
    }

    /** The members whose shares an owner waits for: all of them when its own share also goes through its leaf. */
    private EndpointSet awaited() {
        return plan.leafEdge() ? all : all.andNot(me);
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.INC_FORWARD || p.header().type() == PacketType.INC_REVERSE;
    }

    @Override
    public List<Out> start(long now) {
        this.now = now;
        started = now;
        lastNews = now;
        List<Out> out = new ArrayList<>();
        if (silent()) {
            return out;
        }
        if (!plan.owners().contains(host)) {
            return out;
        }
        EndpointSet down = plan.forwardSet(host);
        if (plan.collective() == IncPlan.Collective.BROADCAST) {
            for (int c = 0; c < data.chunks(); c++) {
                if (plan.owner(c).equals(host)) {
                    owned[c].finished = true;
                    // the first of these builds the tree (B2)
                    out.add(forward(c, down, data.payload(bit, c), null, false));
                }
            }
            return out;
        }
        if (down.isEmpty() || awaited().isEmpty()) {
            for (int c = 0; c < data.chunks(); c++) {
                if (plan.owner(c).equals(host)) {
                    finish(c, lastVt, true, out); // modelled time: nothing left this member at all
                }
            }
            return out;
        }
        // the first forward packet of this BFIR's tree: it builds the tree on its way (B2)
        out.add(forward(SETUP, down, Payload.EMPTY, null, false));
        if (plan.leafEdge()) {
            out.addAll(treeReady(host));
        }
        return out;
    }

    private Out forward(long seq, EndpointSet bits, Payload payload, EndpointSet provenance, boolean retransmit) {
        return forward(seq, bits, payload, provenance, retransmit, false);
    }

    private Out forward(
            long seq, EndpointSet bits, Payload payload, EndpointSet provenance, boolean retransmit, boolean last) {
        return packets.forward(seq, bits, payload, provenance, retransmit, last, lastVt);
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        this.now = now;
        return finishing(deliver(frame, now));
    }

    /** What a handler sends, after noting when this member finished (its time lost to recovery ends there). */
    private List<Out> finishing(List<Out> out) {
        if (done()) {
            recovery.finished(now);
        }
        return out;
    }

    private List<Out> deliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        lastVt = Math.max(lastVt, frame.vt());
        if (p.header().type() == PacketType.INC_REVERSE) {
            return reduced(p, frame.vt(), now);
        }
        String owner = plan.ownerOfWireBit(p.header().source());
        if (owner == null) {
            mismatches.add("forward packet from BFIR-id " + p.header().source() + ", which is no owner's");
            return List.of();
        }
        if (p.header().seq() == SETUP) {
            return silent() ? List.of() : treeReady(owner);
        }
        int chunk = (int) p.header().seq();
        if (chunk < 0 || chunk >= holds.length || !plan.owner(chunk).equals(owner)) {
            mismatches.add("forward packet for chunk " + chunk + " from " + owner + ", which does not own it");
            return List.of();
        }
        if (p.payload().elements() == 0) {
            // the owner asks again for a share it lacks: sent already (and lost), it goes again;
            // not sent yet, it goes in its turn on the owner's tree
            if (silent() || !plan.contributes(chunk, host)) {
                return List.of();
            }
            return sends[chunk] > 0 ? List.of(contribution(chunk, true, 0)) : treeReady(owner);
        }
        if (!expectsResult[chunk]) {
            return List.of();
        }
        EndpointSet target = target(owner);
        EndpointSet got = p.provenance() != null ? p.provenance() : target;
        boolean last = got.equals(target) || p.header().has(Flags.LAST);
        if (holds[chunk] == null || !got.isSubsetOf(holds[chunk])) {
            news(now);
            store(chunk, got, p.payload(), frame.vt());
        }
        if (last && got.equals(holds[chunk]) && !fin[chunk]) {
            markFinal(chunk);
            news(now);
            return pump();
        }
        return List.of();
    }

    /**
     * A first part of {@code chunk} came at {@code now}: this owner's earlier chunks with none yet
     * are overdue from now, and so is the next one ({@link OwnedChunk#overdueFrom}), sent right after
     * it when no window holds it back. The walk down stops at one marked before, below which every chunk without a part is marked.
     */
    private void earlierOverdue(int chunk, long now) {
        for (int c = chunk - 1; c >= 0; c--) {
            if (owned[c] != null && owned[c].firstHeard == 0 && !overdue(c, now)) {
                return;
            }
        }
        // an AllReduce's window may hold the next chunk back until this one's result is in (its members
        // send again by themselves); a Reduce's or Broadcast's members send without a window
        for (int c = chunk + 1; c < owned.length && plan.collective() != IncPlan.Collective.ALLREDUCE; c++) {
            if (owned[c] != null) {
                overdue(c, now);
                return;
            }
        }
    }

    /** A chunk was asked again for the first time: the owner's later chunks without a part are overdue too. */
    private void laterOverdue(int chunk, long now) {
        for (int c = chunk + 1; c < owned.length; c++) {
            if (owned[c] != null && owned[c].firstHeard == 0) {
                overdue(c, now);
            }
        }
    }

    /** Marks chunk {@code c} overdue from {@code now}; false when it was marked before. */
    private boolean overdue(int c, long now) {
        if (owned[c].overdueFrom != 0) {
            return false;
        }
        owned[c].overdueFrom = now;
        return true;
    }

    /** Something new arrived: a member's next quiet wait is the first one again. */
    private void news(long now) {
        lastNews = now;
        quietRounds = 0;
    }

    /** What a complete result of the owner's chunks holds. */
    private EndpointSet target(String owner) {
        return plan.collective() == IncPlan.Collective.BROADCAST ? base.space().setOf(List.of(owner)) : all;
    }

    /**
     * As a contributor: the owner's tree exists, so this member's shares of its chunks may go
     * in reverse (B3). They go in chunk order, every member alike (a chunk waits for its
     * owner's tree), and at most {@code window} AllReduce chunks without a final result at
     * once: the shares of one chunk then meet at the nodes close together, inside the
     * completion timeout, as a VAT worker's do, and the members' windows never wait on each other.
     */
    private List<Out> treeReady(String owner) {
        return setups.add(owner) ? pump() : List.of();
    }

    private List<Out> pump() {
        List<Out> out = new ArrayList<>();
        while (next < data.chunks()
                && (plan.collective() != IncPlan.Collective.ALLREDUCE
                        || inFlight < base.data().window())) {
            int c = next;
            // a silenced owner builds no tree: waiting for it would hold every later chunk back too
            if (!plan.contributes(c, host) || sends[c] > 0 || base.silent().contains(plan.owner(c))) {
                next++;
                continue;
            }
            if (!setups.contains(plan.owner(c))) {
                break;
            }
            next++;
            long delay = 0;
            Straggler s = base.stragglers().get(host);
            if (s != null && s.delays(c)) {
                delay = s.draw(jitter);
            }
            out.add(contribution(c, false, delay));
            if (plan.collective() == IncPlan.Collective.ALLREDUCE && !fin[c]) {
                inFlight++;
                inWindow[c] = true;
            }
        }
        return out;
    }

    private Out contribution(int chunk, boolean retransmit, long delay) {
        sends[chunk]++;
        if (retransmit) {
            retransmissions++;
            if (expectsResult[chunk]) {
                recovery.resent(chunk, now);
            }
        }
        return packets.share(chunk, retransmit, delay, lastVt);
    }

    /** As the owner: a part of a chunk's reduction, from the tree or passed on outside it. */
    private List<Out> reduced(InaPacket p, long vt, long now) {
        int chunk = (int) p.header().seq();
        if (chunk < 0 || chunk >= holds.length || !plan.owner(chunk).equals(host)) {
            mismatches.add("reduction for chunk " + chunk + ", which " + host + " does not own");
            return List.of();
        }
        if (plan.collective() == IncPlan.Collective.BROADCAST) {
            // a member that lacks a chunk of the broadcast: it gets the chunk again
            String sender = p.header().source() >= 0 && p.header().source() < all.capacity()
                    ? base.space().endpoint(p.header().source())
                    : null;
            if (sender == null || !base.members().contains(sender)) {
                mismatches.add(
                        "broadcast repeat request from endpoint " + p.header().source());
                return List.of();
            }
            return List.of(forward(
                    chunk,
                    FlatBitmap.of(plan.wire().capacity(), plan.wireBit(sender)),
                    data.payload(bit, chunk),
                    null,
                    true));
        }
        EndpointSet members = p.provenance() != null ? p.provenance() : plan.membersOf(p.endpoints());
        if (members.capacity() != all.capacity() || !members.isSubsetOf(awaited()) || members.isEmpty()) {
            mismatches.add("chunk " + chunk + ": reduction from " + members + ", not members this owner waits for");
            return List.of();
        }
        heardAny = true;
        List<Out> out = new ArrayList<>();
        OwnedChunk o = owned[chunk];
        boolean first = o.firstHeard == 0;
        OwnedChunk.Offer offer = o.offer(members, p.payload(), now);
        if (first && o.firstHeard != 0) {
            earlierOverdue(chunk, now);
        }
        if (offer == OwnedChunk.Offer.REPEAT) {
            // a repeat: the sender lacks the result (AllReduce), so it gets it again
            if (o.finished && p.header().has(Flags.RETRANSMIT) && plan.collective() == IncPlan.Collective.ALLREDUCE) {
                String sender = base.space().endpoint(p.header().source());
                out.add(forward(
                        chunk,
                        FlatBitmap.of(plan.wire().capacity(), plan.wireBit(sender)),
                        sum(chunk),
                        holds[chunk].equals(all) ? null : holds[chunk],
                        true,
                        fin[chunk]));
            }
            return out;
        }
        if (offer == OwnedChunk.Offer.OVERLAP) {
            mismatches.add("chunk " + chunk + ": reduction " + members + " overlaps what arrived, " + o.heard);
            return out;
        }
        news(now);
        lastVt = Math.max(lastVt, vt);
        // a result goes out when it is complete, when the owner stops asking, or to better a final
        // one; the network's partials are not passed on: members wait for a final result anyway,
        // and each better partial would cost a broadcast to everyone
        boolean complete = o.heard.equals(awaited());
        if (complete || fin[chunk]) {
            finish(chunk, vt, true, out);
        }
        return out;
    }

    /** The chunk's result: the parts, and behind hosts as the edge the owner's own share (a leaf's members all arrive as parts). */
    private Payload sum(int chunk) {
        return owned[chunk].sum(
                plan.leafEdge() ? null : data.payload(bit, chunk), base.data().op());
    }

    /**
     * The owner gives a chunk's result with what it holds: AllReduce broadcasts it on the
     * tree, Reduce keeps it. {@code last}: it will not get better (complete, or asked enough).
     */
    private void finish(int chunk, long vt, boolean last, List<Out> out) {
        EndpointSet with = plan.leafEdge() ? owned[chunk].heard : owned[chunk].heard.or(me);
        if (with.isEmpty()) {
            return;
        }
        Payload result = sum(chunk);
        owned[chunk].finished = true;
        if (last || with.equals(all)) {
            markFinal(chunk);
            out.addAll(pump());
        }
        store(chunk, with, result, vt);
        if (plan.collective() == IncPlan.Collective.ALLREDUCE) {
            boolean complete = with.equals(all);
            // the B4 report: a partial result says whom it holds; the others are the BFERs that did not answer
            out.add(forward(chunk, plan.forwardSet(host), result, complete ? null : with, false, fin[chunk]));
        }
    }

    private void store(int chunk, EndpointSet got, Payload payload, long vt) {
        if (holds[chunk] == null) {
            received++;
            times.done(chunk, vt);
        }
        holds[chunk] = got;
        lastVt = Math.max(lastVt, vt);
        Verifier.Mismatch m = verifier.check(data, chunk, got, payload);
        verified[chunk] = m == null;
        if (m != null) {
            mismatches.add(m + " from " + got);
        }
    }

    /**
     * B5: the trees went with the old routes; an owner whose chunks are still open sends its
     * first forward packet again, so the trees are rebuilt now rather than by its next result.
     */
    @Override
    public List<Out> onRoutingChange(long now) {
        this.now = now;
        if (silent() || !plan.owners().contains(host) || plan.collective() == IncPlan.Collective.BROADCAST) {
            return List.of();
        }
        for (int c = 0; c < holds.length; c++) {
            if (open(c)) {
                return List.of(forward(SETUP, plan.forwardSet(host), Payload.EMPTY, null, false));
            }
        }
        return List.of();
    }

    /**
     * When an owner that has heard nothing yet sends its first forward packet again ({@link #heardAny}):
     * after the backed-off waits of {@link IncPlan#wait(int)}, one per resend so far, only while that is
     * sooner than the longest wait after the start (then the asks send it, as they always do). Without
     * a path model, or with a silenced member, every wait is the longest and nothing changes.
     */
    private long setupDue() {
        if (heardAny) {
            return Long.MAX_VALUE;
        }
        boolean anyOpen = false;
        for (int c = 0; c < holds.length && !anyOpen; c++) {
            anyOpen = open(c);
        }
        if (!anyOpen) {
            return Long.MAX_VALUE;
        }
        long at = started;
        for (int i = 0; i <= setupResends; i++) {
            at += plan.wait(i);
        }
        return at < started + plan.waitNanos() ? at : Long.MAX_VALUE;
    }

    /** An owner's chunk still open: not final, and (Reduce, AllReduce) it gathers shares. */
    private boolean open(int c) {
        return owned[c] != null && !fin[c] && plan.collective() != IncPlan.Collective.BROADCAST;
    }

    @Override
    public long nextDeadline() {
        if (started == Long.MIN_VALUE || silent()) {
            return Long.MAX_VALUE;
        }
        long next = setupDue();
        for (int c = 0; c < holds.length; c++) {
            if (open(c)) {
                next = Math.min(next, owned[c].dueAt(started, plan));
            }
        }
        if (!done()) {
            next = Math.min(next, lastNews + plan.wait(quietRounds));
        }
        return next;
    }

    @Override
    public List<Out> onTimer(long now) {
        this.now = now;
        return finishing(timer(now));
    }

    private List<Out> timer(long now) {
        List<Out> out = new ArrayList<>();
        if (silent()) {
            return out;
        }
        boolean resentSetup = false;
        if (now >= setupDue()) {
            setupResends++;
            resentSetup = true;
            out.add(forward(SETUP, plan.forwardSet(host), Payload.EMPTY, null, false));
        }
        for (int c = 0; c < holds.length; c++) {
            if (!open(c) || now < owned[c].dueAt(started, plan)) {
                continue;
            }
            EndpointSet missing = awaited().andNot(owned[c].heard);
            if (owned[c].asks < maxAsks(missing) && !missing.isEmpty()) {
                if (owned[c].asks++ == 0) {
                    laterOverdue(c, now);
                }
                requests++;
                recovery.resent(c, now);
                EndpointSet bits = plan.wireBitsOf(missing);
                if (!resentSetup) {
                    // the first forward packet may itself have been lost (or its tree gone with the
                    // routes): the same bitstring again rebuilds what is missing and reuses the rest
                    resentSetup = true;
                    out.add(forward(SETUP, plan.forwardSet(host), Payload.EMPTY, null, false));
                }
                out.add(forward(c, bits, Payload.EMPTY, null, true));
                if (missing.intersects(me) && sends[c] > 0) {
                    // behind a leaf edge the owner's own share goes through its leaf too, and no ask comes
                    // back to the host that sent it: it sends its own share again itself
                    out.add(contribution(c, true, 0));
                }
            } else {
                finish(c, lastVt, true, out);
                if (!fin[c]) {
                    // nothing at all arrived: keep waiting, the members resend what has no final result
                    owned[c].asks = maxAsks(missing);
                    owned[c].firstHeard = now;
                }
            }
        }
        if (!done() && now >= lastNews + plan.wait(quietRounds)) {
            // nothing new for a wait: the shares, or the results, of chunks without a final result may be lost
            lastNews = now;
            quietRounds++;
            for (int c = 0; c < holds.length; c++) {
                // shares not sent yet wait for their owner's tree, which the owner sends again when it asks
                boolean waiting = sends[c] > 0 || plan.collective() == IncPlan.Collective.BROADCAST;
                // each chunk backs off on its own too: news about other chunks must not spend its sends
                boolean due = resentAt[c] < 0 || now >= resentAt[c] + plan.wait(sends[c] - 1);
                if (expectsResult[c] && !fin[c] && !plan.owner(c).equals(host) && !abandoned[c] && waiting && due) {
                    resentAt[c] = now;
                    if (sends[c] >= maxSends(c)) {
                        abandoned[c] = true;
                        recovery.answered(c, now);
                        settled++;
                        gaveUp.add("chunk " + c + ": no final result after " + sends[c] + " sends");
                    } else if (plan.collective() == IncPlan.Collective.BROADCAST) {
                        out.add(nack(c));
                    } else {
                        out.add(contribution(c, true, 0));
                    }
                }
            }
        }
        return out;
    }

    /** Broadcast: a member without a chunk says so in reverse; the owner sends it again. */
    private Out nack(int chunk) {
        sends[chunk]++;
        retransmissions++;
        recovery.resent(chunk, now);
        return packets.nack(chunk, lastVt);
    }

    @Override
    public boolean done() {
        return settled == expected;
    }

    private void markFinal(int chunk) {
        recovery.answered(chunk, now);
        if (inWindow[chunk]) {
            inWindow[chunk] = false;
            inFlight--;
        }
        if (!fin[chunk]) {
            fin[chunk] = true;
            if (expectsResult[chunk]) {
                settled++;
            }
        }
    }

    @Override
    public DriverReport report() {
        List<String> problems = new ArrayList<>(mismatches);
        // a broadcast result is the owner's data alone: there is nobody to name as missing
        EndpointSet target = plan.collective() == IncPlan.Collective.BROADCAST ? null : all;
        return DriverReport.ofChunks(
                        host,
                        DriverReport.Role.INC_WORKER,
                        base.space(),
                        target,
                        holds,
                        verified,
                        expectsResult,
                        received,
                        problems,
                        lastVt,
                        done(),
                        Map.of(
                                Recovery.RETRANSMISSIONS,
                                retransmissions,
                                Recovery.RECOVERY_NANOS,
                                recovery.nanos(),
                                "requests",
                                requests,
                                RecoveryPolicy.RTO_NANOS,
                                plan.policy().rtoNanos(),
                                RecoveryPolicy.MAX_SENDS,
                                (long) shareSends(base.recovery())))
                .withUnitTimes(times)
                .withGaveUp(gaveUp);
    }
}
