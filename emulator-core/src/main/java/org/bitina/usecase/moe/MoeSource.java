package org.bitina.usecase.moe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * A token source of an MoE layer (M1, M3-M5): gates its tokens (top-K, or a pinned
 * choice), enforces expert capacity and renormalises the weights of what is left, groups
 * tokens that chose the same experts into one dispatch packet (M4; or one packet per
 * expert in pair granularity and in the all-to-all baseline), and adds up what comes
 * back. Contributions for a packet are accepted only when disjoint from what it already
 * holds, so a late partial never counts an expert twice. At the end every token's
 * combined output is checked against a host-computed reference over exactly the experts
 * it holds.
 */
public final class MoeSource implements EndpointDriver {
    /** Float tolerance of the combine: a sum of K weighted expert outputs in any order. */
    public static final String TOLERANCE = "MoE combine: |got - exact| <= K * 2^-24 * sum|g_k f_k(x)| per element";

    private static final double U = Math.scalb(1.0, -24);

    private final MoePlan plan;
    private final String host;
    private final int sourceIndex;
    private final SplittableRandom jitter;
    private final MoeModel model;
    private final int tokens;
    private final int capacity;
    private final int[][] kept;
    private final float[][] gates;
    private final List<String> dropped = new ArrayList<>();
    private final List<PacketState> packets = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private long lastVt;
    private final CompletionTimes times;
    private DriverReport cached;
    /** Built dispatch packets not yet sent: a source keeps at most {@code window} tokens in flight. */
    private final ArrayDeque<int[][]> queued = new ArrayDeque<>();

    private int inFlight;
    /** The longest round trip (dispatch to whole combine) of a packet dispatched once (Karn: re-dispatched ones tell nothing). */
    private long maxRtt;
    /** Packets not finished yet, by sequence id: the only ones the timers look at (at most a window of them). */
    private final TreeSet<Integer> open = new TreeSet<>();
    /** Re-dispatches sent, and the modelled time with one still short of its combine (L1). */
    private long retransmissions;

    /** Under congestion control: how many tokens may be in flight (null: always the job's window). */
    private final AimdWindow window;
    /** The window after each combine, over modelled time (under AIMD). */
    private final TimeCurve windowCurve = new TimeCurve();

    /** Packets dispatched again and still short of their combine: the time lost to recovery. */
    private final RecoveryTime<Integer> recovery = new RecoveryTime<>();

    private static final class PacketState {
        final int[] tokenIds;
        final EndpointSet experts;
        EndpointSet held;
        final float[][] acc;
        long deadline;
        boolean expired;
        /** Dispatches of this packet so far, and when the next one is due if its combine is still short. */
        int sends = 1;

        long retryAt = Long.MAX_VALUE;
        /** When the first dispatch left (after a straggler's delay): a round trip is measured from it. */
        long sentAt;

        PacketState(int[] tokenIds, EndpointSet experts, int hidden) {
            this.tokenIds = tokenIds;
            this.experts = experts;
            this.held = experts.andNot(experts);
            this.acc = new float[tokenIds.length][hidden];
        }

        boolean finished() {
            return expired || held.equals(experts);
        }
    }

    /** A driver alone, with model weights of its own. */
    public MoeSource(MoePlan plan, String host) {
        this(plan, host, new HashMap<>());
    }

    /** @param weights the seeded model weights the drivers of this run and JVM share */
    public MoeSource(MoePlan plan, String host, Map<String, float[][]> weights) {
        this.plan = plan;
        this.host = host;
        this.sourceIndex = plan.sources().indexOf(host);
        this.jitter = new SplittableRandom(plan.params().seed() ^ (0x50CE + sourceIndex));
        this.model = new MoeModel(
                plan.params().seed(), plan.experts().capacity(), plan.params().hidden(), weights);
        this.tokens = plan.params().tokensPerSource();
        this.times = new CompletionTimes(tokens);
        this.window = plan.congestionControl() ? new AimdWindow(plan.params().window()) : null;
        int e = plan.experts().capacity();
        int k = plan.params().topK();
        // M5: capacity per expert and source, enforced here at the end host
        this.capacity = (int) Math.ceil(plan.params().capacityFactor() * tokens * k / e);
        this.kept = new int[tokens][];
        this.load = new int[e];
        this.overAt = new int[e];
        this.gates = new float[tokens][];
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.COMBINE
                || (p.header().type() == PacketType.UNICAST && p.header().source() >= 0);
    }

    @Override
    public List<Out> start(long now) {
        int[] load = this.load;
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int t = 0; t < tokens; t++) {
            float[] x = model.token(sourceIndex, t);
            double[] logits = model.logits(x);
            int[] chosen = pinned(t);
            if (chosen == null) {
                chosen = plan.params()
                        .routing()
                        .choose(
                                model,
                                logits,
                                host,
                                sourceIndex,
                                t,
                                plan.params().topK());
            }
            int[] keep = Arrays.stream(chosen).filter(e -> load[e] < capacity).toArray();
            for (int e : keep) {
                load[e]++;
            }
            if (keep.length < chosen.length) {
                int[] over = Arrays.stream(chosen)
                        .filter(e -> Arrays.stream(keep).noneMatch(k -> k == e))
                        .toArray();
                for (int e : over) {
                    overAt[e]++;
                }
                dropped.add("token " + t + (keep.length == 0 ? " (dropped)" : "") + ": over capacity at "
                        + plan.experts().names(FlatBitmap.of(plan.experts().capacity(), over)));
            }
            kept[t] = keep;
            gates[t] = keep.length == 0 ? new float[0] : model.gates(logits, keep);
            if (plan.perPair()) {
                for (int e : keep) {
                    groups.computeIfAbsent(String.valueOf(e), g -> new ArrayList<>())
                            .add(t);
                }
            } else if (keep.length > 0) {
                groups.computeIfAbsent(Arrays.toString(keep), g -> new ArrayList<>())
                        .add(t);
            }
        }
        for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
            int[] experts = plan.perPair()
                    ? new int[] {Integer.parseInt(g.getKey())}
                    : kept[g.getValue().get(0)];
            int per = MoePayload.tokensIn(
                    plan.payloadBudget(), experts.length, plan.params().hidden());
            List<Integer> ts = g.getValue();
            for (int from = 0; from < ts.size(); from += per) {
                int[] ids = ts.subList(from, Math.min(ts.size(), from + per)).stream()
                        .mapToInt(Integer::intValue)
                        .toArray();
                queued.add(new int[][] {experts, ids});
            }
        }
        total = queued.size();
        return sendMore(now, 0);
    }

    private int total;

    /** Per expert, the tokens of this source it takes (within capacity) and those over it, dropped (M5). */
    private final int[] load;

    private final int[] overAt;

    /**
     * Sends queued dispatches while fewer than {@code window} tokens are in flight, at
     * modelled time {@code vt}. Counting tokens, not packets, keeps INA (often one token per
     * packet) and all-to-all (many per packet) under the same flow control.
     */
    private List<Out> sendMore(long now, long vt) {
        List<Out> out = new ArrayList<>();
        int limit = window == null ? plan.params().window() : window.size();
        while (inFlight < limit && !queued.isEmpty()) {
            int[][] next = queued.poll();
            out.add(dispatch(next[0], next[1], now, vt));
            inFlight += next[1].length;
        }
        return out;
    }

    private int[] pinned(int token) {
        for (MoeSpec.PinnedRoute r : plan.params().pinned()) {
            if (r.tokens().contains(token)) {
                return r.experts().stream()
                        .mapToInt(plan.experts()::index)
                        .sorted()
                        .toArray();
            }
        }
        return null;
    }

    private Out dispatch(int[] experts, int[] ids, long now, long vt) {
        int seq = packets.size();
        EndpointSet dbm = FlatBitmap.of(plan.experts().capacity(), experts);
        PacketState st = new PacketState(ids, dbm, plan.params().hidden());
        // a straggling source dispatches late; the packet then waits for its combine at most this long
        Straggler straggler = plan.stragglers().get(host);
        long delay = straggler == null ? 0 : straggler.draw(jitter);
        st.deadline = now + delay + 6 * plan.timeoutNanos();
        st.sentAt = now + delay;
        st.retryAt = now + delay + retryWait(policy(), 1);
        open.add(packets.size());
        packets.add(st);
        float[][] g = new float[ids.length][experts.length];
        float[][] x = new float[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            int t = ids[i];
            for (int j = 0; j < experts.length; j++) {
                g[i][j] = gates[t][indexOf(kept[t], experts[j])];
            }
            x[i] = model.token(sourceIndex, t);
        }
        Payload payload = Payload.of(MoePayload.dispatch(experts, g, x));
        if (plan.ina()) {
            InaHeader h = InaHeader.of(PacketType.DISPATCH, plan.tenant(), plan.wireJob(), seq)
                    .withOp(ReductionOp.SUM)
                    .withDestination(sourceIndex);
            return new Out(new Frame(new InaPacket(h, dbm, payload), null, vt + delay, host), delay);
        }
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), seq)
                .withOp(ReductionOp.SUM)
                .withDestination(sourceIndex);
        return new Out(new Frame(new InaPacket(h, dbm, payload), plan.experts().node(experts[0]), vt + delay), delay);
    }

    /**
     * L1: how long after its {@code n}-th dispatch the source waits for a packet's combine before it
     * dispatches again to the experts still missing. With a path model (the virtual clock) four
     * times the plan's modelled round trip or the longest one measured so far (dispatch to whole
     * combine, of packets dispatched once: Karn), as INA's workers do; without one four times the
     * longest measured, or before the first twice the completion timeout (the C-BMs have left at
     * their timers by then); never more than twice the completion timeout. Plus the longest
     * straggler delay the plan declares (a straggler is not a loss); doubled at each dispatch
     * (binary backoff) up to twice the completion timeout, at most {@value RecoveryPolicy#MOE_SENDS}
     * dispatches (a dispatch and its combine cross 12 links on a k=8 fat-tree: at 5 % loss a link,
     * 46 % of the round trips to one expert fail, and 24 tries leave 1e-8 of them unanswered). Starting from the round trip
     * rather than the timeout keeps recovery within microseconds of modelled time, before the
     * branch nodes' timers send partials up (each of which would bring late answers after it).
     */
    private long retryWait(RecoveryPolicy rule, int n) {
        return rule.after(n) + Straggler.longest(plan.stragglers().values());
    }

    /** The one retransmission rule ({@link RecoveryPolicy}) on the round trip known now, bounded by the job's settings. */
    private RecoveryPolicy policy() {
        long measured = Math.max(maxRtt, plan.rttNanos());
        long cap = Math.max(1, 2 * plan.timeoutNanos());
        return RecoveryPolicy.capped(
                measured > 0 ? Math.min(4 * measured, cap) : cap, cap, RecoveryPolicy.MOE_SENDS, plan.recovery());
    }

    /** The experts of a packet whose outputs are missing and may still come: the miss set, silent experts left out. */
    private EndpointSet missing(PacketState st) {
        EndpointSet miss = st.experts.andNot(st.held);
        for (int e : miss.indices()) {
            if (plan.silent().contains(plan.experts().node(e))) {
                miss = miss.andNot(FlatBitmap.of(miss.capacity(), e));
            }
        }
        return miss;
    }

    /** The same tokens again, to exactly the experts in {@code miss} (flag RETRANSMIT), under the packet's sequence id. */
    private Out redispatch(int seq, PacketState st, EndpointSet miss, long now, long vt) {
        int[] experts = miss.indices();
        float[][] g = new float[st.tokenIds.length][experts.length];
        float[][] x = new float[st.tokenIds.length][];
        for (int i = 0; i < st.tokenIds.length; i++) {
            int t = st.tokenIds[i];
            for (int j = 0; j < experts.length; j++) {
                g[i][j] = gates[t][indexOf(kept[t], experts[j])];
            }
            x[i] = model.token(sourceIndex, t);
        }
        Payload payload = Payload.of(MoePayload.dispatch(experts, g, x));
        long at = Math.max(vt, now);
        if (plan.ina()) {
            InaHeader h = InaHeader.of(PacketType.DISPATCH, plan.tenant(), plan.wireJob(), seq)
                    .withOp(ReductionOp.SUM)
                    .withDestination(sourceIndex)
                    .withFlags(Flags.RETRANSMIT);
            return new Out(new Frame(new InaPacket(h, miss, payload), null, at, host), 0);
        }
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), seq)
                .withOp(ReductionOp.SUM)
                .withDestination(sourceIndex)
                .withFlags(Flags.RETRANSMIT);
        return new Out(new Frame(new InaPacket(h, miss, payload), plan.experts().node(experts[0]), at), 0);
    }

    private static int indexOf(int[] xs, int x) {
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] == x) {
                return i;
            }
        }
        throw new IllegalStateException(x + " not in " + Arrays.toString(xs));
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        long seq = p.header().seq();
        if (seq < 0 || seq >= packets.size()) {
            errors.add("combine for unknown packet " + seq);
            return List.of();
        }
        PacketState st = packets.get((int) seq);
        EndpointSet holds = p.endpoints();
        if (!holds.isSubsetOf(st.experts)) {
            errors.add("packet " + seq + ": combine holds " + holds + ", not within its D-BM " + st.experts);
            return List.of();
        }
        if (holds.isSubsetOf(st.held)) {
            return List.of(); // a copy of what is here already
        }
        if (holds.intersects(st.held)) {
            errors.add("packet " + seq + ": combine " + holds + " overlaps what is held, " + st.held);
            return List.of();
        }
        int h = plan.params().hidden();
        float[] v = ((Payload.Float32) p.payload()).values();
        if (v.length != st.tokenIds.length * h) {
            errors.add("packet " + seq + ": combine of " + v.length + " floats for " + st.tokenIds.length + " tokens");
            return List.of();
        }
        for (int i = 0; i < st.tokenIds.length; i++) {
            for (int j = 0; j < h; j++) {
                st.acc[i][j] += v[i * h + j];
            }
        }
        if (window != null) {
            window.onResult((int) seq, p.header().has(Flags.CE), packets.size());
            windowCurve.record(frame.vt(), window.size());
        }
        boolean wasFinished = st.finished();
        st.held = st.held.or(holds);
        lastVt = Math.max(lastVt, frame.vt());
        cached = null;
        if (!wasFinished && st.finished()) {
            open.remove((int) seq);
            if (st.sends == 1) {
                maxRtt = Math.max(maxRtt, Math.max(0, Math.max(now, frame.vt()) - st.sentAt));
            }
            for (int t : st.tokenIds) {
                times.done(t, frame.vt());
            }
            inFlight -= st.tokenIds.length;
            recovery.answered((int) seq, now);
            return finishing(sendMore(now, frame.vt()), now);
        }
        return List.of();
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        // the measured round trip moves only with combines: one rule for every open packet now
        RecoveryPolicy rule = policy();
        for (int seq : List.copyOf(open)) {
            PacketState st = packets.get(seq);
            EndpointSet miss = st.retryAt <= now ? missing(st) : null;
            boolean resend = miss != null && !miss.isEmpty() && !rule.exhausted(st.sends);
            if (resend) {
                // L1: the combine is short of experts that may still answer: dispatch to exactly them again
                st.sends++;
                st.retryAt = now + retryWait(rule, st.sends);
                st.deadline = Math.max(st.deadline, st.retryAt);
                retransmissions++;
                recovery.resent(seq, now);
                out.add(redispatch(seq, st, miss, now, lastVt));
            } else if (miss != null && miss.isEmpty()) {
                st.retryAt = Long.MAX_VALUE; // only silent experts are missing: the packet waits out its deadline
            }
            if (st.deadline <= now || (miss != null && !resend && rule.exhausted(st.sends))) {
                st.expired = true;
                open.remove(seq);
                recovery.answered(seq, now);
                inFlight -= st.tokenIds.length;
                cached = null;
            }
        }
        out.addAll(sendMore(now, lastVt));
        return finishing(out, now);
    }

    /** What a handler sends, after noting when this source finished (its time lost to recovery ends there). */
    private List<Out> finishing(List<Out> out, long now) {
        if (done()) {
            recovery.finished(now);
        }
        return out;
    }

    @Override
    public long nextDeadline() {
        long d = Long.MAX_VALUE;
        for (int seq : open) {
            PacketState st = packets.get(seq);
            d = Math.min(d, Math.min(st.deadline, st.retryAt));
        }
        return d;
    }

    @Override
    public boolean done() {
        return queued.isEmpty() && open.isEmpty();
    }

    @Override
    public DriverReport report() {
        if (cached == null) {
            cached = verify();
        }
        return cached;
    }

    /** Adds each token's parts up and checks them against the reference over the experts they hold. */
    private DriverReport verify() {
        int h = plan.params().hidden();
        float[][] out = new float[tokens][h];
        EndpointSet[] holds = new EndpointSet[tokens];
        EndpointSet none = FlatBitmap.of(plan.experts().capacity());
        Arrays.fill(holds, none);
        for (PacketState st : packets) {
            for (int i = 0; i < st.tokenIds.length; i++) {
                int t = st.tokenIds[i];
                for (int j = 0; j < h; j++) {
                    out[t][j] += st.acc[i][j];
                }
                holds[t] = holds[t].or(st.held);
            }
        }
        List<String> mismatches = new ArrayList<>(errors);
        List<DriverReport.PartialChunk> partial = new ArrayList<>();
        int received = 0;
        int verified = 0;
        for (int t = 0; t < tokens; t++) {
            if (kept[t].length == 0) {
                received++;
                verified++;
                continue; // dropped by capacity: reported in dropped, nothing to combine
            }
            EndpointSet want = FlatBitmap.of(plan.experts().capacity(), kept[t]);
            if (!holds[t].isEmpty()) {
                received++;
            }
            if (!holds[t].equals(want)) {
                partial.add(new DriverReport.PartialChunk(t, plan.experts().names(want.andNot(holds[t]))));
            }
            String m = check(t, holds[t], out[t]);
            if (m == null) {
                verified++;
            } else {
                mismatches.add(m);
            }
        }
        return DriverReport.of(host, DriverReport.Role.MOE_SOURCE)
                .chunks(tokens)
                .received(received)
                .partialChunks(partial)
                .mismatches(mismatches)
                .lastVt(lastVt)
                .verifiedChunks(verified)
                .done(done())
                .dropped(List.copyOf(dropped))
                .stats(stats())
                .pace(window == null ? null : windowCurve.range())
                .build()
                .withUnitTimes(times);
    }

    /** Recovery's counters, and per expert the tokens this source routed to it and those capacity dropped. */
    private Map<String, Long> stats() {
        Map<String, Long> out = new LinkedHashMap<>(Recovery.stats(retransmissions, recovery.nanos(), policy()));
        if (window != null) {
            out.putAll(window.stats());
        }
        List<String> names = plan.experts().endpoints();
        for (int e = 0; e < load.length; e++) {
            out.put(EXPERT_TOKENS + names.get(e), (long) load[e]);
            out.put(EXPERT_DROPPED + names.get(e), (long) overAt[e]);
        }
        return out;
    }

    /** The stats' key prefixes of an expert's tokens taken and dropped, summed over the sources in the row. */
    static final String EXPERT_TOKENS = "expertTokens.";

    static final String EXPERT_DROPPED = "expertDropped.";

    private String check(int t, EndpointSet holds, float[] got) {
        int h = plan.params().hidden();
        double[] exact = new double[h];
        double[] abs = new double[h];
        float[] x = model.token(sourceIndex, t);
        for (int e : holds.indices()) {
            float[] y = model.weightedOutput(e, gates[t][indexOf(kept[t], e)], x);
            for (int j = 0; j < h; j++) {
                exact[j] += y[j];
                abs[j] += Math.abs(y[j]);
            }
        }
        int k = Math.max(1, holds.cardinality());
        for (int j = 0; j < h; j++) {
            double tol = k * U * abs[j];
            if (!(Math.abs(got[j] - exact[j]) <= tol)) {
                return String.format(
                        "token %d element %d: got %s, expected %s (tolerance %s) from %s",
                        t, j, got[j], exact[j], tol, plan.experts().names(holds));
            }
        }
        return null;
    }
}
