package org.bitina.usecase.moe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Straggler;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * An expert (E1, M1, M3): applies its feed-forward network to every token of a dispatch,
 * pre-multiplies each output by the token's gating weight for this expert, and sends the
 * outputs back with P-BM = its own bit: in INA mode as a COMBINE toward the nearest branch
 * node upstream (or the source), in the all-to-all baseline by unicast to the source.
 */
public final class MoeExpert implements EndpointDriver {
    private final MoePlan plan;
    private final String name;
    private final String host;
    private final int bit;
    private final MoeModel model;
    private final SplittableRandom jitter;
    private int answered;
    private final List<String> errors = new ArrayList<>();

    /** A driver alone, with model weights of its own. */
    public MoeExpert(MoePlan plan, String name) {
        this(plan, name, new HashMap<>());
    }

    /** @param weights the seeded model weights the drivers of this run and JVM share */
    public MoeExpert(MoePlan plan, String name, Map<String, float[][]> weights) {
        this.plan = plan;
        this.name = name;
        this.bit = plan.experts().index(name);
        this.host = plan.experts().node(bit);
        this.model = new MoeModel(
                plan.params().seed(), plan.experts().capacity(), plan.params().hidden(), weights);
        this.jitter = new SplittableRandom(plan.params().seed() ^ bit);
    }

    @Override
    public boolean accepts(InaPacket p) {
        boolean dispatch = p.header().type() == PacketType.DISPATCH
                || (p.header().type() == PacketType.UNICAST && p.header().source() < 0);
        return dispatch && p.endpoints().contains(bit);
    }

    @Override
    public List<Out> start(long now) {
        return List.of();
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        if (plan.silent().contains(host)) {
            return List.of();
        }
        MoePayload.Dispatch d;
        try {
            d = MoePayload.parseDispatch(
                    ((Payload.Float32) p.payload()).values(), plan.params().hidden());
        } catch (IllegalArgumentException | ClassCastException e) {
            errors.add("dispatch " + p.header().seq() + ": " + e.getMessage());
            return List.of();
        }
        int rank = -1;
        for (int i = 0; i < d.experts().length; i++) {
            if (d.experts()[i] == bit) {
                rank = i;
            }
        }
        if (rank < 0) {
            errors.add("dispatch " + p.header().seq() + " carries no weight for " + name);
            return List.of();
        }
        int h = plan.params().hidden();
        float[] out = new float[d.hidden().length * h];
        for (int t = 0; t < d.hidden().length; t++) {
            System.arraycopy(model.weightedOutput(bit, d.gates()[t][rank], d.hidden()[t]), 0, out, t * h, h);
        }
        answered++;
        long delay = 0;
        Straggler s = plan.stragglers().get(host);
        if (s != null) {
            delay = s.draw(jitter);
        }
        int sourceIndex = p.header().destination();
        PacketType type = plan.ina() ? PacketType.COMBINE : PacketType.UNICAST;
        InaHeader header = InaHeader.of(
                        type, plan.tenant(), plan.wireJob(), p.header().seq())
                .withOp(ReductionOp.SUM)
                .withSource(bit)
                .withDestination(sourceIndex)
                // an answer to a re-dispatch says so: a branch that sent this expert's output up already passes it on;
                // under congestion control it echoes its dispatch's ECN mark, as a parameter server's result does
                .withFlags(p.header().flags() & (Flags.RETRANSMIT | (plan.congestionControl() ? Flags.CE : 0)));
        InaPacket reply = new InaPacket(header, FlatBitmap.of(plan.experts().capacity(), bit), Payload.of(out));
        String to =
                plan.ina() && frame.via() != null ? frame.via() : plan.sources().get(sourceIndex);
        return List.of(new Out(new Frame(reply, to, frame.vt() + delay), delay));
    }

    @Override
    public boolean done() {
        return true;
    }

    @Override
    public DriverReport report() {
        return DriverReport.of(name, DriverReport.Role.EXPERT)
                .chunks(answered)
                .received(answered)
                .mismatches(List.copyOf(errors))
                .verifiedChunks(answered)
                .done(true)
                .build();
    }
}
