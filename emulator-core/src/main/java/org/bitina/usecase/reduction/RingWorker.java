package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Straggler;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * The host ring AllReduce baseline (A7): members form a ring in bit order. Chunk c is owned
 * by member c mod N. Reduce-scatter: the owner's successor sends its chunk to its own
 * successor, and each member adds its contribution and passes it on, until the owner adds
 * the last one; all-gather: the owner sends the reduced chunk around the ring. Every chunk
 * crosses 2(N-1) ring links, all chunks at once; the packet's bitmap names the
 * contributions it holds, so a member tells the two phases apart by whether it is full.
 */
public final class RingWorker implements EndpointDriver {
    private final Verifier verifier;
    private final ValueGuard guard;
    /** S6: chunks whose sum came round failing its checksum (no fallback below the ring: they are mismatches). */
    private final List<Long> failed = new ArrayList<>();

    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    private final int index;
    private final String successor;
    private final AllReduceData data;
    private final EndpointSet full;
    private final boolean[] have;
    private final List<String> mismatches = new ArrayList<>();
    private final SplittableRandom jitter;
    private int received;
    private int verified;
    private long lastVt;
    private final CompletionTimes times;

    /** A driver alone, checking against references of its own. */
    public RingWorker(AllReducePlan plan, String host) {
        this(plan, host, new Verifier());
    }

    public RingWorker(AllReducePlan plan, String host, Verifier verifier) {
        this(plan, host, verifier, null);
    }

    /** @param endpointSecret what the job's endpoints share for S6: the ring carries masked, checksummed values too */
    public RingWorker(AllReducePlan plan, String host, Verifier verifier, byte[] endpointSecret) {
        this.verifier = verifier;
        this.guard = new ValueGuard(plan, endpointSecret);
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.index = plan.members().indexOf(host);
        this.successor = plan.members().get((index + 1) % plan.members().size());
        this.data = new AllReduceData(plan.data());
        this.times = new CompletionTimes(data.chunks());
        this.full = plan.space().setOf(plan.members());
        this.have = new boolean[data.chunks()];
        this.jitter = new SplittableRandom(plan.seed() ^ bit);
    }

    private int owner(int chunk) {
        return chunk % plan.members().size();
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.UNICAST;
    }

    @Override
    public List<Out> start(long now) {
        List<Out> out = new ArrayList<>();
        int n = plan.members().size();
        for (int c = 0; c < data.chunks(); c++) {
            if (n == 1) {
                store(c, FlatBitmap.of(plan.space().capacity(), bit), mine(c), 0);
            } else if ((owner(c) + 1) % n == index && !plan.silent().contains(host)) {
                out.add(send(c, FlatBitmap.of(plan.space().capacity(), bit), mine(c), 0));
            }
        }
        return out;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        long vt = frame.vt();
        int chunk = (int) p.header().seq();
        if (chunk < 0 || chunk >= have.length) {
            mismatches.add("ring packet for unknown chunk " + chunk);
            return List.of();
        }
        List<Out> out = new ArrayList<>(1);
        EndpointSet holds = p.endpoints();
        boolean silent = plan.silent().contains(host);
        if (holds.equals(full)) {
            // all-gather: keep it, pass it on unless the successor is the owner (it has it)
            store(chunk, holds, p.payload(), vt);
            if (owner(chunk) != (index + 1) % plan.members().size() && !silent) {
                out.add(send(chunk, holds, p.payload(), vt));
            }
            return out;
        }
        if (holds.contains(bit)) {
            mismatches.add("chunk " + chunk + " came back round the ring holding " + holds);
            return out;
        }
        if (silent) {
            return out;
        }
        Payload sum = p.payload().copy();
        plan.data().op().apply(sum, mine(chunk));
        EndpointSet now2 = holds.or(FlatBitmap.of(plan.space().capacity(), bit));
        if (now2.equals(full)) {
            store(chunk, now2, sum, vt);
        }
        out.add(send(chunk, now2, sum, vt));
        return out;
    }

    /** This member's contribution as it goes on the wire (masked and checksummed under S6). */
    private Payload mine(int chunk) {
        return guard.encode(bit, chunk, data.payload(bit, chunk));
    }

    private void store(int chunk, EndpointSet holds, Payload payload, long vt) {
        if (have[chunk]) {
            return;
        }
        have[chunk] = true;
        times.done(chunk, vt);
        received++;
        lastVt = Math.max(lastVt, vt);
        Payload clear = guard.decode(chunk, holds, payload);
        if (clear == null) {
            mismatches.add("chunk " + chunk + ": the ring's sum failed its checksum");
            failed.add((long) chunk);
            return;
        }
        Verifier.Mismatch m = verifier.check(data, chunk, holds, clear);
        if (m == null) {
            verified++;
        } else {
            mismatches.add(m.toString());
        }
    }

    private Out send(int chunk, EndpointSet holds, Payload payload, long vt) {
        long delay = 0;
        Straggler s = plan.stragglers().get(host);
        if (s != null && s.delays(chunk)) {
            delay = s.draw(jitter);
        }
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), chunk)
                .withOp(plan.data().op())
                .withSource(bit)
                .withDestination(plan.space().index(successor));
        return new Out(new Frame(new InaPacket(h, holds, payload), successor, vt + delay), delay);
    }

    @Override
    public boolean done() {
        return received == data.chunks();
    }

    @Override
    public DriverReport report() {
        DriverReport r = new DriverReport(
                        host,
                        DriverReport.Role.RING_WORKER,
                        data.chunks(),
                        received,
                        List.of(),
                        List.copyOf(mismatches),
                        lastVt,
                        verified,
                        done(),
                        List.of(),
                        Map.of())
                .withUnitTimes(times);
        ValueSecurity v = plan.values() == null ? ValueSecurity.OFF : plan.values();
        return v.any()
                ? r.withValues(new DriverReport.ValueChecks(v.masking(), v.checksum(), List.copyOf(failed), List.of()))
                : r;
    }
}
