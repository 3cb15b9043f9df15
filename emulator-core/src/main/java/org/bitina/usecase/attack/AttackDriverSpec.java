package org.bitina.usecase.attack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.security.AttackSpec;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.References;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * A hostile endpoint beside an honest worker or receiver on its host (the scenario's
 * {@code attacks}): at the attack's modelled time it sends the packets of its kind into the
 * INA phase of its job.
 * It waits for nothing and verifies nothing; the honest jobs must end verified, and the
 * attack's packets must be counted drops with their reason.
 *
 * @param root where its aggregation packets are addressed (the VAT root, or the multicast source), as
 *             an honest endpoint's go up the tree
 * @param data the AllReduce job's array (null for a multicast)
 */
public record AttackDriverSpec(
        AttackSpec attack,
        String host,
        int tenant,
        int wireJob,
        BitSpace space,
        List<String> members,
        String root,
        DataSpec data)
        implements DriverSpec {

    @Override
    public JobPlan plan() {
        return JobPlan.of(tenant, wireJob);
    }

    @Override
    public EndpointDriver create(References references) {
        return new Attacker(this);
    }

    /** The packets one attack sends (pure: the same attack, the same packets). */
    List<InaPacket> packets() {
        int own = space.index(host);
        if (attack.kind() == AttackSpec.Kind.SPOOFED_ACK) {
            // the ACK of the first window's first packet (its key is 0 per window and per packet alike), round 0
            int[] bits = new int[attack.as().size() + 1];
            bits[0] = own;
            for (int i = 0; i < attack.as().size(); i++) {
                bits[i + 1] = space.index(attack.as().get(i));
            }
            InaHeader ack = InaHeader.of(PacketType.ACK, tenant, wireJob, 0)
                    .withDestination(0)
                    .withEntropy(0)
                    .withSource(own);
            return List.of(new InaPacket(ack, FlatBitmap.of(space.capacity(), bits), Payload.EMPTY));
        }
        int len = Math.min(data.chunk(), data.elements());
        Payload zeros = data.type() == ElementType.INT32 ? Payload.of(new int[len]) : Payload.of(new float[len]);
        InaHeader contribution =
                InaHeader.of(PacketType.CONTRIBUTION, tenant, wireJob, 0).withOp(data.op());
        List<InaPacket> out = new ArrayList<>();
        switch (attack.kind()) {
            case FORGED_MAC ->
                out.add(new InaPacket(
                                InaHeader.of(PacketType.CONTRIBUTION, tenant, wireJob, 1)
                                        .withOp(data.op()),
                                FlatBitmap.of(space.capacity(), own),
                                zeros)
                        .withAuthTag(new byte[InaPacket.AUTH_TAG_BYTES]));
            case REPLAY -> out.add(new InaPacket(contribution, FlatBitmap.of(space.capacity(), own), zeros));
            case SPOOF_BITS -> {
                int[] bits = new int[attack.as().size() + 1];
                bits[0] = own;
                for (int i = 0; i < attack.as().size(); i++) {
                    bits[i + 1] = space.index(attack.as().get(i));
                }
                out.add(new InaPacket(contribution, FlatBitmap.of(space.capacity(), bits), zeros));
            }
            case NON_MEMBER_BITS -> {
                for (int i = 0; i < space.capacity(); i++) {
                    if (space.endpoint(i) != null && !members.contains(space.endpoint(i))) {
                        out.add(new InaPacket(contribution, FlatBitmap.of(space.capacity(), i), zeros));
                        break;
                    }
                }
            }
            case AMPLIFY ->
                out.add(new InaPacket(
                        InaHeader.of(PacketType.RESULT, tenant, wireJob, 0).withOp(data.op()),
                        FlatBitmap.full(space.capacity()),
                        zeros));
            case FOREIGN_JOB ->
                out.add(new InaPacket(
                        InaHeader.of(PacketType.CONTRIBUTION, (tenant + 1) & 0xFFFF, wireJob, 0)
                                .withOp(data.op()),
                        FlatBitmap.of(space.capacity(), own),
                        zeros));
            // numbers past the job's chunks, each new: every one would open an aggregation entry; every other
            // one flagged as a retransmission, which the anti-replay window lets by
            case SOFT_STATE_FLOOD, RATE_FLOOD -> {
                for (int i = 0; i < attack.count(); i++) {
                    InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, tenant, wireJob, data.chunks() + i)
                            .withOp(data.op());
                    out.add(new InaPacket(
                            i % 2 == 1 ? h.withFlags(Flags.RETRANSMIT) : h,
                            FlatBitmap.of(space.capacity(), own),
                            zeros));
                }
            }
        }
        return out;
    }

    /** The attacker's driver: its packets leave once, at the attack's time. */
    private static final class Attacker implements EndpointDriver {
        private final AttackDriverSpec spec;
        private int sent;

        Attacker(AttackDriverSpec spec) {
            this.spec = spec;
        }

        @Override
        public List<Out> start(long now) {
            long delay = spec.attack().at().toNanos();
            List<Out> out = new ArrayList<>();
            for (InaPacket p : spec.packets()) {
                // a result is replicated by its bitmap; the rest go up toward the root, as a worker's do
                String to = p.header().type() == PacketType.RESULT ? null : spec.root();
                out.add(new Out(new Frame(p, to, now + delay), delay));
                sent++;
            }
            return out;
        }

        @Override
        public boolean accepts(InaPacket packet) {
            return false;
        }

        @Override
        public List<Out> onDeliver(Frame frame, long now) {
            return List.of();
        }

        @Override
        public boolean done() {
            return true;
        }

        @Override
        public DriverReport report() {
            return DriverReport.of(spec.host(), DriverReport.Role.ATTACKER)
                    .chunks(sent)
                    .done(true)
                    .stats(Map.of("attackPackets", (long) sent))
                    .build();
        }
    }

    /** The endpoint set of the attacker's own bit, for tests. */
    EndpointSet own() {
        return FlatBitmap.of(space.capacity(), space.index(host));
    }
}
