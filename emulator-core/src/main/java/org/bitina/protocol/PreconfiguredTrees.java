package org.bitina.protocol;

import java.util.ArrayList;
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
    private final String name;
    private final Map<JobKey, JobTables> jobs;
    private final AggregationTable table;
    /** S6: the malicious-switch fault, when it has struck this node; null on an honest node. */
    Tamper tamper;
    /** At a partition root (H2): the second stage's result as it went down into the partition, to resend to a worker that lost it. */
    private final Map<StateKey, Bridged> bridged = new HashMap<>();
    /** L1: what this node sent lately for a chunk that retransmissions asked about, answering those after it. */
    private final ResendHolds holds = new ResendHolds();

    private record Bridged(InaPacket result, long at, long timeoutNanos) {}

    PreconfiguredTrees(String name, Map<JobKey, JobTables> jobs, AggregationTable table) {
        this.name = name;
        this.jobs = jobs;
        this.table = table;
    }

    /**
     * The pre-configured node bitmap that applies to this packet: under the composed policy
     * the A-BMs serve the bulk round only; the ACKs of a retransmission round meet just the
     * C-BMs their data installed (R2).
     */
    EndpointSet registeredFor(JobTables t, InaPacket p) {
        if (p.header().type() == PacketType.ACK
                && t.dataInstall() == JobTables.DataInstall.RETRANSMISSIONS
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
        InaHeader h = InaHeader.of(PacketType.ACK, t.tenant(), t.job(), e.key().seq())
                .withDestination(round)
                .withEntropy((int) e.key().seq())
                .withFlags(e.partial() ? Flags.PARTIAL : 0);
        return new InaPacket(h, e.pbm(), Payload.EMPTY);
    }

    @Override
    public Decision emit(JobTables t, Emission e, long now) {
        if (isAck(e)) {
            return Decision.all(
                    new Decision.Count(t, e.partial() ? Counter.PARTIAL_ACKS : Counter.ACKS),
                    new Decision.Route(
                            t,
                            new Frame(
                                    ackPacket(t, e, (int) e.key().origin()), t.root() ? name : t.vatParent(), e.vt())));
        }
        if (tamper != null) {
            // the malicious-switch fault (S6): what this node emits is not the sum of what it received
            e = e.withPayload(tamper.apply(e.key().seq(), e.payload()));
        }
        SecondStage stage = t.stage();
        if (t.root() && stage != null && stage.bridges() && t.job() == stage.partitionJob()) {
            return bridgeUp(t, stage, e, now);
        }
        if (!t.root()) {
            return new Decision.Route(t, new Frame(upward(t, e, 0), t.vatParent(), e.vt()));
        }
        // the result cache (L1): kept until no member can still ask (a worker's sends end within 16 timeouts)
        table.cacheResult(e, now + NodeEngine.RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
        return multicastResult(t, e, t.registered());
    }

    /** A VAT node's aggregate as it goes up to its parent, with {@code flags} besides PARTIAL. */
    private static InaPacket upward(JobTables t, Emission e, int flags) {
        InaHeader h = InaHeader.of(
                        PacketType.CONTRIBUTION, t.tenant(), t.job(), e.key().seq())
                .withOp(e.op())
                .withFlags(flags | (e.partial() ? Flags.PARTIAL : 0) | (e.congested() ? Flags.CE : 0));
        return new InaPacket(h, e.pbm(), e.payload(), provenance(t, e.pbm(), e), null);
    }

    /**
     * What an emission says it holds when its P-BM does not: in a second stage (H2), the job's
     * endpoints, when they are fewer than its P-BM's partitions (one of them was partial); else null.
     */
    private static EndpointSet provenance(JobTables t, EndpointSet pbm, Emission e) {
        if (t.secondStage() == null
                || e.holds() == null
                || e.holds().equals(t.secondStage().expand(pbm))) {
            return null;
        }
        return e.holds();
    }

    private static Decision multicastResult(JobTables t, Emission e, EndpointSet to) {
        // in a second stage a result is complete when every partition came, each whole
        EndpointSet inner = provenance(t, t.registered(), e);
        boolean complete = e.pbm().equals(t.registered()) && inner == null;
        InaHeader h = InaHeader.of(
                        PacketType.RESULT, t.tenant(), t.job(), e.key().seq())
                .withOp(e.op())
                .withFlags((complete ? 0 : Flags.PARTIAL) | (e.congested() ? Flags.CE : 0));
        // F6: the root's node bitmap is the multicast bitmap (a resend goes to the workers that asked)
        SecondStage stage = t.secondStage();
        EndpointSet holds =
                complete ? null : stage != null ? (e.holds() != null ? e.holds() : stage.expand(e.pbm())) : e.pbm();
        Decision count = new Decision.Count(t, complete ? Counter.ROOT_COMPLETE : Counter.ROOT_PARTIAL);
        ResultRoute route = t.resultRoute();
        if (!route.byOwner()) {
            InaPacket result = new InaPacket(h, to, e.payload(), holds, null);
            return Decision.all(count, new Decision.Replicate(t, new Frame(result, null, e.vt()), e.emittedAt()));
        }
        // the plan's owner gets the payload; the others a notice that frees their window (ResultRoute)
        EndpointSet owner = route.payloadTo(to, e.key().seq());
        EndpointSet others = to.andNot(owner);
        List<Decision> steps = new ArrayList<>(3);
        steps.add(count);
        if (!owner.isEmpty()) {
            InaPacket result = new InaPacket(h, owner, e.payload(), holds, null);
            steps.add(new Decision.Replicate(t, new Frame(result, null, e.vt()), e.emittedAt()));
        }
        if (!others.isEmpty()) {
            InaPacket notice = new InaPacket(h.withOp(ReductionOp.NONE), others, Payload.EMPTY, holds, null);
            steps.add(new Decision.Replicate(t, new Frame(notice, null, e.vt()), e.emittedAt()));
        }
        return new Decision.All(List.copyOf(steps));
    }

    /**
     * H2: a partition root's aggregate, complete or partial, goes up as its partition's
     * contribution to the second stage ({@link StageBridge#up}), toward its VAT parent there.
     */
    private Decision bridgeUp(JobTables t, SecondStage s, Emission e, long now) {
        JobTables stage = jobs.get(new JobKey(t.tenant(), s.stageJob()));
        InaPacket up = StageBridge.up(s, t.tenant(), e);
        if (stage == null) {
            return Decision.drop(t, new Frame(up, null, e.vt()), DropReason.NO_SECOND_STAGE);
        }
        return Decision.all(
                new Decision.Count(t, Counter.BRIDGED_UP),
                new Decision.Note(
                        t,
                        e.key().seq(),
                        TraceEvent.Kind.FORWARD,
                        "agg",
                        e.pbm(),
                        List.of(s.uplink()),
                        e.vt(),
                        "to the second stage as " + up.endpoints()
                                + (up.provenance() != null ? " holding " + up.provenance() : "")),
                new Decision.Enter(stage, new Frame(up, s.uplink(), e.vt()), now));
    }

    /**
     * H2: the second stage's result reached this partition root (its stage bit is local here):
     * it goes down into the partition ({@link StageBridge#down}), multicast with this root's A-BM.
     */
    Decision bridgeDown(JobTables stage, Frame f, long now) {
        SecondStage s = stage.stage();
        JobTables part = jobs.get(new JobKey(stage.tenant(), s.partitionJob()));
        if (part == null || part.registered() == null) {
            return Decision.drop(stage, f, DropReason.NO_PARTITION_TREE);
        }
        InaPacket down = StageBridge.down(s, part.tenant(), part.registered(), f.packet());
        bridged.put(
                new StateKey(part.tenant(), part.job(), 0, down.header().seq()),
                new Bridged(down, now, part.timeoutNanos()));
        return Decision.all(
                new Decision.Count(stage, Counter.BRIDGED_DOWN),
                new Decision.Replicate(part, new Frame(down, null, f.vt()), now));
    }

    @Override
    public Decision unmatched(JobTables t, StateKey key, Frame f) {
        return new Decision.PassUp(t, f, t.vatParent());
    }

    @Override
    public Decision late(JobTables t, StateKey key, Frame f, long now) {
        InaPacket p = f.packet();
        if (t.root() && p.header().type() == PacketType.ACK) {
            // a late acknowledgment at the source: the bits it brings are news for the sender
            return new Decision.Route(t, new Frame(p, name, f.vt()));
        } else if (t.root()
                && t.stage() != null
                && t.stage().bridges()
                && t.job() == t.stage().partitionJob()) {
            // its partition's aggregate is in the second stage already: it follows, naming whom it holds
            JobTables stage = jobs.get(new JobKey(t.tenant(), t.stage().stageJob()));
            if (stage == null) {
                return Decision.drop(t, f, DropReason.NO_SECOND_STAGE);
            }
            return Decision.all(
                    new Decision.Count(t, Counter.BRIDGED_UP),
                    new Decision.Enter(
                            stage,
                            new Frame(
                                    StageBridge.late(t.stage(), t.tenant(), p),
                                    t.stage().uplink(),
                                    f.vt()),
                            now));
        } else if (t.root()) {
            return foldLate(t, key, f, now);
        } else if (t.vatParent() == null) {
            return Decision.drop(t, f, DropReason.LATE_WITHOUT_UPSTREAM);
        } else {
            return new Decision.Route(t, new Frame(f.flaggedLate().packet(), t.vatParent(), f.vt()));
        }
    }

    /** A contribution that missed the root's partial result: fold it in and send the better result. */
    private Decision foldLate(JobTables t, StateKey key, Frame f, long now) {
        InaPacket p = f.packet();
        long vt = f.vt();
        Emission prev = table.cachedResult(key);
        if (prev == null) {
            return Decision.drop(t, new Frame(p, null, vt), DropReason.LATE_AFTER_FORGETTING);
        }
        Emission better = prev.foldIn(NodeEngine.contribution(t, f), now);
        if (better == null) {
            return Decision.drop(t, new Frame(p, null, vt), DropReason.LATE_MISMATCH);
        }
        table.cacheResult(better, now + NodeEngine.RESULT_MEMORY_TIMEOUTS * t.timeoutNanos());
        return Decision.all(new Decision.Count(t, Counter.LATE_FOLDED), multicastResult(t, better, t.registered()));
    }

    @Override
    public Decision refused(JobTables t, StateKey key, Frame f, AggregationTable.Refused reason) {
        // graceful fallback (S5): pass the contribution on unaggregated toward the parent
        if (t.vatParent() != null) {
            return new Decision.Route(t, new Frame(f.packet(), t.vatParent(), f.vt()));
        }
        return new Decision.Drop(t, f, reason.why(), reason.reason());
    }

    /**
     * A worker that waited too long for a result sends its contribution again (flag
     * RETRANSMIT). Where it was already counted it is not added again: a VAT node passes it
     * up, and the root sends the result it remembers to that worker alone, so a result lost
     * on a link (or a failed one, F7) is recovered without counting anything twice.
     */
    @Override
    public Decision retransmitted(JobTables t, StateKey key, Frame f, Emission known, long now) {
        Bridged down = bridged.get(key);
        if (t.root() && down != null) {
            // a partition root resends the second stage's result as it went down, to the worker that asked
            return Decision.all(
                    new Decision.Count(t, Counter.RESULTS_RESENT),
                    new Decision.Replicate(
                            t,
                            new Frame(down.result().withEndpoints(f.packet().endpoints()), null, f.vt()),
                            down.at()));
        } else if (t.root()
                && t.stage() != null
                && t.stage().bridges()
                && t.job() == t.stage().partitionJob()) {
            return askStage(t, key, f, now);
        } else if (t.root() && t.rootMulticasts() && known != null) {
            EndpointSet asking = f.packet().endpoints();
            long hold = t.resendHoldNanos();
            if (hold > 0 && (now < known.emittedAt() + hold || holds.covers(key, asking, now))) {
                // the result went down to them after they asked: it answers them (ResendHolds)
                return Decision.drop(t, f, DropReason.ANSWERED_DOWN);
            }
            if (hold > 0) {
                holds.sent(key, asking, now, hold);
            }
            return Decision.all(new Decision.Count(t, Counter.RESULTS_RESENT), multicastResult(t, known, asking));
        } else if (table.has(key)) {
            // still being aggregated here: it leaves with the aggregate, alone it would meet that aggregate above
            return Decision.drop(t, f, DropReason.DUPLICATE_RETRANSMISSION);
        } else if (!t.root() && t.vatParent() != null && t.resendHoldNanos() > 0) {
            return resendAggregate(t, key, f, now);
        } else if (!t.root() && t.vatParent() != null) {
            return Decision.all(
                    new Decision.Count(t, Counter.RETRANSMISSIONS_PASSED_UP),
                    new Decision.Route(t, new Frame(f.packet(), t.vatParent(), f.vt())));
        }
        return Decision.drop(t, f, DropReason.RETRANSMISSION_AFTER_FORGETTING);
    }

    /** A root remembers a result long enough for stragglers to be folded in, not forever. */
    void forget(long now) {
        bridged.values().removeIf(b -> now - b.at() > NodeEngine.RESULT_MEMORY_TIMEOUTS * b.timeoutNanos());
        holds.forget(now);
    }

    /**
     * L1: a retransmission (a worker's, or a child's aggregate sent again) of a chunk whose aggregate
     * left this node holding it. This node sends its own aggregate up again, flagged, once a hold:
     * above it, a node still missing it folds it in (it was lost on the way up), one whose aggregate
     * left does the same in turn, and the root answers from its result cache with one multicast to
     * this node's workers. The other requests within the hold are answered by that one
     * ({@link ResendHolds}), so one lost share costs a packet per VAT node instead of a request per
     * worker climbing to the root. Only a node's own whole aggregate goes up: a child's passed up
     * past it could be folded at the root beside this node's, which holds it too (counted twice, so
     * refused as an overlap, and the chunk would stall).
     */
    private Decision resendAggregate(JobTables t, StateKey key, Frame f, long now) {
        Emission sent = table.emitted(key);
        if (sent == null || !f.packet().endpoints().isSubsetOf(sent.pbm())) {
            // its share came late, after the aggregate (the root folded it in): it asks on its own, as before
            return Decision.all(
                    new Decision.Count(t, Counter.RETRANSMISSIONS_PASSED_UP),
                    new Decision.Route(t, new Frame(f.packet(), t.vatParent(), f.vt())));
        }
        long hold = t.resendHoldNanos();
        if (now < sent.emittedAt() + hold || holds.covers(key, f.packet().endpoints(), now)) {
            return Decision.drop(t, f, DropReason.ANSWERED_UP);
        }
        holds.sent(key, sent.pbm(), now, hold);
        if (tamper != null) {
            sent = sent.withPayload(tamper.apply(key.seq(), sent.payload()));
        }
        return Decision.all(
                new Decision.Count(t, Counter.RETRANSMISSIONS_PASSED_UP),
                new Decision.Route(t, new Frame(upward(t, sent, Flags.RETRANSMIT), t.vatParent(), f.vt())));
    }

    /**
     * H2, L1: a worker asks a partition root for a result the second stage has not sent down here (or
     * that was lost on its way down): the partition's aggregate goes up again, flagged, so that the
     * second stage's root answers from its result cache (its VAT nodes pass it up as a duplicate).
     */
    private Decision askStage(JobTables t, StateKey key, Frame f, long now) {
        Emission sent = table.emitted(key);
        JobTables stage = jobs.get(new JobKey(t.tenant(), t.stage().stageJob()));
        if (sent == null || stage == null) {
            return Decision.drop(t, f, DropReason.STAGE_WITHOUT_RESULT);
        }
        InaPacket up = StageBridge.up(t.stage(), t.tenant(), sent);
        up = up.flagged(Flags.RETRANSMIT);
        return Decision.all(
                new Decision.Count(t, Counter.RETRANSMISSIONS_PASSED_UP),
                new Decision.Enter(stage, new Frame(up, t.stage().uplink(), f.vt()), now));
    }
}
