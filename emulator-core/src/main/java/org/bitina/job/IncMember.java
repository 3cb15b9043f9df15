package org.bitina.job;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A member of a BIER-INC AllReduce (seed 001): the BFIR of its own tree for the chunks it
 * owns (chunk c belongs to member c mod N), a BFER of everyone else's. As BFIR it sends a
 * first forward packet that builds its tree; as BFER, on that packet, it sends its share of
 * the BFIR's chunks in reverse (bitstring = its own bit). The BFIR adds what the network
 * reduced to its own share, broadcasts the result on its tree, and names the BFERs that did
 * not answer (B4) through the result's provenance.
 */
public final class IncMember implements EndpointDriver {
    private static final long SETUP = -1;

    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    private final int index;
    private final AllReduceData data;
    private final EndpointSet all;
    private final EndpointSet others;
    private final EndpointSet[] holds;
    private final boolean[] verified;
    /** As BFIR: per owned chunk, what the reverse direction brought and its sum. */
    private final EndpointSet[] heard;
    private final Payload[] acc;
    private final boolean[] broadcast;
    private final List<String> mismatches = new ArrayList<>();
    private final SplittableRandom jitter;
    private int received;
    private long lastVt;

    public IncMember(AllReducePlan plan, String host) {
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.index = plan.members().indexOf(host);
        this.data = new AllReduceData(plan.data());
        this.all = plan.space().setOf(plan.members());
        this.others = all.andNot(FlatBitmap.of(all.capacity(), bit));
        this.holds = new EndpointSet[data.chunks()];
        this.verified = new boolean[data.chunks()];
        this.heard = new EndpointSet[data.chunks()];
        this.acc = new Payload[data.chunks()];
        this.broadcast = new boolean[data.chunks()];
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
    }

    private boolean owns(int chunk) {
        return chunk % plan.members().size() == index;
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.INC_FORWARD || p.header().type() == PacketType.INC_REVERSE;
    }

    @Override
    public List<Out> start(long now) {
        List<Out> out = new ArrayList<>();
        if (plan.silent().contains(host)) {
            return out;
        }
        if (others.isEmpty()) {
            for (int c = 0; c < data.chunks(); c++) {
                store(c, all, data.payload(bit, c), 0);
            }
            return out;
        }
        // the first forward packet of this BFIR's tree: it builds the tree on its way (B2)
        InaHeader h = InaHeader.of(PacketType.INC_FORWARD, plan.tenant(), plan.wireJob(), SETUP).withSource(bit)
                .withEntropy(plan.wireJob());
        out.add(new Out(new Frame(new InaPacket(h, others, Payload.EMPTY), null, 0), 0));
        return out;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        lastVt = Math.max(lastVt, frame.vt());
        if (p.header().type() == PacketType.INC_FORWARD) {
            int bfir = p.header().source();
            if (p.header().seq() == SETUP) {
                return contribute(bfir, frame.vt());
            }
            int chunk = (int) p.header().seq();
            EndpointSet got = p.provenance() != null ? p.provenance() : all;
            if (chunk >= 0 && chunk < holds.length && (holds[chunk] == null || !got.isSubsetOf(holds[chunk]))) {
                store(chunk, got, p.payload(), frame.vt());
            }
            return List.of();
        }
        return reduced(p, frame.vt());
    }

    /** As a BFER: this member's share of every chunk the BFIR owns, in reverse (B3). */
    private List<Out> contribute(int bfir, long vt) {
        List<Out> out = new ArrayList<>();
        if (plan.silent().contains(host)) {
            return out;
        }
        String bfirHost = plan.space().endpoint(bfir);
        int owner = plan.members().indexOf(bfirHost);
        for (int c = owner; c < data.chunks(); c += plan.members().size()) {
            long delay = 0;
            AllReducePlan.Straggler s = plan.stragglers().get(host);
            if (s != null && s.delays(c)) {
                delay = s.draw(jitter);
            }
            InaHeader h = InaHeader.of(PacketType.INC_REVERSE, plan.tenant(), plan.wireJob(), c).withOp(plan.data().op())
                    .withSource(bit).withDestination(bfir).withEntropy(plan.wireJob());
            out.add(new Out(new Frame(new InaPacket(h, FlatBitmap.of(all.capacity(), bit), data.payload(bit, c)), bfirHost, vt + delay),
                    delay));
        }
        return out;
    }

    /** As the BFIR: what the network reduced for one of its chunks. */
    private List<Out> reduced(InaPacket p, long vt) {
        int chunk = (int) p.header().seq();
        if (chunk < 0 || chunk >= holds.length || !owns(chunk)) {
            mismatches.add("reduction for chunk " + chunk + ", which " + host + " does not own");
            return List.of();
        }
        EndpointSet part = p.endpoints();
        EndpointSet before = heard[chunk] == null ? FlatBitmap.of(all.capacity()) : heard[chunk];
        if (part.isSubsetOf(before) || !part.isSubsetOf(others)) {
            return List.of();
        }
        if (part.intersects(before)) {
            mismatches.add("chunk " + chunk + ": reduction " + part + " overlaps what arrived, " + before);
            return List.of();
        }
        heard[chunk] = before.or(part);
        acc[chunk] = acc[chunk] == null ? p.payload().copy() : add(acc[chunk], p.payload());
        boolean complete = heard[chunk].equals(others);
        if (complete || p.header().has(Flags.PARTIAL) || p.header().has(Flags.LATE) || broadcast[chunk]) {
            return broadcastResult(chunk, vt);
        }
        return List.of();
    }

    private Payload add(Payload a, Payload b) {
        Payload sum = a.copy();
        plan.data().op().apply(sum, b);
        return sum;
    }

    private List<Out> broadcastResult(int chunk, long vt) {
        Payload result = add(acc[chunk], data.payload(bit, chunk));
        EndpointSet with = heard[chunk].or(FlatBitmap.of(all.capacity(), bit));
        boolean complete = with.equals(all);
        broadcast[chunk] = true;
        store(chunk, with, result, vt);
        InaHeader h = InaHeader.of(PacketType.INC_FORWARD, plan.tenant(), plan.wireJob(), chunk).withOp(plan.data().op())
                .withSource(bit).withEntropy(plan.wireJob()).withFlags(complete ? 0 : Flags.PARTIAL);
        // the B4 report: a partial result says whom it holds; the others are the BFERs that did not answer
        InaPacket packet = new InaPacket(h, others, result, complete ? null : with, null);
        return List.of(new Out(new Frame(packet, null, vt), 0));
    }

    private void store(int chunk, EndpointSet got, Payload payload, long vt) {
        if (holds[chunk] == null) {
            received++;
        }
        holds[chunk] = got;
        lastVt = Math.max(lastVt, vt);
        Verifier.Mismatch m = Verifier.check(data, chunk, got, payload);
        verified[chunk] = m == null;
        if (m != null) {
            mismatches.add(String.format("chunk %d element %d: got %s, expected %s (tolerance %s) from %s", m.chunk(), m.index(),
                    m.got(), m.expected(), m.tolerance(), got));
        }
    }

    @Override
    public boolean done() {
        return received == data.chunks();
    }

    @Override
    public DriverReport report() {
        return DriverReport.ofChunks(host, "inc-worker", plan.space(), all, holds, verified, received, mismatches, lastVt, done());
    }
}
