package org.bitina.protocol;

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
    private final NodeContext node;
    /** For each installed C-BM, the node upstream of this branch, where the aggregate goes. */
    private final Map<StateKey, String> upstream = new HashMap<>();
    /** When an emitted entry's upstream may be forgotten (late contributions still need it until then). */
    private final Map<StateKey, Long> upstreamUntil = new HashMap<>();

    SelfInstalledTrees(NodeEngine engine, NodeContext node) {
        this.node = node;
    }

    /** Whether a multicast packet installs a C-BM at a branch node: a dispatch always, data as the policy says (R2). */
    static boolean installs(JobTables t, InaPacket p) {
        return switch (p.header().type()) {
            case DISPATCH -> true;
            case DATA -> t.dataInstall() == JobTables.DataInstall.ALWAYS
                    || (t.dataInstall() == JobTables.DataInstall.RETRANSMISSIONS && p.header().has(Flags.RETRANSMIT));
            default -> false;
        };
    }

    /** Whether this node holds (or recently held) a C-BM for the key. */
    boolean holds(StateKey key) {
        return upstream.containsKey(key) || node.table.has(key);
    }

    /**
     * A branch node of a dispatch installs the C-BM as soft state (M2) and remembers its
     * upstream; downstream copies then name this node as theirs. Past the job's quota it
     * installs nothing and the aggregates pass through unaggregated. Returns the node the
     * downstream copies name as their upstream.
     */
    String install(JobTables t, Frame f, EndpointSet cbm, long now, List<NodeEngine.Action> out) {
        StateKey key = NodeEngine.keyOf(t, f.packet()).in(StateKey.Tree.SELF_INSTALLED);
        AggregationTable.Refused refused = node.table.install(key, cbm, t.timeoutNanos(), now, f.vt());
        if (refused != null) {
            node.count(t, Counter.REFUSED);
            node.drop(out, t, f, "C-BM not installed: " + refused.reason());
            return f.via();
        }
        upstream.put(key, f.via() != null ? f.via() : node.name);
        node.count(t, Counter.INSTALLS);
        node.trace(out, t, key.seq(), "install", "mcast", cbm, List.of(), f.vt(), "C-BM for source " + key.origin());
        return node.name;
    }

    @Override
    public void emit(JobTables t, Emission e, long now, List<NodeEngine.Action> out) {
        String up = upstream.get(e.key());
        keepUpstream(t, e.key(), now);
        if (PreconfiguredTrees.isAck(e)) {
            node.count(t, e.partial() ? Counter.PARTIAL_ACKS : Counter.ACKS);
            node.route(t, new Frame(PreconfiguredTrees.ackPacket(t, e), up, e.vt()), out);
            return;
        }
        // the combine climbs the dispatch tree (M3)
        InaHeader h = InaHeader.of(PacketType.COMBINE, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                .withDestination((int) e.key().origin()).withFlags(e.partial() ? Flags.PARTIAL : 0);
        node.route(t, new Frame(new InaPacket(h, e.pbm(), e.payload()), up, e.vt()), out);
    }

    /** After an entry left (or timed out empty), late contributions still need its upstream for a while. */
    void keepUpstream(JobTables t, StateKey key, long now) {
        if (upstream.containsKey(key)) {
            upstreamUntil.put(key, now + NodeEngine.RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
        }
    }

    @Override
    public void unmatched(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out) {
        node.passUpOrRoute(t, f, upstream.get(key), out);
    }

    @Override
    public void late(JobTables t, StateKey key, Frame f, long now, List<NodeEngine.Action> out) {
        String parent = upstream.get(key);
        if (parent == null) {
            node.drop(out, t, f, "late contribution with no node upstream to take it");
        } else {
            node.route(t, new Frame(NodeContext.late(f).packet(), parent, f.vt()), out);
        }
    }

    @Override
    public void refused(JobTables t, StateKey key, Frame f, String reason, List<NodeEngine.Action> out) {
        String parent = upstream.get(key);
        if (parent != null && !parent.equals(node.name)) {
            node.route(t, new Frame(f.packet(), parent, f.vt()), out);
        } else {
            node.drop(out, t, f, reason);
        }
    }

    @Override
    public void retransmitted(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out) {
        node.drop(out, t, f, "retransmitted contribution: this branch keeps no result to resend");
    }

    /** Forgets upstreams whose time is up and whose entry has gone. */
    void forget(long now) {
        upstreamUntil.entrySet().removeIf(u -> {
            if (u.getValue() <= now && !node.table.has(u.getKey())) {
                upstream.remove(u.getKey());
                return true;
            }
            return false;
        });
    }
}
