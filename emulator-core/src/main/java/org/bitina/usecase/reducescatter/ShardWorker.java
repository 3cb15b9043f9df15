package org.bitina.usecase.reducescatter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.bitina.protocol.Frame;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.AllReduceWorker;
import org.bitina.wire.ElementType;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * A reduce-scatter member in the network (C1): an AllReduce worker ({@link AllReduceWorker}: window,
 * retransmission, the result cache's answers) whose results are its own shard's chunks (chunk c is
 * member c mod N's), while a notice without payload says a chunk of another's shard is complete.
 * It checks what the root's plan promises: a sum arrives only for its own chunks, a notice only for
 * the others'. Either broken is named and the chunk is not verified.
 */
final class ShardWorker implements EndpointDriver {
    private final AllReduceWorker worker;
    private final int me;
    private final int members;
    private final String host;
    /** Chunks that came the wrong way: another's sum here, or a notice for one of this member's own. */
    private final TreeSet<Long> wrong = new TreeSet<>();

    private final List<String> problems = new ArrayList<>();

    ShardWorker(AllReducePlan plan, String host, AllReduceWorker worker) {
        this.worker = worker;
        this.host = host;
        this.me = plan.members().indexOf(host);
        this.members = plan.members().size();
    }

    boolean owns(long chunk) {
        return chunk >= 0 && chunk <= Integer.MAX_VALUE && RingReduceScatter.owner((int) chunk, members) == me;
    }

    @Override
    public List<Out> start(long now) {
        return worker.start(now);
    }

    @Override
    public boolean accepts(InaPacket p) {
        return worker.accepts(p);
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        if (p.header().type() == PacketType.RESULT) {
            long c = p.header().seq();
            boolean sum = p.payload().elementType() != ElementType.NONE;
            if (sum && !owns(c) && wrong.add(c)) {
                problems.add("chunk " + c + ": the sum of another member's shard reached " + host);
            } else if (!sum && owns(c) && wrong.add(c)) {
                problems.add("chunk " + c + ": " + host + "'s own shard came as a notice without its sum");
            }
        }
        return worker.onDeliver(frame, now);
    }

    @Override
    public long nextDeadline() {
        return worker.nextDeadline();
    }

    @Override
    public List<Out> onTimer(long now) {
        return worker.onTimer(now);
    }

    @Override
    public List<Out> onRoutingChange(long now) {
        return worker.onRoutingChange(now);
    }

    @Override
    public List<Out> onRetree(Map<String, String> uplinks, List<String> cutOff, long now) {
        return worker.onRetree(uplinks, cutOff, now);
    }

    @Override
    public boolean done() {
        return worker.done();
    }

    @Override
    public DriverReport report() {
        DriverReport r = worker.report();
        if (problems.isEmpty()) {
            return r;
        }
        List<String> mismatches = new ArrayList<>(r.mismatches());
        mismatches.addAll(problems);
        return r.toBuilder()
                .mismatches(List.copyOf(mismatches))
                .verifiedChunks(Math.max(0, r.verifiedChunks() - wrong.size()))
                .build();
    }
}
