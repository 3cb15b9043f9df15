package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Contribution;
import org.bitina.protocol.Emission;
import org.bitina.protocol.Frame;
import org.bitina.protocol.StateKey;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * The parameter-server baseline (A7): a host collects every worker's chunk by unicast,
 * reduces it with the same aggregation state machine the switches use (so timeouts,
 * duplicates and late contributions behave alike), and unicasts the result to each
 * worker: N packets into the server and N out of it per chunk. Under congestion control a result
 * carries the OR of its contributions' ECN marks (CE), as an INA root's does, and the workers run
 * the same AIMD window on it.
 */
public final class PsServer implements EndpointDriver {
    private final AllReducePlan plan;
    private final AggregationTable table;
    private final EndpointSet members;
    /** Every result sent, to fold late contributions in and to resend to a worker that lost one. */
    private final Map<StateKey, Emission> partials = new HashMap<>();

    private int results;
    private long lastVt;

    public PsServer(AllReducePlan plan) {
        this.plan = plan;
        this.members = plan.space().setOf(plan.members());
        this.table = new AggregationTable(Math.max(64, plan.data().window() * 4), 20 * plan.timeoutNanos());
    }

    @Override
    public List<Out> start(long now) {
        return List.of();
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.CONTRIBUTION;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        long vt = frame.vt();
        StateKey key = new StateKey(plan.tenant(), plan.wireJob(), 0, p.header().seq());
        // a marked contribution marks the result, as a switch's aggregate carries its contributions' marks
        Contribution c = new Contribution(
                p.endpoints(),
                p.header().op(),
                p.payload(),
                vt,
                null,
                p.header().has(Flags.CE));
        AggregationTable.Outcome o = table.offer(key, members, c, plan.timeoutNanos(), now);
        if (o instanceof AggregationTable.Complete done) {
            partials.put(key, done.emission());
            return reply(done.emission());
        }
        if (o instanceof AggregationTable.Duplicate && p.header().has(Flags.RETRANSMIT) && partials.containsKey(key)) {
            // the worker lost its result: send it again, to that worker only
            return reply(partials.get(key), plan.space().names(p.endpoints()));
        }
        if (o instanceof AggregationTable.Late) {
            Emission prev = partials.get(key);
            Emission better = prev == null ? null : prev.foldIn(c, now);
            if (better != null) {
                partials.put(key, better);
                return reply(better);
            }
        }
        return List.of();
    }

    @Override
    public List<Out> onTimer(long now) {
        List<Out> out = new ArrayList<>();
        for (Emission e : table.expire(now)) {
            if (!e.pbm().isEmpty()) {
                partials.put(e.key(), e);
                out.addAll(reply(e));
            }
        }
        return out;
    }

    @Override
    public long nextDeadline() {
        return table.nextDeadline();
    }

    private List<Out> reply(Emission e) {
        results++;
        return reply(e, plan.members());
    }

    private List<Out> reply(Emission e, List<String> to) {
        lastVt = Math.max(lastVt, e.vt());
        List<Out> out = new ArrayList<>(to.size());
        for (String m : to) {
            InaHeader h = InaHeader.of(
                            PacketType.UNICAST,
                            plan.tenant(),
                            plan.wireJob(),
                            e.key().seq())
                    .withOp(e.op())
                    .withDestination(plan.space().index(m));
            if (e.congested()) {
                h = h.withFlags(Flags.CE);
            }
            out.add(new Out(new Frame(new InaPacket(h, e.pbm(), e.payload()), m, e.vt()), 0));
        }
        return out;
    }

    @Override
    public boolean done() {
        return true;
    }

    @Override
    public DriverReport report() {
        return DriverReport.of(plan.psHost(), DriverReport.Role.PARAMETER_SERVER)
                .chunks(plan.data().chunks())
                .received(results)
                .lastVt(lastVt)
                .done(true)
                .build();
    }
}
