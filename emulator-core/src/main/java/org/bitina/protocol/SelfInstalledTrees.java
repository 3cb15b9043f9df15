package org.bitina.protocol;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * Self-installed trees (seed 000 sections 4 and 5): a branch node of a MoE dispatch, or of
 * reliable-multicast data under the self-installed or composed policy, installs the C-BM
 * (the union of the subsets it sends downstream) as soft state with a completion timeout
 * (M2, R2) and remembers the node upstream of the branch. The combine (M3) or the
 * aggregated ACK then climbs exactly the tree the multicast built, whatever the unicast
 * routing would choose.
 */
final class SelfInstalledTrees implements TreeMechanism {
    private final String name;
    private final AggregationTable table;
    private final ObservedTrees observed;
    /**
     * Per key, the C-BM of each branch installed here. With ECMP a node can receive one packet
     * in several copies from several upstream nodes, each with other bits: each copy is a
     * branch of its own, with its own entry and upstream (its index is packed into the entry's
     * origin, here only).
     */
    private final Map<StateKey, List<EndpointSet>> branches = new HashMap<>();
    /** For each branch's entry, the node upstream of it, where the aggregate goes. */
    private final Map<StateKey, String> upstream = new HashMap<>();
    /** When an emitted entry's upstream may be forgotten (late contributions still need it until then). */
    private final Map<StateKey, Long> upstreamUntil = new HashMap<>();

    SelfInstalledTrees(String name, AggregationTable table, ObservedTrees observed) {
        this.name = name;
        this.table = table;
        this.observed = observed;
    }

    /** What installing a C-BM came to: the node the downstream copies name as their upstream, and what to do about it. */
    record Installed(String via, Decision decision) {}

    /** The entry of branch {@code i} of a key: the branch in the origin's upper half. */
    private static StateKey branchKey(StateKey key, int i) {
        return new StateKey(
                key.tenant(),
                key.job(),
                StateKey.Tree.SELF_INSTALLED,
                ((long) i << 32) | (key.origin() & 0xFFFFFFFFL),
                key.seq());
    }

    /** The origin the packets carry (the round, the MoE source), without the branch. */
    private static int origin(StateKey branchKey) {
        return (int) branchKey.origin();
    }

    /** Whether a multicast packet installs a C-BM at a branch node: a dispatch always, data as the policy says (R2). */
    static boolean installs(JobTables t, InaPacket p) {
        return switch (p.header().type()) {
            case DISPATCH -> true;
            case DATA ->
                t.dataInstall() == JobTables.DataInstall.ALWAYS
                        || (t.dataInstall() == JobTables.DataInstall.RETRANSMISSIONS
                                && p.header().has(Flags.RETRANSMIT));
            default -> false;
        };
    }

    /** Whether this node holds (or recently held) a C-BM for the key. */
    boolean holds(StateKey key) {
        return branches.containsKey(key);
    }

    /** An aggregate of a self-installed tree: into the entry of the branch whose C-BM holds its bits. */
    Decision aggregate(JobTables t, Frame f, StateKey key, long now) {
        List<EndpointSet> cbms = branches.get(key);
        int at = 0;
        for (int i = 0; i < cbms.size(); i++) {
            if (f.packet().endpoints().intersects(cbms.get(i))) {
                at = i;
                break;
            }
        }
        return new Decision.Offer(
                this, t, f, branchKey(key, at), null, NodeEngine.contribution(f), "contribution", now);
    }

    /**
     * A branch node of a dispatch installs the C-BM as soft state (M2) and remembers its
     * upstream; downstream copies then name this node as theirs. Past the job's quota it
     * installs nothing and the aggregates pass through unaggregated. Returns the node the
     * downstream copies name as their upstream, with what the install asks of the node.
     */
    Installed install(JobTables t, Frame f, EndpointSet cbm, long now) {
        StateKey base = NodeEngine.keyOf(t, f.packet()).in(StateKey.Tree.SELF_INSTALLED);
        List<EndpointSet> cbms = branches.getOrDefault(base, List.of());
        for (EndpointSet b : cbms) {
            if (b.intersects(cbm)) {
                // another packet of the same window, or a copy: the branch it belongs to is installed already
                return new Installed(name, Decision.NOTHING);
            }
        }
        int index = cbms.size();
        StateKey key = branchKey(base, index);
        AggregationTable.Refused refused = table.install(key, cbm, t.timeoutNanos(), now, f.vt());
        if (refused != null) {
            return new Installed(
                    f.via(),
                    Decision.all(
                            new Decision.Count(t, Counter.REFUSED),
                            Decision.drop(t, f, DropReason.CBM_NOT_INSTALLED, refused.reason())));
        }
        branches.computeIfAbsent(base, k -> new ArrayList<>(1)).add(cbm);
        upstream.put(key, f.via() != null ? f.via() : name);
        observed.installed(t.key(), ObservedTrees.Mechanism.C_BM, upstream.get(key), cbm);
        Decision installed = Decision.all(
                new Decision.Count(t, Counter.INSTALLS),
                new Decision.Note(
                        t,
                        key.seq(),
                        TraceEvent.Kind.INSTALL,
                        "mcast",
                        cbm,
                        List.of(),
                        f.vt(),
                        "C-BM for source " + origin(key) + (index == 0 ? "" : ", branch " + (index + 1))));
        return new Installed(name, installed);
    }

    @Override
    public Decision emit(JobTables t, Emission e, long now) {
        String up = upstream.get(e.key());
        keepUpstream(t, e.key(), now);
        if (PreconfiguredTrees.isAck(e)) {
            return Decision.all(
                    new Decision.Count(t, e.partial() ? Counter.PARTIAL_ACKS : Counter.ACKS),
                    new Decision.Route(t, new Frame(PreconfiguredTrees.ackPacket(t, e, origin(e.key())), up, e.vt())));
        }
        // the combine climbs the dispatch tree (M3)
        InaHeader h = InaHeader.of(
                        PacketType.COMBINE, t.tenant(), t.job(), e.key().seq())
                .withOp(e.op())
                .withDestination(origin(e.key()))
                // the combine carries its answers' ECN marks up, as an aggregate does its contributions'
                .withFlags((e.partial() ? Flags.PARTIAL : 0) | (e.congested() ? Flags.CE : 0));
        return new Decision.Route(t, new Frame(new InaPacket(h, e.pbm(), e.payload()), up, e.vt()));
    }

    /** After an entry left (or timed out empty), late contributions still need its upstream for a while. */
    void keepUpstream(JobTables t, StateKey key, long now) {
        if (upstream.containsKey(key)) {
            upstreamUntil.put(key, now + NodeEngine.RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
        }
    }

    @Override
    public Decision unmatched(JobTables t, StateKey key, Frame f) {
        return new Decision.PassUp(t, f, upstream.get(key));
    }

    @Override
    public Decision late(JobTables t, StateKey key, Frame f, long now) {
        String parent = upstream.get(key);
        if (parent == null) {
            return Decision.drop(t, f, DropReason.LATE_WITHOUT_UPSTREAM);
        }
        return new Decision.Route(t, new Frame(f.flaggedLate().packet(), parent, f.vt()));
    }

    @Override
    public Decision refused(JobTables t, StateKey key, Frame f, AggregationTable.Refused reason) {
        String parent = upstream.get(key);
        if (parent != null && !parent.equals(name)) {
            return new Decision.Route(t, new Frame(f.packet(), parent, f.vt()));
        }
        return new Decision.Drop(t, f, reason.why(), reason.reason());
    }

    @Override
    public Decision retransmitted(JobTables t, StateKey key, Frame f, Emission cached, long now) {
        String parent = upstream.get(key);
        if (table.has(key)) {
            return Decision.drop(t, f, DropReason.DUPLICATE_RETRANSMISSION);
        }
        if (parent == null || parent.equals(name)) {
            return Decision.drop(t, f, DropReason.BRANCH_WITHOUT_RESULT);
        }
        // L1: what left here was lost above: the answer to a re-dispatch goes on up unchanged, and the
        // node above takes it where it is news (a live entry lacking it, or late), never twice
        return Decision.all(
                new Decision.Count(t, Counter.RETRANSMISSIONS_PASSED_UP),
                new Decision.Route(t, new Frame(f.packet(), parent, f.vt())));
    }

    /** Forgets upstreams whose time is up and whose entry has gone. */
    void forget(long now) {
        upstreamUntil.entrySet().removeIf(u -> {
            if (u.getValue() <= now && !table.has(u.getKey())) {
                upstream.remove(u.getKey());
                forgetKeyWhenNoBranchIsLeft(u.getKey());
                return true;
            }
            return false;
        });
    }

    /** A key goes when none of its branches is remembered any more: checked as a branch goes, not at every tick. */
    private void forgetKeyWhenNoBranchIsLeft(StateKey branch) {
        StateKey base =
                new StateKey(branch.tenant(), branch.job(), StateKey.Tree.SELF_INSTALLED, origin(branch), branch.seq());
        List<EndpointSet> cbms = branches.get(base);
        if (cbms == null) {
            return;
        }
        for (int i = 0; i < cbms.size(); i++) {
            if (upstream.containsKey(branchKey(base, i))) {
                return;
            }
        }
        branches.remove(base);
    }
}
