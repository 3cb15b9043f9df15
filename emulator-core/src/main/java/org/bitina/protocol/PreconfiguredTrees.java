package org.bitina.protocol;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * Pre-configured trees (seed 000 sections 3 and 5): A-BMs the control plane installs on the
 * VAT nodes of a job. A node sends a completed or partial aggregation to its VAT parent; the
 * root multicasts the result with its A-BM as the bitmap (A5, F6), remembers it for a while
 * to fold late contributions in and to answer a worker that lost it. An aggregated
 * acknowledgment of a pre-configured ACK tree goes up the same way (R1, R2).
 */
final class PreconfiguredTrees implements TreeMechanism {
    private final NodeEngine engine;
    private final NodeContext node;
    /** At a root: the last result sent for a key, to fold late contributions in and to resend it to a worker that lost it. */
    private final Map<StateKey, Emission> rootResults = new HashMap<>();

    PreconfiguredTrees(NodeEngine engine, NodeContext node) {
        this.engine = engine;
        this.node = node;
    }

    /**
     * The pre-configured node bitmap that applies to this packet: under the composed policy
     * the A-BMs serve the bulk round only; the ACKs of a retransmission round meet just the
     * C-BMs their data installed (R2).
     */
    EndpointSet registeredFor(JobTables t, InaPacket p) {
        if (p.header().type() == PacketType.ACK && t.dataInstall() == JobTables.DataInstall.RETRANSMISSIONS
                && p.header().destination() > 0) {
            return null;
        }
        return t.registered();
    }

    /** An aggregated acknowledgment carries no payload: its bitmap is the acknowledgment (R1). */
    static boolean isAck(Emission e) {
        return e.payload().elementType() == ElementType.NONE && e.op() == ReductionOp.NONE;
    }

    /** The ACK packet an aggregated acknowledgment leaves as: the round in the destination field, the key in the entropy. */
    static InaPacket ackPacket(JobTables t, Emission e, int round) {
        InaHeader h = InaHeader.of(PacketType.ACK, t.tenant(), t.job(), e.key().seq()).withDestination(round)
                .withEntropy((int) e.key().seq()).withFlags(e.partial() ? Flags.PARTIAL : 0);
        return new InaPacket(h, e.pbm(), Payload.EMPTY);
    }

    @Override
    public void emit(JobTables t, Emission e, long now, List<NodeEngine.Action> out) {
        if (isAck(e)) {
            node.count(t, e.partial() ? Counter.PARTIAL_ACKS : Counter.ACKS);
            node.route(t, new Frame(ackPacket(t, e, (int) e.key().origin()), t.root() ? node.name : t.vatParent(), e.vt()), out);
            return;
        }
        if (node.tamper != null) {
            // the malicious-switch fault (S6): what this node emits is not the sum of what it received
            e = new Emission(e.key(), e.nodeBitmap(), e.pbm(), e.op(), node.tamper.apply(e.key().seq(), e.payload()), e.partial(),
                    e.firstArrival(), e.emittedAt(), e.vt());
        }
        if (!t.root()) {
            InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                    .withFlags(e.partial() ? Flags.PARTIAL : 0);
            node.route(t, new Frame(new InaPacket(h, e.pbm(), e.payload()), t.vatParent(), e.vt()), out);
            return;
        }
        rootResults.put(e.key(), e);
        multicastResult(t, e, t.registered(), out);
    }

    private void multicastResult(JobTables t, Emission e, EndpointSet to, List<NodeEngine.Action> out) {
        boolean complete = e.pbm().equals(t.registered());
        InaHeader h = InaHeader.of(PacketType.RESULT, t.tenant(), t.job(), e.key().seq()).withOp(e.op())
                .withFlags(complete ? 0 : Flags.PARTIAL);
        // F6: the root's node bitmap is the multicast bitmap (a resend goes to the workers that asked)
        InaPacket result = new InaPacket(h, to, e.payload(), complete ? null : e.pbm(), null);
        node.count(t, complete ? Counter.ROOT_COMPLETE : Counter.ROOT_PARTIAL);
        engine.replicate(t, new Frame(result, null, e.vt()), e.emittedAt(), out);
    }

    @Override
    public void unmatched(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out) {
        node.passUpOrRoute(t, f, t.vatParent(), out);
    }

    @Override
    public void late(JobTables t, StateKey key, Frame f, long now, List<NodeEngine.Action> out) {
        InaPacket p = f.packet();
        if (t.root() && p.header().type() == PacketType.ACK) {
            // a late acknowledgment at the source: the bits it brings are news for the sender
            node.route(t, new Frame(p, node.name, f.vt()), out);
        } else if (t.root()) {
            foldLate(t, key, p, f.vt(), now, out);
        } else if (t.vatParent() == null) {
            node.drop(out, t, f, "late contribution with no node upstream to take it");
        } else {
            node.route(t, new Frame(NodeContext.late(f).packet(), t.vatParent(), f.vt()), out);
        }
    }

    /** A contribution that missed the root's partial result: fold it in and send the better result. */
    private void foldLate(JobTables t, StateKey key, InaPacket p, long vt, long now, List<NodeEngine.Action> out) {
        Emission prev = rootResults.get(key);
        if (prev == null) {
            node.drop(out, t, new Frame(p, null, vt), "late contribution after the result was forgotten");
            return;
        }
        Emission better = prev.foldIn(new Contribution(p.endpoints(), p.header().op(), p.payload(), vt), now);
        if (better == null) {
            node.drop(out, t, new Frame(p, null, vt), "late payload does not match the result");
            return;
        }
        rootResults.put(key, better);
        node.count(t, Counter.LATE_FOLDED);
        multicastResult(t, better, t.registered(), out);
    }

    @Override
    public void refused(JobTables t, StateKey key, Frame f, String reason, List<NodeEngine.Action> out) {
        // graceful fallback (S5): pass the contribution on unaggregated toward the parent
        if (t.vatParent() != null) {
            node.route(t, new Frame(f.packet(), t.vatParent(), f.vt()), out);
        } else {
            node.drop(out, t, f, reason);
        }
    }

    /**
     * A worker that waited too long for a result sends its contribution again (flag
     * RETRANSMIT). Where it was already counted it is not added again: a VAT node passes it
     * up, and the root sends the result it remembers to that worker alone, so a result lost
     * on a link (or a failed one, F7) is recovered without counting anything twice.
     */
    @Override
    public void retransmitted(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out) {
        Emission known = rootResults.get(key);
        if (t.root() && t.rootMulticasts() && known != null) {
            node.count(t, Counter.RESULTS_RESENT);
            multicastResult(t, known, f.packet().endpoints(), out);
        } else if (!t.root() && t.vatParent() != null && node.table.has(key)) {
            // still being aggregated here: it leaves with the aggregate, alone it would meet that aggregate above
            node.drop(out, t, f, "duplicate retransmission: the aggregation open here carries it");
        } else if (!t.root() && t.vatParent() != null) {
            node.count(t, Counter.RETRANSMISSIONS_PASSED_UP);
            node.route(t, new Frame(f.packet(), t.vatParent(), f.vt()), out);
        } else {
            node.drop(out, t, f, "retransmitted contribution after the result was forgotten");
        }
    }

    /** A root remembers a result long enough for stragglers to be folded in, not forever. */
    void forget(long now) {
        rootResults.values().removeIf(e -> {
            JobTables t = node.job(e.key().jobKey());
            return t == null || now - e.emittedAt() > NodeEngine.RESULT_MEMORY_TIMEOUTS * t.timeoutNanos();
        });
    }
}
