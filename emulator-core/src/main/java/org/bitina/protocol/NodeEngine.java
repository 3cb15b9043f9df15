package org.bitina.protocol;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.Bift;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Routing;
import org.bitina.wire.Direction;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * The data plane of one device (switch or host NIC), as a pure state machine: a frame in,
 * actions out. It decides per frame between the framework's two directions (seed 000
 * section 2): an aggregation packet meets the {@link AggregationTable} (terminate, reduce,
 * complete, or forward toward its underlay destination); a multicast packet is replicated
 * by the {@link Replicator}; a unicast baseline packet is routed. A device actor owns one
 * engine, feeds it frames, timer ticks and wall time, and sends what it returns.
 */
public final class NodeEngine {

    /**
     * What the control plane installs on a node for one job (A1, F1).
     *
     * @param bift       this node's BIFT for the job's bit space (null: no multicast here)
     * @param registered the node bitmap (A-BM) when this node is a VAT node, else null
     * @param vatParent  where this node's aggregation results go (null at the root)
     * @param root       true at the VAT root: a completed aggregation is multicast back with
     *                   the root's A-BM as the bitmap (A5, F6)
     */
    public record JobTables(String name, int tenant, int job, int capacity, Bift bift, EndpointSet registered,
                            String vatParent, boolean root, long timeoutNanos, DataInstall dataInstall, boolean rootMulticasts,
                            EncodingSpec encoding, EdgeRole edge) {
        public JobTables(String name, int tenant, int job, int capacity, Bift bift, EndpointSet registered, String vatParent,
                         boolean root, long timeoutNanos) {
            this(name, tenant, job, capacity, bift, registered, vatParent, root, timeoutNanos, DataInstall.NEVER, true, EncodingSpec.FLAT);
        }

        public JobTables(String name, int tenant, int job, int capacity, Bift bift, EndpointSet registered, String vatParent,
                         boolean root, long timeoutNanos, DataInstall dataInstall, boolean rootMulticasts, EncodingSpec encoding) {
            this(name, tenant, job, capacity, bift, registered, vatParent, root, timeoutNanos, dataInstall, rootMulticasts, encoding, null);
        }

        public JobTables withBift(Bift b) {
            return new JobTables(name, tenant, job, capacity, b, registered, vatParent, root, timeoutNanos, dataInstall, rootMulticasts, encoding,
                    edge);
        }

        public JobTables withEncoding(EncodingSpec e) {
            return new JobTables(name, tenant, job, capacity, bift, registered, vatParent, root, timeoutNanos, dataInstall, rootMulticasts, e,
                    edge);
        }

        public JobTables withEdge(EdgeRole e) {
            return new JobTables(name, tenant, job, capacity, bift, registered, vatParent, root, timeoutNanos, dataInstall, rootMulticasts, encoding,
                    e);
        }
    }

    /**
     * Every packet leaves a node with its endpoint set in the job's encoding (H2): endpoints
     * and switches may compute on any encoding, the wire carries the one the job chose.
     */
    private static Frame onWire(JobTables t, Frame f) {
        EndpointSet set = f.packet().endpoints();
        EncodingSpec e = t.encoding();
        if (e == null || (set.encoding() == e.encoding()
                && (e.encoding() != org.bitina.bitmap.Encoding.HIERARCHICAL
                || ((org.bitina.bitmap.HierarchicalBitmap) set).blockSize() == e.blockSize()))) {
            return f;
        }
        return new Frame(f.packet().withEndpoints(set.to(e.encoding(), e.blockSize())), f.destination(), f.vt(), f.via());
    }

    /**
     * Whether a reliable-multicast DATA packet installs a C-BM at branch nodes (R2): never
     * (pre-configured ACK tree), always (self-installed), or only retransmissions (the
     * composed policy). A MoE DISPATCH always installs.
     */
    public enum DataInstall {
        NEVER,
        ALWAYS,
        RETRANSMISSIONS
    }

    /** What the device does next. */
    public sealed interface Action permits Send, Deliver, Traced {
    }

    /** Put a frame on the link to a neighbour. */
    public record Send(String neighbor, Frame frame) implements Action {
    }

    /** Hand a frame to the endpoint drivers on this host. */
    public record Deliver(Frame frame) implements Action {
    }

    /** Record a trace event. */
    public record Traced(TraceEvent event) implements Action {
    }

    /** Per-job counters of this node. */
    public static final class Counters {
        private final Map<String, Long> values = new TreeMap<>();

        void add(String name) {
            values.merge(name, 1L, Long::sum);
        }

        public long get(String name) {
            return values.getOrDefault(name, 0L);
        }

        public Map<String, Long> asMap() {
            return Map.copyOf(values);
        }
    }

    /** How many completion timeouts a root keeps a partial result to fold late contributions in. */
    static final int RESULT_MEMORY_TIMEOUTS = 20;

    private final String name;
    private long unknownJobDrops;
    private Routing routing;
    private final AggregationTable table;
    private final boolean trace;
    private final Map<Long, JobTables> jobs = new HashMap<>();
    private final Map<Long, Counters> counters = new HashMap<>();
    /**
     * Self-installed trees (MoE): for each installed C-BM, the node upstream of this branch on
     * the dispatch tree, where the aggregated combine goes.
     */
    private final Map<StateKey, String> upstream = new HashMap<>();
    /** When an emitted self-installed entry's upstream may be forgotten (late contributions still need it until then). */
    private final Map<StateKey, Long> upstreamUntil = new HashMap<>();
    /**
     * BIER-INC trees (seed 001), created by the first forward packet of a (BFIR-id, entropy):
     * the upstream node, the incoming bitstring and the downstream copies. The communicator id
     * (entropy) is the job id here, so a tree is named by (tenant, job, BFIR-id).
     */
    public record IncTree(String upstream, EndpointSet incoming, List<Replicator.Copy> downstream, EndpointSet local) {
    }

    /**
     * INC state keys: origin = INC_ORIGIN | BFIR-id << 32 | tree generation << 16 | branch.
     * The generation changes with the routing, so state of a stale tree is never taken for
     * state of the tree that replaced it.
     */
    private static final long INC_ORIGIN = 1L << 62;
    /** A leaf's sum of its own hosts' shares (B6): origin = EDGE_ORIGIN | BFIR-id << 32. */
    private static final long EDGE_ORIGIN = 1L << 61;
    private int incGeneration;

    private static long incOrigin(int bfir, int generation, int branch) {
        return INC_ORIGIN | ((long) bfir << 32) | ((long) generation << 16) | branch;
    }

    private record IncKey(int tenant, int job, int bfir) {
    }

    /**
     * Per tree, one branch per upstream neighbour: with ECMP a node can receive a BFIR's packet
     * from several upstream nodes, each copy carrying other bits; each such branch has its own
     * incoming bitstring, and reductions of its bits go back to its own upstream.
     */
    private final Map<IncKey, List<IncTree>> incTrees = new HashMap<>();

    /** At a root: the last result sent for a key, to fold late contributions in and to resend it to a worker that lost it. */
    private final Map<StateKey, Emission> rootResults = new HashMap<>();

    public NodeEngine(String name, Routing routing, AggregationTable table, boolean trace) {
        this.name = name;
        this.routing = routing;
        this.table = table;
        this.trace = trace;
    }

    static long jobKey(int tenant, int job) {
        return ((long) tenant << 32) | (job & 0xFFFFFFFFL);
    }

    public String name() {
        return name;
    }

    /**
     * The engine of this node after a crash: the same installed jobs and routing, no
     * aggregation state, counters kept (they describe what happened before the crash).
     */
    public NodeEngine restarted(AggregationTable fresh) {
        NodeEngine e = new NodeEngine(name, routing, fresh, trace);
        e.jobs.putAll(jobs);
        e.counters.putAll(counters);
        e.unknownJobDrops = unknownJobDrops;
        return e;
    }

    public void install(JobTables t) {
        jobs.put(jobKey(t.tenant(), t.job()), t);
        counters.putIfAbsent(jobKey(t.tenant(), t.job()), new Counters());
    }

    /**
     * New routing after a failure or repair (F7: no bitmap changes, only next hops and BIFTs).
     * B5: INC trees follow the routing, so they go, and the next forward packet of each
     * communicator rebuilds them; reductions open on the old trees leave at once, outside
     * the trees, toward their BFIR (the returned actions), which folds them in.
     */
    public List<Action> setRouting(Routing r, Map<Long, Bift> bifts, long now) {
        this.routing = r;
        incTrees.clear();
        incGeneration = (incGeneration + 1) & 0xFFFF;
        bifts.forEach((k, b) -> {
            JobTables t = jobs.get(k);
            if (t != null) {
                jobs.put(k, t.withBift(b));
            }
        });
        List<Action> out = new ArrayList<>();
        for (Emission e : table.flush(k -> (k.origin() & INC_ORIGIN) != 0, now)) {
            JobTables t = jobs.get(jobKey(e.key().tenant(), e.key().job()));
            if (t != null && !e.pbm().isEmpty()) {
                counters(t.tenant(), t.job()).add("rerouteFlushes");
                emit(t, e, now, out);
            }
        }
        return out;
    }

    public Counters counters(int tenant, int job) {
        return counters.computeIfAbsent(jobKey(tenant, job), k -> new Counters());
    }

    /** Frames dropped because no job on this node matched their tenant and job ids (S1). */
    public long unknownJobDrops() {
        return unknownJobDrops;
    }

    public AggregationTable table() {
        return table;
    }

    public long nextDeadline() {
        return table.nextDeadline();
    }

    /** A frame arriving from a neighbour. */
    public List<Action> onFrame(Frame f, long now) {
        List<Action> out = new ArrayList<>(2);
        JobTables t = jobs.get(jobKey(f.packet().header().tenant(), f.packet().header().job()));
        if (t == null) {
            drop(out, null, f, "unknown job t" + f.packet().header().tenant() + "/j" + f.packet().header().job());
            return out;
        }
        counters(t.tenant(), t.job()).add("framesIn");
        process(t, f, now, out);
        return out;
    }

    /** A frame sent by a driver on this host. */
    public List<Action> originate(Frame f, long now) {
        List<Action> out = new ArrayList<>(2);
        JobTables t = jobs.get(jobKey(f.packet().header().tenant(), f.packet().header().job()));
        if (t == null) {
            drop(out, null, f, "unknown job t" + f.packet().header().tenant() + "/j" + f.packet().header().job());
            return out;
        }
        trace(out, t, f, "send", List.of(), null);
        process(t, f, now, out);
        return out;
    }

    /** Fires due completion timers: partial results leave (F5). */
    public List<Action> onTimer(long now) {
        List<Action> out = new ArrayList<>();
        for (Emission e : table.expire(now)) {
            JobTables t = jobs.get(jobKey(e.key().tenant(), e.key().job()));
            if (t == null) {
                continue;
            }
            counters(t.tenant(), t.job()).add("timeouts");
            if (trace) {
                out.add(new Traced(new TraceEvent(name, t.name(), e.key().seq(), "timeout", "agg", e.pbm().toString(), List.of(),
                        e.vt(), "missing " + e.missing())));
            }
            if (!e.pbm().isEmpty()) {
                emit(t, e, now, out);
            } else if (upstream.containsKey(e.key())) {
                // nothing to send, but late contributions may still come through here
                upstreamUntil.put(e.key(), now + RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
            }
        }
        upstreamUntil.entrySet().removeIf(u -> {
            if (u.getValue() <= now && !table.has(u.getKey())) {
                upstream.remove(u.getKey());
                return true;
            }
            return false;
        });
        // a root remembers a partial result long enough for stragglers to be folded in, not forever
        rootResults.values().removeIf(e -> {
            JobTables t = jobs.get(jobKey(e.key().tenant(), e.key().job()));
            return t == null || now - e.emittedAt() > RESULT_MEMORY_TIMEOUTS * t.timeoutNanos();
        });
        return out;
    }

    private void process(JobTables t, Frame f, long now, List<Action> out) {
        InaPacket p = f.packet();
        if (p.endpoints().capacity() != t.capacity()) {
            drop(out, t, f, "bitmap of " + p.endpoints().capacity() + " bits in a job of " + t.capacity());
            return;
        }
        if (p.header().type() == PacketType.INC_FORWARD || p.header().type() == PacketType.INC_REVERSE) {
            Frame g = t.edge() == null ? f : edgeIngress(t, f, now, out);
            if (g != null && g.packet().header().type() == PacketType.INC_FORWARD) {
                incForward(t, g, now, out);
            } else if (g != null) {
                incReverse(t, g, now, out);
            }
            return;
        }
        if (f.destination() == null) {
            replicate(t, f, now, out);
            return;
        }
        StateKey key = keyOf(t, p);
        EndpointSet registered = registeredFor(t, p);
        if (p.header().direction() == Direction.AGGREGATION
                && (registered != null || table.has(key) || upstream.containsKey(key))) {
            Contribution c = new Contribution(p.endpoints(), p.header().op(), p.payload(), f.vt());
            AggregationTable.Outcome o = table.offer(key, registered, c, t.timeoutNanos(), now);
            if (o instanceof AggregationTable.Forward) {
                String parent = upstream.getOrDefault(key, t.vatParent());
                if (f.destination().equals(name) && parent != null && !parent.equals(name)) {
                    // addressed to this node, whose state for it is gone: pass it on up the tree
                    counters(t.tenant(), t.job()).add("passedUp");
                    route(t, new Frame(p, parent, f.vt()), out);
                } else {
                    route(t, f, out);
                }
            } else if (o instanceof AggregationTable.Buffered) {
                counters(t.tenant(), t.job()).add("terminated");
                trace(out, t, f, "terminate", List.of(), null);
            } else if (o instanceof AggregationTable.Complete c2) {
                counters(t.tenant(), t.job()).add("terminated");
                counters(t.tenant(), t.job()).add("completions");
                trace(out, t, f, "terminate", List.of(), null);
                if (trace) {
                    out.add(new Traced(new TraceEvent(name, t.name(), key.seq(), "complete", "agg", c2.emission().pbm().toString(),
                            List.of(), c2.emission().vt(), null)));
                }
                emit(t, c2.emission(), now, out);
            } else if (o instanceof AggregationTable.Duplicate && p.header().has(Flags.RETRANSMIT)) {
                resendRequest(t, key, f, out);
            } else if (o instanceof AggregationTable.Duplicate) {
                drop(out, t, f, "duplicate contribution");
            } else if (o instanceof AggregationTable.Rejected r) {
                drop(out, t, f, r.reason());
            } else if (o instanceof AggregationTable.Refused r) {
                // graceful fallback (S5): pass the contribution on unaggregated toward the parent
                counters(t.tenant(), t.job()).add("refused");
                if (t.vatParent() != null) {
                    route(t, new Frame(p, t.vatParent(), f.vt()), out);
                } else {
                    drop(out, t, f, r.reason());
                }
            } else if (o instanceof AggregationTable.Late l) {
                counters(t.tenant(), t.job()).add("late");
                String parent = upstream.getOrDefault(key, t.vatParent());
                if (t.root() && !upstream.containsKey(key) && p.header().type() == PacketType.ACK) {
                    // a late acknowledgment at the source: the bits it brings are news for the sender
                    route(t, new Frame(p, name, f.vt()), out);
                } else if (t.root() && !upstream.containsKey(key)) {
                    foldLate(t, key, p, f.vt(), now, out);
                } else if (parent == null) {
                    drop(out, t, f, "late contribution with no node upstream to take it");
                } else {
                    InaPacket late = p.withHeader(p.header().withFlags(p.header().flags() | Flags.LATE));
                    route(t, new Frame(late, parent, f.vt()), out);
                }
            }
            return;
        }
        route(t, f, out);
    }

    /**
     * The state an aggregation packet belongs to: a self-installed (MoE) tree is scoped by its
     * token source, carried in the header's destination field; a pre-configured one by the job.
     */
    static StateKey keyOf(JobTables t, InaPacket p) {
        PacketType type = p.header().type();
        if (type == PacketType.DATA || type == PacketType.ACK) {
            // reliable multicast: scoped by round (destination field), keyed by window or packet (entropy)
            return new StateKey(t.tenant(), t.job(), p.header().destination(), p.header().entropy());
        }
        long origin = type == PacketType.DISPATCH || type == PacketType.COMBINE || type == PacketType.INC_REVERSE
                ? p.header().destination() : 0;
        return new StateKey(t.tenant(), t.job(), origin, p.header().seq());
    }

    /**
     * The pre-configured node bitmap that applies to this packet: under the composed policy
     * the A-BMs serve the bulk round only; the ACKs of a retransmission round meet just the
     * C-BMs their data installed (R2).
     */
    private static EndpointSet registeredFor(JobTables t, InaPacket p) {
        if (p.header().type() == PacketType.ACK && t.dataInstall() == DataInstall.RETRANSMISSIONS && p.header().destination() > 0) {
            return null;
        }
        return t.registered();
    }

    private static boolean installs(JobTables t, InaPacket p) {
        return switch (p.header().type()) {
            case DISPATCH -> true;
            case DATA -> t.dataInstall() == DataInstall.ALWAYS
                    || (t.dataInstall() == DataInstall.RETRANSMISSIONS && p.header().has(Flags.RETRANSMIT));
            default -> false;
        };
    }

    /** Sends an aggregation result upward, or, at the root, multicasts it back (A5). */
    private void emit(JobTables t, Emission e, long now, List<Action> out) {
        String up = upstream.get(e.key());
        int flags = e.partial() ? Flags.PARTIAL : 0;
        if ((e.key().origin() & INC_ORIGIN) != 0) {
            emitInc(t, e, out);
            return;
        }
        if ((e.key().origin() & EDGE_ORIGIN) != 0) {
            emitEdge(t, e, now, out);
            return;
        }
        boolean ack = e.payload().elementType() == org.bitina.wire.ElementType.NONE && e.op() == org.bitina.wire.ReductionOp.NONE;
        if (ack) {
            // an aggregated acknowledgment: the bitmap is the acknowledgment (R1)
            InaHeader h = InaHeader.of(PacketType.ACK, t.tenant(), t.job(), e.key().seq()).withDestination((int) e.key().origin())
                    .withEntropy((int) e.key().seq()).withFlags(flags);
            String to = up != null ? up : t.root() ? name : t.vatParent();
            if (up != null) {
                upstreamUntil.put(e.key(), now + RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
            }
            counters(t.tenant(), t.job()).add(e.partial() ? "partialAcks" : "acks");
            route(t, new Frame(new InaPacket(h, e.pbm(), Payload.EMPTY), to, e.vt()), out);
            return;
        }
        if (up != null) {
            upstreamUntil.put(e.key(), now + RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
            // a self-installed C-BM: the combine climbs the dispatch tree (M3)
            InaHeader h = InaHeader.of(PacketType.COMBINE, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                    .withDestination((int) e.key().origin()).withFlags(flags);
            route(t, new Frame(new InaPacket(h, e.pbm(), e.payload()), up, e.vt()), out);
            return;
        }
        InaHeader base = InaHeader.of(PacketType.CONTRIBUTION, t.tenant(), t.job(), e.key().seq()).withOp(e.op());
        if (!t.root()) {
            InaPacket upPacket = new InaPacket(base.withFlags(flags), e.pbm(), e.payload());
            route(t, new Frame(upPacket, t.vatParent(), e.vt()), out);
            return;
        }
        rootResults.put(e.key(), e);
        multicastResult(t, e, t.registered(), out);
    }

    private void multicastResult(JobTables t, Emission e, EndpointSet to, List<Action> out) {
        boolean complete = e.pbm().equals(t.registered());
        InaHeader h = InaHeader.of(PacketType.RESULT, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                .withFlags(complete ? 0 : Flags.PARTIAL);
        // F6: the root's node bitmap is the multicast bitmap (a resend goes to the workers that asked)
        InaPacket result = new InaPacket(h, to, e.payload(), complete ? null : e.pbm(), null);
        counters(t.tenant(), t.job()).add(complete ? "rootComplete" : "rootPartial");
        replicate(t, new Frame(result, null, e.vt()), e.emittedAt(), out);
    }

    /**
     * A worker that waited too long for a result sends its contribution again (flag
     * RETRANSMIT). Where it was already counted it is not added again: a VAT node passes it
     * up, and the root sends the result it remembers to that worker alone, so a result lost
     * on a link (or a failed one, F7) is recovered without counting anything twice.
     */
    private void resendRequest(JobTables t, StateKey key, Frame f, List<Action> out) {
        Emission known = rootResults.get(key);
        if (t.root() && t.rootMulticasts() && known != null) {
            counters(t.tenant(), t.job()).add("resultsResent");
            multicastResult(t, known, f.packet().endpoints(), out);
        } else if (!t.root() && t.vatParent() != null) {
            counters(t.tenant(), t.job()).add("retransmissionsPassedUp");
            route(t, new Frame(f.packet(), t.vatParent(), f.vt()), out);
        } else {
            drop(out, t, f, "retransmitted contribution after the result was forgotten");
        }
    }

    /** A contribution that missed the root's partial result: fold it in and send the better result. */
    private void foldLate(JobTables t, StateKey key, InaPacket p, long vt, long now, List<Action> out) {
        Emission prev = rootResults.get(key);
        if (prev == null) {
            drop(out, t, new Frame(p, null, vt), "late contribution after the result was forgotten");
            return;
        }
        Emission better = prev.foldIn(new Contribution(p.endpoints(), p.header().op(), p.payload(), vt), now);
        if (better == null) {
            drop(out, t, new Frame(p, null, vt), "late payload does not match the result");
            return;
        }
        rootResults.put(key, better);
        counters(t.tenant(), t.job()).add("lateFolded");
        multicastResult(t, better, t.registered(), out);
    }

    private void replicate(JobTables t, Frame f, long now, List<Action> out) {
        if (t.bift() == null) {
            drop(out, t, f, "no BIFT for this job here");
            return;
        }
        Replicator.Result r = Replicator.replicate(f.packet().endpoints(), t.bift());
        String via = f.via();
        if (r.isBranch() && installs(t, f.packet())) {
            via = install(t, f, r.cbm(), now, out);
        }
        List<String> to = new ArrayList<>(r.copies().size());
        for (Replicator.Copy c : r.copies()) {
            out.add(new Send(c.neighbor(), onWire(t, new Frame(f.packet().withEndpoints(c.bitmap()), null, f.vt(), via))));
            to.add(c.neighbor());
        }
        if (!to.isEmpty()) {
            counters(t.tenant(), t.job()).add(to.size() > 1 ? "replicated" : "forwarded");
            trace(out, t, f, to.size() > 1 ? "replicate" : "forward", to, null);
        }
        if (!r.local().isEmpty()) {
            counters(t.tenant(), t.job()).add("delivered");
            Frame local = new Frame(f.packet().withEndpoints(r.local()), null, f.vt(), via);
            trace(out, t, local, "deliver", List.of(), null);
            out.add(new Deliver(local));
        }
        if (!r.unreachable().isEmpty()) {
            drop(out, t, f, "no route to " + r.unreachable());
        }
    }

    private static IncKey incKey(JobTables t, int bfir) {
        return new IncKey(t.tenant(), t.job(), bfir);
    }

    /**
     * B2: the first forward packet of a (BFIR-id, entropy) creates the INC tree here from the
     * bit-by-bit BIER lookup; later ones use the installed downstream copies. A packet whose
     * bitstring differs from the saved incoming one rebuilds the tree (a routing change).
     * A retransmission (a result resent to the members that asked) is replicated without
     * touching the tree: its bitstring is a subset and must not replace the tree's branch.
     */
    private void incForward(JobTables t, Frame f, long now, List<Action> out) {
        InaPacket p = f.packet();
        if (t.bift() == null) {
            drop(out, t, f, "no BIFT for this job here");
            return;
        }
        List<Replicator.Copy> copies;
        EndpointSet local;
        if (p.header().has(Flags.RETRANSMIT)) {
            Replicator.Result r = Replicator.replicate(p.endpoints(), t.bift());
            copies = r.copies();
            local = r.local();
            if (!r.unreachable().isEmpty()) {
                drop(out, t, f, "no route to " + r.unreachable());
            }
        } else {
            IncTree tree = incTree(t, f, out);
            copies = tree.downstream();
            local = tree.local();
        }
        List<String> to = new ArrayList<>();
        for (Replicator.Copy c : copies) {
            // every hop names itself: the next node's upstream (seed 001)
            out.add(new Send(c.neighbor(), onWire(t, new Frame(p.withEndpoints(c.bitmap()), null, f.vt(), name))));
            to.add(c.neighbor());
        }
        if (!to.isEmpty()) {
            counters(t.tenant(), t.job()).add(to.size() > 1 ? "replicated" : "forwarded");
            trace(out, t, f, to.size() > 1 ? "replicate" : "forward", to, null);
        }
        if (!local.isEmpty()) {
            deliverLocal(t, new Frame(p.withEndpoints(local), null, f.vt(), name), f.via(), out);
        }
    }

    /** The tree branch a forward packet belongs to, created by the first one (B2). */
    private IncTree incTree(JobTables t, Frame f, List<Action> out) {
        InaPacket p = f.packet();
        IncKey key = incKey(t, p.header().source());
        List<IncTree> branches = incTrees.computeIfAbsent(key, k -> new ArrayList<>(1));
        for (IncTree b : branches) {
            if (b != null && b.incoming().equals(p.endpoints()) && java.util.Objects.equals(b.upstream(), f.via())) {
                return b;
            }
        }
        // a new branch; one that overlaps it is stale (the routes moved) and goes. Branches are
        // told apart by their bits, not by their upstream: one upstream may send several copies.
        Replicator.Result r = Replicator.replicate(p.endpoints(), t.bift());
        IncTree tree = new IncTree(f.via(), p.endpoints(), r.copies(), r.local());
        EndpointSet bits = p.endpoints();
        for (int i = 0; i < branches.size(); i++) {
            if (branches.get(i) != null && branches.get(i).incoming().intersects(bits)) {
                branches.set(i, null);
            }
        }
        int free = branches.indexOf(null);
        if (free >= 0) {
            branches.set(free, tree);
        } else {
            branches.add(tree);
        }
        counters(t.tenant(), t.job()).add("incTrees");
        if (trace) {
            out.add(new Traced(new TraceEvent(name, t.name(), p.header().seq(), "install", "mcast", p.endpoints().toString(),
                    r.copies().stream().map(Replicator.Copy::neighbor).toList(), f.vt(), "INC tree of BFIR " + key.bfir()
                    + ", upstream " + f.via())));
        }
        return tree;
    }

    /** Delivery here: to this host's endpoint, or, at a leaf that is an edge BFR, to its member hosts but the one it came from (B6). */
    private void deliverLocal(JobTables t, Frame f, String except, List<Action> out) {
        EdgeRole e = t.edge();
        if (e != null && e.leaf().equals(name)) {
            List<String> to = new ArrayList<>(e.hosts().size());
            for (String h : e.hosts()) {
                if (!h.equals(except)) {
                    out.add(new Send(h, onWire(t, new Frame(f.packet(), null, f.vt(), name))));
                    to.add(h);
                }
            }
            trace(out, t, f, "forward", to, "to the hosts behind this leaf");
            return;
        }
        counters(t.tenant(), t.job()).add("delivered");
        trace(out, t, f, "deliver", List.of(), null);
        out.add(new Deliver(f));
    }

    /**
     * B6 at the edge: a member host hands its INC packets to its leaf and takes what comes
     * back; a leaf sets the BFIR-id on its hosts' forward packets and sums their shares before
     * they enter the tree as one reduction with the leaf's bit. Returns the frame to go on
     * with, or null when it was dealt with here.
     */
    private Frame edgeIngress(JobTables t, Frame f, long now, List<Action> out) {
        EdgeRole e = t.edge();
        InaPacket p = f.packet();
        if (!e.leaf().equals(name)) {
            if (f.via() == null) {
                trace(out, t, f, "forward", List.of(e.leaf()), null);
                out.add(new Send(e.leaf(), onWire(t, new Frame(p, null, f.vt(), name))));
            } else {
                counters(t.tenant(), t.job()).add("delivered");
                trace(out, t, f, "deliver", List.of(), null);
                out.add(new Deliver(f));
            }
            return null;
        }
        int local = f.via() == null ? -1 : e.hosts().indexOf(f.via());
        if (local < 0) {
            return f;
        }
        if (p.header().type() == PacketType.INC_FORWARD) {
            return new Frame(p.withHeader(p.header().withSource(e.bit())), f.destination(), f.vt(), f.via());
        }
        if (p.endpoints().cardinality() != 1 || !p.endpoints().contains(e.bit())) {
            drop(out, t, f, "a host behind " + name + " sent bitstring " + p.endpoints() + "; it can only speak for this leaf's bit");
            return null;
        }
        if (p.header().has(Flags.LATE) || p.header().has(Flags.RETRANSMIT)) {
            return f;
        }
        int n = e.hosts().size();
        StateKey key = new StateKey(t.tenant(), t.job(), EDGE_ORIGIN | ((long) p.header().destination() << 32), p.header().seq());
        Contribution c = new Contribution(FlatBitmap.of(n, local), p.header().op(), p.payload(), f.vt());
        offerInc(t, f, key, FlatBitmap.full(n), c, "share", now, out);
        return null;
    }

    /** A leaf's sum of its hosts' shares: into the tree as the leaf's bit when all are in, else on to the BFIR with who is in it. */
    private void emitEdge(JobTables t, Emission e, long now, List<Action> out) {
        EdgeRole r = t.edge();
        int bfir = (int) ((e.key().origin() & ~EDGE_ORIGIN) >>> 32);
        InaHeader h = InaHeader.of(PacketType.INC_REVERSE, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                .withDestination(bfir).withSource(r.bit()).withEntropy(t.job());
        EndpointSet bits = FlatBitmap.of(t.capacity(), r.bit());
        if (e.pbm().cardinality() == r.hosts().size()) {
            incReverse(t, new Frame(new InaPacket(h, bits, e.payload()), null, e.vt(), name), now, out);
            return;
        }
        int[] held = e.pbm().stream().map(i -> r.hostBits().get(i)).toArray();
        EndpointSet provenance = FlatBitmap.of(r.endpointCapacity(), held);
        counters(t.tenant(), t.job()).add("passedOn");
        passOn(t, new Frame(new InaPacket(h.withFlags(Flags.LATE), bits, e.payload(), provenance, null), null, e.vt(), name), out);
    }

    /**
     * B3: OR the bitstrings and reduce; complete when the OR equals the saved incoming
     * bitstring, or at the timer. What no current branch here can take (the tree went with a
     * routing change, or the entry already left) and what comes flagged LATE or RETRANSMIT
     * is passed on toward the BFIR outside the tree and added there: never dropped, never
     * added twice (the BFIR takes only bits it has not heard).
     */
    private void incReverse(JobTables t, Frame f, long now, List<Action> out) {
        InaPacket p = f.packet();
        if (p.header().has(Flags.LATE) || p.header().has(Flags.RETRANSMIT)) {
            passOn(t, f, out);
            return;
        }
        List<IncTree> branches = incTrees.getOrDefault(incKey(t, p.header().destination()), List.of());
        int at = -1;
        for (int i = 0; i < branches.size(); i++) {
            if (branches.get(i) != null && p.endpoints().isSubsetOf(branches.get(i).incoming())) {
                at = i;
            }
        }
        if (at < 0) {
            counters(t.tenant(), t.job()).add("offTree");
            passOn(t, late(f), out);
            return;
        }
        IncTree tree = branches.get(at);
        StateKey key = new StateKey(t.tenant(), t.job(), incOrigin(p.header().destination(), incGeneration, at), p.header().seq());
        Contribution c = new Contribution(p.endpoints(), p.header().op(), p.payload(), f.vt());
        offerInc(t, f, key, tree.incoming(), c, "reduction", now, out);
    }

    /**
     * One INC aggregation step, for a tree branch and for a leaf's own hosts alike: reduce,
     * emit on completion, and pass on toward the BFIR what this state can no longer take
     * (late, or over the quota), never dropping it.
     */
    private void offerInc(JobTables t, Frame f, StateKey key, EndpointSet registered, Contribution c, String what, long now,
                          List<Action> out) {
        AggregationTable.Outcome o = table.offer(key, registered, c, t.timeoutNanos(), now);
        if (o instanceof AggregationTable.Buffered) {
            counters(t.tenant(), t.job()).add("terminated");
            trace(out, t, f, "terminate", List.of(), null);
        } else if (o instanceof AggregationTable.Complete done) {
            counters(t.tenant(), t.job()).add("completions");
            trace(out, t, f, "terminate", List.of(), null);
            emit(t, done.emission(), now, out);
        } else if (o instanceof AggregationTable.Late || o instanceof AggregationTable.Forward) {
            counters(t.tenant(), t.job()).add("late");
            passOn(t, late(f), out);
        } else if (o instanceof AggregationTable.Duplicate) {
            drop(out, t, f, "duplicate " + what);
        } else if (o instanceof AggregationTable.Rejected r) {
            drop(out, t, f, r.reason());
        } else if (o instanceof AggregationTable.Refused) {
            // over the quota (S5): unaggregated, but not lost
            counters(t.tenant(), t.job()).add("refused");
            passOn(t, late(f), out);
        }
    }

    private static Frame late(Frame f) {
        InaPacket p = f.packet();
        return new Frame(p.withHeader(p.header().withFlags(p.header().flags() | Flags.LATE)), f.destination(), f.vt(), f.via());
    }

    /** A reduction leaves: to the upstream of its branch, or, when that tree is gone, toward the BFIR. */
    private void emitInc(JobTables t, Emission e, List<Action> out) {
        long origin = e.key().origin();
        int bfir = (int) ((origin & ~INC_ORIGIN) >>> 32);
        int generation = (int) ((origin >>> 16) & 0xFFFF);
        int branch = (int) (origin & 0xFFFF);
        List<IncTree> branches = incTrees.get(new IncKey(e.key().tenant(), e.key().job(), bfir));
        IncTree tree = generation == incGeneration && branches != null && branch < branches.size() ? branches.get(branch) : null;
        int flags = tree == null ? Flags.LATE : e.partial() ? Flags.PARTIAL : 0;
        InaHeader h = InaHeader.of(PacketType.INC_REVERSE, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                .withDestination(bfir).withEntropy(t.job()).withFlags(flags);
        InaPacket packet = new InaPacket(h, e.pbm(), e.payload());
        if (tree == null) {
            counters(t.tenant(), t.job()).add("passedOn");
            passOn(t, new Frame(packet, null, e.vt(), name), out);
        } else if (tree.upstream() == null) {
            // this node is the BFIR: the reduction is for its endpoint
            counters(t.tenant(), t.job()).add("delivered");
            Frame f = new Frame(packet, name, e.vt(), name);
            trace(out, t, f, "deliver", List.of(), null);
            out.add(new Deliver(f));
        } else {
            Frame f = new Frame(packet, tree.upstream(), e.vt(), name);
            trace(out, t, f, "forward", List.of(tree.upstream()), null);
            out.add(new Send(tree.upstream(), onWire(t, f)));
        }
    }

    /** Toward the BFIR hop by hop along the BIFT (the next hop of the BFIR's own bit), unaggregated. */
    private void passOn(JobTables t, Frame f, List<Action> out) {
        int bfir = f.packet().header().destination();
        if (t.bift() == null || bfir < 0 || bfir >= t.capacity()) {
            drop(out, t, f, "reduction for BFIR-id " + bfir + ", outside the job's bit space");
            return;
        }
        if (t.bift().local().contains(bfir)) {
            EdgeRole e = t.edge();
            if (e != null && e.leaf().equals(name)) {
                if (e.owner() == null) {
                    drop(out, t, f, "no BFIR behind leaf " + name);
                } else {
                    trace(out, t, f, "forward", List.of(e.owner()), null);
                    out.add(new Send(e.owner(), onWire(t, new Frame(f.packet(), null, f.vt(), name))));
                }
                return;
            }
            counters(t.tenant(), t.job()).add("delivered");
            trace(out, t, f, "deliver", List.of(), null);
            out.add(new Deliver(f));
            return;
        }
        String hop = t.bift().neighborFor(bfir);
        if (hop == null) {
            drop(out, t, f, "no route to BFIR " + bfir);
            return;
        }
        trace(out, t, f, "forward", List.of(hop), null);
        out.add(new Send(hop, onWire(t, new Frame(f.packet(), null, f.vt(), name))));
    }

    /** Tree branches this node holds for one job (the report's tree entries per switch, B2). */
    public int incTreeCount(int tenant, int job) {
        int n = 0;
        for (Map.Entry<IncKey, List<IncTree>> e : incTrees.entrySet()) {
            if (e.getKey().tenant() == tenant && e.getKey().job() == job) {
                n += (int) e.getValue().stream().filter(java.util.Objects::nonNull).count();
            }
        }
        return n;
    }

    /** Trees this node holds (the report's tree entries per switch, B2). */
    public int incTreeCount() {
        return (int) incTrees.values().stream().flatMap(List::stream).filter(java.util.Objects::nonNull).count();
    }

    /**
     * A branch node of a dispatch installs the C-BM as soft state with a completion timeout
     * (M2) and remembers its upstream; downstream copies then name this node as theirs.
     * Past the job's quota it installs nothing and the combine passes through unaggregated.
     */
    private String install(JobTables t, Frame f, org.bitina.bitmap.EndpointSet cbm, long now, List<Action> out) {
        StateKey key = keyOf(t, f.packet());
        AggregationTable.Refused refused = table.install(key, cbm, t.timeoutNanos(), now, f.vt());
        if (refused != null) {
            counters(t.tenant(), t.job()).add("refused");
            drop(out, t, f, "C-BM not installed: " + refused.reason());
            return f.via();
        }
        upstream.put(key, f.via() != null ? f.via() : name);
        counters(t.tenant(), t.job()).add("installs");
        if (trace) {
            out.add(new Traced(new TraceEvent(name, t.name(), key.seq(), "install", "mcast", cbm.toString(), List.of(), f.vt(),
                    "C-BM for source " + key.origin())));
        }
        return name;
    }

    private void route(JobTables t, Frame f, List<Action> out) {
        String dst = f.destination();
        if (dst.equals(name)) {
            counters(t.tenant(), t.job()).add("delivered");
            trace(out, t, f, "deliver", List.of(), null);
            out.add(new Deliver(f));
            return;
        }
        String hop = routing.nextHop(name, dst);
        if (hop == null) {
            drop(out, t, f, "no route to " + dst);
            return;
        }
        counters(t.tenant(), t.job()).add("forwarded");
        trace(out, t, f, "forward", List.of(hop), null);
        out.add(new Send(hop, onWire(t, f)));
    }

    private void drop(List<Action> out, JobTables t, Frame f, String reason) {
        if (t != null) {
            counters(t.tenant(), t.job()).add("drops");
        } else {
            unknownJobDrops++;
        }
        trace(out, t, f, "drop", List.of(), reason);
    }

    private void trace(List<Action> out, JobTables t, Frame f, String event, List<String> to, String detail) {
        if (!trace) {
            return;
        }
        InaPacket p = f.packet();
        String job = t != null ? t.name() : "t" + p.header().tenant() + "/j" + p.header().job();
        String dir = p.header().direction() == Direction.AGGREGATION ? "agg" : "mcast";
        out.add(new Traced(new TraceEvent(name, job, p.header().seq(), event, dir, p.endpoints().toString(), to, f.vt(), detail)));
    }
}
