package org.bitina.usecase.bierinc;

import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.EndpointDriver.Out;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * The packets one BIER-INC member sends (B1): forward packets as an owner (BFIR-id = its
 * bit, communicator = the job id in the entropy field), reverse packets as a contributor
 * (BFIR-id = the owner's bit as destination, bitstring = its own bit).
 */
final class IncPackets {
    private final IncPlan plan;
    private final AllReducePlan base;
    private final AllReduceData data;
    private final int bit;
    private final int wireBit;
    /** Behind a leaf the bitstring names the leaf; this provenance says which member sent it (B6). */
    private final EndpointSet provenance;

    IncPackets(IncPlan plan, AllReduceData data, String host, EndpointSet me) {
        this.plan = plan;
        this.base = plan.base();
        this.data = data;
        this.bit = base.space().index(host);
        this.wireBit = plan.wireBit(host);
        this.provenance = plan.leafEdge() ? me : null;
    }

    /** Down the owner's tree; {@code last}: the result is final (complete, or settled by the owner). */
    Out forward(
            long seq,
            EndpointSet bits,
            Payload payload,
            EndpointSet provenance,
            boolean retransmit,
            boolean last,
            long vt) {
        InaHeader h = InaHeader.of(PacketType.INC_FORWARD, base.tenant(), base.wireJob(), seq)
                .withOp(base.data().op())
                .withSource(wireBit)
                .withEntropy(base.wireJob())
                .withFlags((retransmit ? Flags.RETRANSMIT : 0) | (last ? Flags.LAST : 0));
        return new Out(new Frame(new InaPacket(h, bits, payload, provenance, null), null, vt), 0);
    }

    /** This member's share of a chunk, in reverse toward its owner, after a straggler's {@code delay}. */
    Out share(int chunk, boolean retransmit, long delay, long vt) {
        String owner = plan.owner(chunk);
        InaPacket p = new InaPacket(
                reverse(chunk, owner, retransmit).withOp(base.data().op()),
                FlatBitmap.of(plan.wire().capacity(), wireBit),
                data.payload(bit, chunk),
                provenance,
                null);
        return new Out(new Frame(p, owner, vt + delay), delay);
    }

    /** Broadcast: a member without a chunk says so in reverse, with no payload; the owner sends it again. */
    Out nack(int chunk, long vt) {
        String owner = plan.owner(chunk);
        return new Out(
                new Frame(
                        new InaPacket(
                                reverse(chunk, owner, true),
                                FlatBitmap.of(plan.wire().capacity(), wireBit),
                                Payload.EMPTY,
                                provenance,
                                null),
                        owner,
                        vt),
                0);
    }

    private InaHeader reverse(int chunk, String owner, boolean retransmit) {
        return InaHeader.of(PacketType.INC_REVERSE, base.tenant(), base.wireJob(), chunk)
                .withSource(bit)
                .withDestination(plan.wireBit(owner))
                .withEntropy(base.wireJob())
                .withFlags(retransmit ? Flags.RETRANSMIT : 0);
    }
}
