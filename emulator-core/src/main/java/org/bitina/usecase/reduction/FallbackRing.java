package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.EndpointDriver.Out;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
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
 *
 * <p>Loss (L1, as the host ring's per-hop recovery in {@link ScheduleWorker}): the member a ring
 * packet goes to acknowledges it (a unicast with no payload, naming the chunk and what the packet
 * held); an unacknowledged packet goes again, flagged RETRANSMIT, after twice the plan's modelled
 * round trip (the completion timeout without one), doubling each time, at most {@link RecoveryPolicy#RING_SENDS}
 * sends, then the member gives up on that chunk and says so ("no result after ..."). A copy of a
 * packet already taken is acknowledged again and never added twice.
 */
final class FallbackRing {

    private final AllReducePlan plan;
    private final String host;
    private final int bit;
    private final boolean[] joined;
    /** Chunks whose sum came round to this member already (a copy of the all-gather packet is only acknowledged). */
    private final boolean[] gathered;
    /** Ring packets sent and not yet acknowledged, by chunk and phase (reduce, all-gather), in send order. */
    private final Map<Long, Pending> pending = new LinkedHashMap<>();

    /** When a ring packet goes again, and how often ({@link RecoveryPolicy}). */
    private final RecoveryPolicy policy;

    private static final class Pending {
        final Out out;
        final String to;
        int sends = 1;
        long dueAt;

        Pending(Out out, String to, long dueAt) {
            this.out = out;
            this.to = to;
            this.dueAt = dueAt;
        }
    }

    /** A chunk this member gave up on, and why, as the report names it. */
    record GaveUp(int chunk, String why) {}

    /** What the timer did: packets sent again, and the chunks given up on. */
    record Retries(List<Out> out, List<GaveUp> gaveUp) {}

    /** A sum over {@code holds}, as it came round the ring, still encoded. */
    record Result(int chunk, EndpointSet holds, Payload payload) {}

    /** What one ring packet makes this member do: packets to send, a result, or a problem to name. */
    record Step(List<Out> out, Result result, String problem) {}

    FallbackRing(AllReducePlan plan, String host, int chunks) {
        this.plan = plan;
        this.host = host;
        this.bit = plan.space().index(host);
        this.joined = new boolean[chunks];
        this.gathered = new boolean[chunks];
        this.policy = RecoveryPolicy.doubling(
                plan.rttNanos() > 0 ? 2 * plan.rttNanos() : Math.max(1, plan.timeoutNanos()),
                RecoveryPolicy.DOUBLINGS,
                RecoveryPolicy.RING_SENDS,
                plan.recovery());
    }

    private static long key(int chunk, boolean gather) {
        return 2L * chunk + (gather ? 1 : 0);
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
    Step failed(int chunk, EndpointSet holds, Payload mine, long vt, long now) {
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
        return new Step(List.of(send(chunk, me, holds, mine, ring, i, vt, now)), null, null);
    }

    /** A ring packet from the previous member; {@code mine} is this member's contribution to its chunk, as sent. */
    Step onPacket(InaPacket p, Payload mine, long vt, long now) {
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
        boolean gather = held.equals(holds);
        if (p.payload().elementType() == ElementType.NONE) {
            // the next member took what this one sent
            pending.remove(key(chunk, gather));
            return new Step(List.of(), null, null);
        }
        int owner = chunk % ring.size();
        List<Out> out = new ArrayList<>(2);
        out.add(ack(p, ring.get((i - 1 + ring.size()) % ring.size()), vt));
        if (gather) {
            if (gathered[chunk]) {
                return new Step(out, null, null); // a copy: its acknowledgement was lost
            }
            gathered[chunk] = true;
            // all-gather: keep it, pass it on unless the next member is the owner, which has it
            if ((i + 1) % ring.size() != owner) {
                out.add(send(chunk, held, holds, p.payload(), ring, i, vt, now));
            }
            return new Step(out, new Result(chunk, held, p.payload()), null);
        }
        if (held.contains(bit)) {
            return new Step(out, null, "chunk " + chunk + " came back round the fallback ring holding " + held);
        }
        if (joined[chunk]) {
            return new Step(out, null, null); // a copy of what this member added to already: never added twice
        }
        joined[chunk] = true;
        Payload sum = p.payload().copy();
        ReductionOp.SUM.apply(sum, mine);
        EndpointSet after = held.or(FlatBitmap.of(plan.space().capacity(), bit));
        if (after.equals(holds)) {
            gathered[chunk] = true; // the owner: the sum is complete here
        }
        out.add(send(chunk, after, holds, sum, ring, i, vt, now));
        return new Step(out, after.equals(holds) ? new Result(chunk, after, sum) : null, null);
    }

    /** The earliest time an unacknowledged ring packet goes again, or Long.MAX_VALUE. */
    long nextDeadline() {
        long d = Long.MAX_VALUE;
        for (Pending p : pending.values()) {
            d = Math.min(d, p.dueAt);
        }
        return d;
    }

    /** Sends again what is due at {@code now}, at modelled time {@code vt}; gives up after {@link RecoveryPolicy#RING_SENDS} sends. */
    Retries onTimer(long now, long vt) {
        List<Out> out = new ArrayList<>();
        List<GaveUp> gaveUp = new ArrayList<>();
        for (Iterator<Map.Entry<Long, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Pending> e = it.next();
            Pending p = e.getValue();
            if (p.dueAt > now) {
                continue;
            }
            int chunk = (int) (e.getKey() / 2);
            if (policy.exhausted(p.sends)) {
                it.remove();
                gaveUp.add(new GaveUp(
                        chunk,
                        "chunk " + chunk + ": no result after " + p.sends + " sends of its fallback ring packet to "
                                + p.to));
                continue;
            }
            p.sends++;
            p.dueAt = now + policy.after(p.sends);
            InaPacket was = p.out.frame().packet();
            InaPacket again = was.flagged(Flags.RETRANSMIT);
            Frame f = p.out.frame();
            out.add(new Out(new Frame(again, f.destination(), Math.max(vt, f.vt())), 0));
        }
        return new Retries(out, gaveUp);
    }

    private Out send(
            int chunk,
            EndpointSet held,
            EndpointSet holds,
            Payload payload,
            List<String> ring,
            int i,
            long vt,
            long now) {
        String next = ring.get((i + 1) % ring.size());
        InaHeader h = InaHeader.of(PacketType.UNICAST, plan.tenant(), plan.wireJob(), chunk)
                .withOp(ReductionOp.SUM)
                .withSource(bit)
                .withDestination(plan.space().index(next));
        Out out = new Out(new Frame(new InaPacket(h, held, payload, holds.toFlat(), null), next, vt), 0);
        pending.put(key(chunk, held.equals(holds)), new Pending(out, next, now + policy.after(1)));
        return out;
    }

    /** The acknowledgement of a ring packet to the member that sent it: its chunk and what it held, no payload. */
    private Out ack(InaPacket p, String to, long vt) {
        InaHeader h = InaHeader.of(
                        PacketType.UNICAST,
                        plan.tenant(),
                        plan.wireJob(),
                        p.header().seq())
                .withSource(bit)
                .withDestination(plan.space().index(to));
        return new Out(new Frame(new InaPacket(h, p.endpoints(), Payload.EMPTY, p.provenance(), null), to, vt), 0);
    }
}
