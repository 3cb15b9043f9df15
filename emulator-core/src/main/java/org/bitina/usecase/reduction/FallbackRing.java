package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.EndpointDriver.Out;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * S6 fallback (seed 000 section 8: "fall back to host-based reduction on a mismatch"): the host
 * ring (as {@link RingSchedule} runs it), for one chunk whose network result failed its checksum, among the
 * members that result held (H, carried as the packets' provenance, so that every member knows the
 * ring without being told). Chunk c's owner is H's member c mod |H| in member order; the member
 * after it starts the ring when it finds the result failed (every member finds it: the root
 * multicasts one result to all); each member adds its contribution, as it sent it into the
 * network (masked, with its checksum), once; the owner adds the last and sends the sum round
 * the ring (all-gather). Packets are unicast host to host: switches forward them and never
 * aggregate them. Pure; a worker runs one.
 */
final class FallbackRing {
    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    private final boolean[] joined;

    /** A sum over {@code holds}, as it came round the ring, still encoded. */
    record Result(int chunk, EndpointSet holds, Payload payload) {}

    /** What one ring packet makes this member do: packets to send, a result, or a problem to name. */
    record Step(List<Out> out, Result result, String problem) {}

    FallbackRing(AllReducePlan plan, String host, int chunks) {
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.joined = new boolean[chunks];
    }

    private List<String> ring(EndpointSet holds) {
        return plan.members().stream()
                .filter(m -> holds.contains(plan.space().index(m)))
                .toList();
    }

    /**
     * This member found chunk {@code chunk}'s result, holding {@code holds}, failing its checksum;
     * {@code mine} is its contribution as sent. Starts the ring when this member is its starter.
     */
    Step failed(int chunk, EndpointSet holds, Payload mine, long vt) {
        List<String> ring = ring(holds);
        int i = ring.indexOf(host);
        if (i < 0) {
            return new Step(List.of(), null, null); // a result this member is not in: the others' ring
        }
        int owner = chunk % ring.size();
        if (i != (owner + 1) % ring.size() || joined[chunk]) {
            return new Step(List.of(), null, null);
        }
        joined[chunk] = true;
        EndpointSet me = FlatBitmap.of(plan.space().capacity(), bit);
        if (ring.size() == 1) {
            return new Step(List.of(), new Result(chunk, me, mine), null);
        }
        return new Step(List.of(send(chunk, me, holds, mine, ring, i, vt)), null, null);
    }

    /** A ring packet from the previous member; {@code mine} is this member's contribution to its chunk, as sent. */
    Step onPacket(InaPacket p, Payload mine, long vt) {
        int chunk = (int) p.header().seq();
        EndpointSet holds = p.provenance();
        EndpointSet held = p.endpoints();
        List<String> ring = holds == null ? List.of() : ring(holds);
        int i = ring.indexOf(host);
        if (i < 0 || chunk < 0 || chunk >= joined.length || !held.isSubsetOf(holds)) {
            return new Step(
                    List.of(),
                    null,
                    "a fallback packet for chunk " + chunk + " holding " + held + " of " + holds
                            + ", which is not this member's ring");
        }
        int owner = chunk % ring.size();
        List<Out> out = new ArrayList<>(1);
        if (held.equals(holds)) {
            // all-gather: keep it, pass it on unless the next member is the owner, which has it
            if ((i + 1) % ring.size() != owner) {
                out.add(send(chunk, held, holds, p.payload(), ring, i, vt));
            }
            return new Step(out, new Result(chunk, held, p.payload()), null);
        }
        if (held.contains(bit) || joined[chunk]) {
            return new Step(List.of(), null, "chunk " + chunk + " came back round the fallback ring holding " + held);
        }
        joined[chunk] = true;
        Payload sum = p.payload().copy();
        ReductionOp.SUM.apply(sum, mine);
        EndpointSet now = held.or(FlatBitmap.of(plan.space().capacity(), bit));
        out.add(send(chunk, now, holds, sum, ring, i, vt));
        return new Step(out, now.equals(holds) ? new Result(chunk, now, sum) : null, null);
    }

    private Out send(
            int chunk, EndpointSet held, EndpointSet holds, Payload payload, List<String> ring, int i, long vt) {
        String next = ring.get((i + 1) % ring.size());
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), chunk)
                .withOp(ReductionOp.SUM)
                .withSource(bit)
                .withDestination(plan.space().index(next));
        return new Out(new Frame(new InaPacket(h, held, payload, holds.toFlat(), null), next, vt), 0);
    }
}
