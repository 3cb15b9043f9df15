package org.bitina.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.security.ChecksumAudit;
import org.bitina.topology.Bift;
import org.bitina.topology.Routing;
import org.bitina.wire.Direction;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * The data plane of one device (switch or host NIC), as a pure state machine: a frame in,
 * actions out. It dispatches each frame to the framework's two directions (seed 000
 * section 2): a multicast packet is replicated by the {@link Replicator} (F3); an
 * aggregation packet meets the {@link AggregationTable} through the tree mechanism that
 * owns its state: {@link PreconfiguredTrees} (A-BMs), {@link SelfInstalledTrees} (C-BMs),
 * {@link IncTrees} (BIER-INC, seed 001) or the {@link EdgeAggregator} (B6); anything else is
 * routed. A device actor owns one engine, feeds it frames, timer ticks and time, and sends
 * what it returns.
 */
public final class NodeEngine {

    /** What the device does next. */
    public sealed interface Action permits Send, Deliver, Traced {}

    /** Put a frame on the link to a neighbour. */
    public record Send(String neighbor, Frame frame) implements Action {}

    /** Hand a frame to the endpoint drivers on this host. */
    public record Deliver(Frame frame) implements Action {}

    /** Record a trace event. */
    public record Traced(TraceEvent event) implements Action {}

    /** How many completion timeouts a node keeps what late contributions still need (a root's result, an upstream). */
    static final int RESULT_MEMORY_TIMEOUTS = 20;

    private final NodeContext node;
    private final PreconfiguredTrees preconfigured;
    private final SelfInstalledTrees selfInstalled;
    private final IncTrees inc;
    /** The C-BMs and INC tree branches installed here, per job: what the report draws of the trees packets built. */
    final ObservedTrees observed = new ObservedTrees();

    private final EdgeAggregator edge;

    public NodeEngine(String name, Routing routing, AggregationTable table, boolean trace) {
        this.node = new NodeContext(name, routing, table, trace);
        this.preconfigured = new PreconfiguredTrees(name, node.jobs, table);
        this.selfInstalled = new SelfInstalledTrees(name, table, observed);
        this.edge = new EdgeAggregator(name);
        this.inc = new IncTrees(name, observed, edge);
        this.edge.inc = inc;
    }

    public String name() {
        return node.name;
    }

    /**
     * The engine of this node after a crash within a phase: as {@link #restarted}, and the trees
     * the packets built here so far stay observed (the report counts them for the whole phase).
     */
    public NodeEngine crashed(AggregationTable fresh) {
        NodeEngine e = restarted(fresh);
        e.observed.carryOver(observed);
        // within the phase the running jobs keep their shares of the pool too
        node.jobs.values().stream().filter(t -> t.pool() != null).forEach(t -> hold(fresh, t));
        return e;
    }

    /**
     * The engine of this node after a crash or at a new phase: the same installed jobs and
     * routing, no aggregation state, counters kept (they describe what happened before).
     */
    public NodeEngine restarted(AggregationTable fresh) {
        NodeEngine e = new NodeEngine(node.name, node.routing, fresh, node.tracing);
        e.node.jobs.putAll(node.jobs);
        // the jobs' reservations (S5) are installed state too: a recovered switch holds them to the same quota; a
        // share of the pool (T2) is the running phase's alone, and a new phase installs its own
        node.jobs.values().stream()
                .filter(t -> t.pool() == null)
                .forEach(t -> fresh.reserve(t.key(), t.stateEntries()));
        e.node.counters.putAll(node.counters);
        e.node.unknownJobDrops = node.unknownJobDrops;
        node.dropReasons.forEach((k, v) -> e.node.dropReasons.put(k, new TreeMap<>(v)));
        e.node.drops = node.drops;
        // the count goes on, so does its last reason: a device's drop warning names it ("the last: null" otherwise)
        e.node.lastDrop = node.lastDrop;
        e.preconfigured.tamper = preconfigured.tamper;
        e.node.audits.putAll(node.audits);
        return e;
    }

    /**
     * The engine of this node when it comes back within a phase (switch-recover): no job's tables,
     * no aggregation state, nothing reserved, counters kept; the controller installs what it needs.
     */
    public NodeEngine emptied(AggregationTable fresh) {
        NodeEngine e = crashed(fresh);
        e.node.jobs.keySet().forEach(k -> fresh.reserve(k, 0));
        e.node.jobs.clear();
        return e;
    }

    public void install(JobTables t) {
        node.jobs.put(t.key(), t);
        node.counters(t.key());
        hold(node.table, t);
    }

    /** What admission control gave the job here: its share of the pool (T2), or its reservation (S5). */
    private static void hold(AggregationTable table, JobTables t) {
        if (t.pool() != null) {
            table.pool(t.key(), t.pool(), t.stateEntries());
        } else {
            table.reserve(t.key(), t.stateEntries());
        }
    }

    /**
     * The job has completed (T2): its grant of the pool goes back, and best-effort jobs may use it.
     * Its live entries count until they leave.
     */
    public void release(int tenant, int job) {
        node.table.release(new JobKey(tenant, job));
    }

    /**
     * The job's tree was rebuilt around a crashed switch: its new tables go in, and its open
     * aggregations go (they were built for the old A-BMs; the workers send those chunks again).
     * So do its tombstones, except at a root that stays the root: there they still tell a
     * resent contribution of a chunk that already has its result from a new one (it is a
     * duplicate, and the root resends the result it remembers), so nothing counts twice. The
     * old tree's contributions still on their way here ({@code stale}) are dropped, counted.
     */
    public List<Action> retree(JobTables t, List<Frame> stale) {
        JobTables old = node.jobs.get(t.key());
        boolean sameRoot = old != null && old.root() && t.root();
        install(t);
        node.table.clearJob(t.tenant(), t.job(), !sameRoot);
        List<Action> out = new ArrayList<>();
        stale.forEach(f -> node.drop(out, t, f, DropReason.STALE_VAT));
        return out;
    }

    /**
     * New routing after a failure or repair (F7: no bitmap changes, only next hops and BIFTs).
     * B5: INC trees follow the routing, so they go, and the next forward packet of each
     * communicator rebuilds them; reductions open on the old trees leave at once, outside
     * the trees, toward their BFIR (the returned actions), which folds them in.
     */
    public List<Action> setRouting(Routing r, Map<JobKey, Bift> bifts, long now) {
        node.routing = r;
        inc.reroute();
        bifts.forEach((k, b) -> {
            JobTables t = node.jobs.get(k);
            if (t != null) {
                node.jobs.put(k, t.withBift(b));
            }
        });
        List<Action> out = new ArrayList<>();
        for (Emission e : node.table.flush(k -> k.tree() == StateKey.Tree.INC, now)) {
            JobTables t = node.job(e.key().jobKey());
            if (t != null && !e.pbm().isEmpty()) {
                node.count(t, Counter.REROUTE_FLUSHES);
                apply(emit(t, e, now), out);
            }
        }
        return out;
    }

    /**
     * A new phase: the jobs' counters and drops by reason start again from zero. Each phase's are
     * collected at its end, and a phase may run a job under the key of an earlier one (a shared
     * world's job alone after the mix): its row counts its own frames, not the two phases' sum.
     */
    public void newPhase() {
        node.counters.clear();
        node.dropReasons.keySet().removeIf(k -> !k.equals(NodeContext.NO_JOB));
    }

    public Counters counters(int tenant, int job) {
        return node.counters(new JobKey(tenant, job));
    }

    /** This node's drops of one job's frames by reason (reasons with their numbers and bitmaps left out). */
    public Map<String, Long> dropsByReason(int tenant, int job) {
        return Map.copyOf(node.dropReasons.getOrDefault(new JobKey(tenant, job), Map.of()));
    }

    /** Drops of frames of no job installed here, by reason. */
    public Map<String, Long> unknownJobDropsByReason() {
        return Map.copyOf(node.dropReasons.getOrDefault(NodeContext.NO_JOB, Map.of()));
    }

    /** Every frame this node dropped so far, and the last reason: a device warns of them, rate-limited. */
    public long drops() {
        return node.drops;
    }

    public String lastDropReason() {
        return node.lastDrop;
    }

    /** Frames dropped because no job on this node matched their tenant and job ids (S1). */
    public long unknownJobDrops() {
        return node.unknownJobDrops;
    }

    /** The tables of job {@code k} installed here, or null. */
    public JobTables tables(JobKey k) {
        return node.job(k);
    }

    public AggregationTable table() {
        return node.table;
    }

    public long nextDeadline() {
        return node.table.nextDeadline();
    }

    /** A frame arriving from a neighbour not named (tests that drive the engine alone): no port to check. */
    public List<Action> onFrame(Frame f, long now) {
        return onFrame(f, null, now);
    }

    /** A frame arriving from neighbour {@code from}: the job's ingress policy first (S1, S4), then the data plane. */
    public List<Action> onFrame(Frame f, String from, long now) {
        List<Action> out = new ArrayList<>(2);
        JobTables t = jobOf(f, out);
        if (t != null) {
            node.count(t, Counter.FRAMES_IN);
            boolean fromHost = node.isHost(from);
            Decision.Drop refused = refusedAtIngress(t, f, from, fromHost, now);
            if (refused != null) {
                apply(refused, out);
                return out;
            }
            node.audit(t, f.packet(), from);
            process(t, fromHost ? node.atIngress(t, f) : f, now, out);
        }
        return out;
    }

    /** What the job's ingress rules refuse of a frame from neighbour {@code from}, or null. */
    private Decision.Drop refusedAtIngress(JobTables t, Frame f, String from, boolean fromHost, long now) {
        // S4's rate limit first, as a switch polices before it parses; then S2: an endpoint's packet
        // must carry its job's tag, checked at the first switch
        if (fromHost
                && t.ingress() != null
                && t.ingress().rate() != null
                && !node.bucket(t, from).take(now)) {
            return Decision.drop(t, f, DropReason.RATE);
        }
        if (fromHost && t.macKey() != null && !node.mac.verify(t.macKey(), f.packet())) {
            return Decision.drop(t, f, DropReason.MAC);
        }
        if (t.ingress() == null) {
            return null;
        }
        // only a host's port asks for its F-BM: one cached per switch port was 2.7 GB of flat F-BMs at k=64
        String breach = t.ingress().refuse(f.packet(), from, fromHost, fromHost ? behind(t, from) : null);
        if (breach != null) {
            return Decision.drop(t, f, DropReason.INGRESS_POLICY, breach);
        }
        if (fromHost && f.packet().header().type() == PacketType.CONTRIBUTION) {
            long seq = f.packet().header().seq();
            if (t.ingress().contributions() > 0
                    && (seq < 0 || seq >= t.ingress().contributions())) {
                // S5: a number no honest worker uses would open state the job never reserved (flagged or not)
                return Decision.drop(t, f, DropReason.SEQUENCE_OUT_OF_RANGE);
            }
            if (replayChecked(f.packet()) && !node.replayWindow(t, from).accept(seq)) {
                return Decision.drop(t, f, DropReason.REPLAY);
            }
        }
        return null;
    }

    /**
     * A frame that was on the wire when its link went down: counted as
     * arrived and dropped as {@code link down} (the ingress policy, under the new routing, would
     * take it for spoofed bits).
     */
    public List<Action> lostWithLink(Frame f) {
        List<Action> out = new ArrayList<>(1);
        JobTables t = jobOf(f, out);
        if (t != null) {
            node.count(t, Counter.FRAMES_IN);
            node.drop(out, t, f, DropReason.LINK_DOWN);
        }
        return out;
    }

    /**
     * S3: a worker's contributions enter the network once per chunk, in increasing chunk order
     * (a window at a time), so the switch at its port keeps an anti-replay window over their
     * numbers; a retransmission says so (flag) and is the tombstones' and the root's to handle.
     */
    private static boolean replayChecked(InaPacket p) {
        return p.header().type() == PacketType.CONTRIBUTION && !p.header().has(Flags.RETRANSMIT);
    }

    /** The bits whose next hop from here is {@code neighbor} (none for a neighbour the BIFT does not name); null without a BIFT. */
    private static EndpointSet behind(JobTables t, String neighbor) {
        if (t.bift() == null || neighbor == null) {
            return null;
        }
        EndpointSet f = t.bift().forwardingBitmap(neighbor);
        return f != null ? f : FlatBitmap.of(t.bift().capacity());
    }

    /** A frame sent by a driver on this host (tagged, S2, as it leaves the host: {@link NodeContext#send}). */
    public List<Action> originate(Frame f, long now) {
        List<Action> out = new ArrayList<>(2);
        JobTables t = jobOf(f, out);
        if (t != null) {
            node.trace(out, t, f, TraceEvent.Kind.SEND, List.of(), null);
            process(t, f, now, out);
        }
        return out;
    }

    /** The job a frame belongs to; a frame of no job installed here is dropped and counted (S1). */
    private JobTables jobOf(Frame f, List<Action> out) {
        JobKey k = JobKey.of(f.packet().header());
        JobTables t = node.job(k);
        if (t == null) {
            node.drop(out, null, f, DropReason.UNKNOWN_JOB, k);
        }
        return t;
    }

    /** Fires due completion timers: partial results leave (F5). */
    public List<Action> onTimer(long now) {
        List<Action> out = new ArrayList<>();
        for (Emission e : node.table.expire(now)) {
            JobTables t = node.job(e.key().jobKey());
            if (t == null) {
                continue;
            }
            node.count(t, Counter.TIMEOUTS);
            node.trace(
                    out,
                    t,
                    e.key().seq(),
                    TraceEvent.Kind.TIMEOUT,
                    "agg",
                    e.pbm(),
                    List.of(),
                    e.vt(),
                    "missing " + e.missing());
            if (!e.pbm().isEmpty()) {
                apply(emit(t, e, now), out);
            } else if (e.key().tree() == StateKey.Tree.SELF_INSTALLED) {
                // nothing to send, but late contributions may still come through here
                selfInstalled.keepUpstream(t, e.key(), now);
            }
        }
        selfInstalled.forget(now);
        preconfigured.forget(now);
        return out;
    }

    /** The data plane for one frame of job {@code t} (also a partition root's bridge into the second stage, H2). */
    private void process(JobTables t, Frame f, long now, List<Action> out) {
        InaPacket p = f.packet();
        if (p.endpoints().capacity() != t.capacity()) {
            node.drop(out, t, f, DropReason.BITMAP_SIZE, p.endpoints().capacity(), t.capacity());
            return;
        }
        Decision.Drop odd = t.secondStage() == null ? null : oddProvenance(t, t.secondStage(), f);
        if (odd != null) {
            apply(odd, out);
            return;
        }
        PacketType type = p.header().type();
        if (type == PacketType.INC_FORWARD || type == PacketType.INC_REVERSE) {
            apply(t.edge() == null ? inc(t, f, now) : edge.ingress(t, f, now), out);
            return;
        }
        if (f.destination() == null) {
            replicate(t, f, now, out);
            return;
        }
        if (p.header().direction() == Direction.AGGREGATION) {
            StateKey key = keyOf(t, p);
            StateKey self = key.in(StateKey.Tree.SELF_INSTALLED);
            if (selfInstalled.holds(self)) {
                apply(selfInstalled.aggregate(t, f, self, now), out);
                return;
            }
            EndpointSet registered = preconfigured.registeredFor(t, p);
            if (registered != null || node.table.has(key)) {
                offer(preconfigured, t, f, key, registered, contribution(t, f), "contribution", now, out);
                return;
            }
        }
        node.route(t, f, out);
    }

    /** An INC packet into the BIER-INC trees, by its direction. */
    private Decision inc(JobTables t, Frame f, long now) {
        return f.packet().header().type() == PacketType.INC_FORWARD ? inc.forward(t, f) : inc.reverse(t, f, now);
    }

    /**
     * Does what a tree mechanism decided, in order: the one place where a mechanism's decisions
     * become counters, trace events and frames on links.
     */
    private void apply(Decision d, List<Action> out) {
        // the kinds a packet's walk meets most come first (Java 17: no pattern switch yet)
        if (d instanceof Decision.All a) {
            for (Decision step : a.steps()) {
                apply(step, out);
            }
        } else if (d instanceof Decision.Route r) {
            node.route(r.job(), r.frame(), out);
        } else if (d instanceof Decision.Count c) {
            node.count(c.job(), c.counter());
        } else if (d instanceof Decision.Replicate r) {
            replicate(r.job(), r.frame(), r.now(), out);
        } else if (d instanceof Decision.Offer o) {
            offer(o.by(), o.job(), o.frame(), o.key(), o.registered(), o.contribution(), o.what(), o.now(), out);
        } else if (d instanceof Decision.Forward w) {
            node.trace(out, w.job(), w.frame(), TraceEvent.Kind.FORWARD, List.of(w.port()), null);
            node.send(out, w.job(), w.port(), w.frame());
        } else if (d instanceof Decision.Drop x) {
            node.dropText(out, x.job(), x.frame(), x.reason());
        } else if (d instanceof Decision.Deliver v) {
            node.deliver(v.job(), v.frame(), out);
        } else if (d instanceof Decision.PassUp u) {
            node.passUpOrRoute(u.job(), u.frame(), u.parent(), out);
        } else if (d instanceof Decision.Copies c) {
            sendCopies(c.job(), c.frame(), c.copies(), c.via(), out);
        } else if (d instanceof Decision.Send s) {
            node.send(out, s.job(), s.port(), s.frame());
        } else if (d instanceof Decision.Trace r) {
            node.trace(out, r.job(), r.frame(), r.event(), r.to(), r.detail());
        } else if (d instanceof Decision.Note n) {
            node.trace(out, n.job(), n.seq(), n.event(), n.dir(), n.bitmap(), n.to(), n.vt(), n.detail());
        } else if (d instanceof Decision.Enter e) {
            process(e.job(), e.frame(), e.now(), out);
        } else if (d instanceof Decision.Inc i) {
            apply(inc(i.job(), i.frame(), i.now()), out);
        } else {
            throw new IllegalStateException("a decision the engine does not know: " + d);
        }
    }

    /**
     * The aggregation step of every tree mechanism (F2, F4, F5, S5): the table terminates,
     * reduces and completes; what it says is turned into actions here, once, and the
     * mechanism decides only where things go.
     */
    private void offer(
            TreeMechanism m,
            JobTables t,
            Frame f,
            StateKey key,
            EndpointSet registered,
            Contribution c,
            String what,
            long now,
            List<Action> out) {
        InaPacket p = f.packet();
        AggregationTable.Outcome o = node.table.offer(key, registered, c, t.timeoutNanos(), now);
        if (o instanceof AggregationTable.Buffered) {
            node.count(t, Counter.TERMINATED);
            node.trace(out, t, f, TraceEvent.Kind.TERMINATE, List.of(), null);
        } else if (o instanceof AggregationTable.Complete done) {
            node.count(t, Counter.TERMINATED);
            node.count(t, Counter.COMPLETIONS);
            node.trace(out, t, f, TraceEvent.Kind.TERMINATE, List.of(), null);
            node.trace(
                    out,
                    t,
                    key.seq(),
                    TraceEvent.Kind.COMPLETE,
                    "agg",
                    done.emission().pbm(),
                    List.of(),
                    done.emission().vt(),
                    null);
            apply(emit(t, done.emission(), now), out);
        } else if (o instanceof AggregationTable.Duplicate d) {
            if (p.header().has(Flags.RETRANSMIT)) {
                apply(m.retransmitted(t, key, f, d.cached(), now), out);
            } else {
                node.drop(out, t, f, DropReason.DUPLICATE, what);
            }
        } else if (o instanceof AggregationTable.Rejected r) {
            node.dropText(out, t, f, r.reason());
        } else if (o instanceof AggregationTable.Late) {
            node.count(t, Counter.LATE);
            apply(m.late(t, key, f, now), out);
        } else if (o instanceof AggregationTable.Refused r) {
            node.count(t, Counter.REFUSED);
            apply(m.refused(t, key, f, r), out);
        } else {
            apply(m.unmatched(t, key, f), out);
        }
    }

    /** What a frame contributes: its bitmap as the P-BM, its payload. */
    static Contribution contribution(Frame f) {
        InaPacket p = f.packet();
        return new Contribution(
                p.endpoints(),
                p.header().op(),
                p.payload(),
                f.vt(),
                null,
                p.header().has(Flags.CE));
    }

    /** As {@link #contribution(Frame)}; in a second stage (H2) with the job's endpoints it holds. */
    static Contribution contribution(JobTables t, Frame f) {
        InaPacket p = f.packet();
        return new Contribution(
                p.endpoints(),
                p.header().op(),
                p.payload(),
                f.vt(),
                t.secondStage() == null ? null : StageBridge.holds(t.secondStage(), p),
                p.header().has(Flags.CE));
    }

    /**
     * H2: a second-stage packet's provenance names the job's endpoints, inside the partitions its
     * P-BM names (an aggregation) or its destinations' (a result): why not, or null when it does.
     */
    private static Decision.Drop oddProvenance(JobTables t, SecondStage s, Frame f) {
        InaPacket p = f.packet();
        EndpointSet holds = p.provenance();
        if (holds == null) {
            return null;
        }
        if (holds.capacity() != s.jobCapacity()) {
            return Decision.drop(t, f, DropReason.PROVENANCE_SIZE, holds.capacity(), s.jobCapacity());
        }
        if (p.header().direction() == Direction.AGGREGATION && !holds.isSubsetOf(s.expand(p.endpoints()))) {
            return Decision.drop(t, f, DropReason.PROVENANCE_OUTSIDE_PARTITIONS);
        }
        return null;
    }

    /** An aggregation leaves, by the mechanism that holds it. */
    private Decision emit(JobTables t, Emission e, long now) {
        return mechanism(e.key().tree()).emit(t, e, now);
    }

    private TreeMechanism mechanism(StateKey.Tree tree) {
        return switch (tree) {
            case PRECONFIGURED -> preconfigured;
            case SELF_INSTALLED -> selfInstalled;
            case INC -> inc;
            case EDGE -> edge;
        };
    }

    /**
     * The state an aggregation packet belongs to: a self-installed (MoE) tree is scoped by its
     * token source, carried in the header's destination field; a pre-configured one by the job.
     */
    static StateKey keyOf(JobTables t, InaPacket p) {
        PacketType type = p.header().type();
        if (type == PacketType.DATA || type == PacketType.ACK) {
            // reliable multicast: scoped by round (destination field), keyed by window or packet (entropy)
            return new StateKey(
                    t.tenant(), t.job(), p.header().destination(), p.header().entropy());
        }
        long origin = type == PacketType.DISPATCH || type == PacketType.COMBINE
                ? p.header().destination()
                : 0;
        return new StateKey(t.tenant(), t.job(), origin, p.header().seq());
    }

    /**
     * F3: the BIER forwarding step (RFC 8279) for a multicast packet; a branch node of a
     * self-installing multicast installs its C-BM on the way (M2, R2).
     */
    private void replicate(JobTables t, Frame f, long now, List<Action> out) {
        if (t.bift() == null) {
            node.drop(out, t, f, DropReason.NO_BIFT);
            return;
        }
        Replicator.Result r = Replicator.replicate(f.packet().endpoints(), t.bift());
        String via = f.via();
        if (r.isBranch() && SelfInstalledTrees.installs(t, f.packet())) {
            SelfInstalledTrees.Installed installed = selfInstalled.install(t, f, r.cbm(), now);
            apply(installed.decision(), out);
            via = installed.via();
        }
        sendCopies(t, f, r.copies(), via, out);
        if (!r.local().isEmpty()) {
            SecondStage s = t.secondStage();
            if (s != null && s.bridges() && r.local().contains(s.bit())) {
                // H2: the second stage's result at a partition root goes down into its partition
                apply(
                        preconfigured.bridgeDown(
                                t, new Frame(f.packet().withEndpoints(r.local()), null, f.vt(), via), now),
                        out);
            } else {
                node.deliver(t, new Frame(f.packet().withEndpoints(r.local()), null, f.vt(), via), out);
            }
        }
        if (!r.unreachable().isEmpty()) {
            node.drop(out, t, f, DropReason.NO_ROUTE, r.unreachable());
        }
    }

    /** The copies of one BIER step, each with its bitmap and {@code via} as its upstream, counted and traced as one step. */
    private void sendCopies(JobTables t, Frame f, List<Replicator.Copy> copies, String via, List<Action> out) {
        for (Replicator.Copy c : copies) {
            node.send(out, t, c.neighbor(), new Frame(f.packet().withEndpoints(c.bitmap()), null, f.vt(), via));
        }
        if (!copies.isEmpty()) {
            node.count(t, copies.size() > 1 ? Counter.REPLICATED : Counter.FORWARDED);
            node.traceCopies(out, t, f, copies);
        }
    }

    /** S6: from now on this node corrupts the AllReduce sums it emits (the malicious-switch fault); null: honest again. */
    public void tamper(Tamper t) {
        preconfigured.tamper = t;
    }

    /** S6: the packets of one job that failed the checksum audit at this node's ports. */
    public List<ChecksumAudit.Failure> auditFailures(int tenant, int job) {
        ChecksumAudit a = node.audits.get(new JobKey(tenant, job));
        return a == null ? List.of() : a.failures();
    }

    /** The self-installed and INC tree branches installed here for a job, as a union over its phase. */
    public List<ObservedTrees.Branch> observedTrees(int tenant, int job) {
        return observed.of(new JobKey(tenant, job));
    }

    /** Tree branches this node holds for one job (the report's tree entries per switch, B2). */
    public int incTreeCount(int tenant, int job) {
        return inc.count(new JobKey(tenant, job));
    }
}
