package org.bitina.usecase.multicast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
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

/**
 * A receiver of a reliable multicast (R1, R4, R5): keeps each packet once (a retransmitted
 * or duplicated copy is never handed to the application twice), checks every packet
 * against the source's data and the whole block against its CRC32, and acknowledges with
 * an empty-payload ACK whose bitmap is its own bit: per packet, or per window once it
 * holds the whole window. ACKs climb the pre-configured tree toward the receiver's VAT
 * parent, or the self-installed one toward the branch node the data named.
 */
public final class MulticastReceiver implements EndpointDriver {
    private final MulticastPlan plan;
    private final String host;
    private final int bit;
    private final SplittableRandom jitter;
    private final MulticastData data;
    private final int[][] held;
    private final Set<Long> ackedWindowRounds = new HashSet<>();
    private final List<String> errors = new ArrayList<>();
    private int delivered;
    private long duplicates;
    private long acks;
    /** Under congestion control: data that arrived ECN-marked, whether an ACK has yet to say so, CNPs sent. */
    private long marked;

    private boolean markedSinceAck;
    private long lastCnp = Long.MIN_VALUE / 2;
    private long cnps;

    public MulticastReceiver(MulticastPlan plan, String host) {
        this.plan = plan;
        this.host = host;
        this.bit = plan.receivers().index(host);
        this.jitter = new SplittableRandom(plan.params().seed() ^ bit);
        this.data = new MulticastData(plan.params());
        this.held = new int[plan.params().packets()][];
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.DATA && p.endpoints().contains(bit);
    }

    @Override
    public List<Out> start(long now) {
        return List.of();
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        if (plan.silent().contains(host)) {
            return List.of();
        }
        InaPacket p = frame.packet();
        int seq = (int) p.header().seq();
        int round = p.header().destination();
        if (seq < 0 || seq >= held.length || !(p.payload() instanceof Payload.Int32 words)) {
            errors.add("data packet " + seq + " is not part of the block");
            return List.of();
        }
        if (!Arrays.equals(words.values(), data.packet(seq))) {
            errors.add("data packet " + seq + " differs from the source's");
            return List.of();
        }
        if (p.header().has(Flags.CE)) {
            markedSinceAck = true; // the next ACK carries a CNP
            marked++;
        }
        if (held[seq] == null) {
            held[seq] = words.values();
            delivered++;
        } else {
            duplicates++; // suppressed: the application sees each packet once (R5)
        }
        int window = seq / plan.params().window();
        if (!plan.params().perWindow()) {
            return List.of(ack(seq, round, seq, frame));
        }
        int from = window * plan.params().window();
        int to = Math.min(held.length, from + plan.params().window());
        for (int s = from; s < to; s++) {
            if (held[s] == null) {
                return List.of();
            }
        }
        // one ACK per window and round, once the whole window is here
        if (!ackedWindowRounds.add(((long) window << 20) | round)) {
            return List.of();
        }
        return List.of(ack(window, round, window, frame));
    }

    private Out ack(long seq, int round, int key, Frame data) {
        InaHeader h = InaHeader.of(PacketType.ACK, plan.tenant(), plan.wireJob(), seq)
                .withDestination(round)
                .withEntropy(key)
                .withSource(bit);
        if (plan.congestion() != null
                && markedSinceAck
                && data.vt() - lastCnp >= plan.congestion().cnpNanos()) {
            // the notification point: this ACK carries a CNP; an ACK tree ORs it into what reaches the source
            h = h.withFlags(Flags.CE);
            markedSinceAck = false;
            lastCnp = data.vt();
            cnps++;
        }
        InaPacket ack = new InaPacket(h, FlatBitmap.of(plan.receivers().capacity(), bit), Payload.EMPTY);
        String to = !plan.aggregated()
                ? plan.source()
                : plan.selfInstalled(round)
                        ? (data.via() != null ? data.via() : plan.source())
                        : plan.uplink().get(host);
        acks++;
        // a straggling receiver acknowledges late
        Straggler straggler = plan.stragglers().get(host);
        long delay = straggler == null ? 0 : straggler.draw(jitter);
        return new Out(new Frame(ack, to, data.vt() + delay), delay);
    }

    /** The whole block, in order, or null while anything is missing. */
    private boolean complete() {
        return delivered == held.length;
    }

    @Override
    public boolean done() {
        return true;
    }

    @Override
    public DriverReport report() {
        List<String> mismatches = new ArrayList<>(errors);
        int verified = 0;
        if (complete()) {
            CRC32 crc = new CRC32();
            for (int[] w : held) {
                MulticastData.update(crc, w);
            }
            if (crc.getValue() == data.checksum()) {
                verified = held.length;
            } else {
                mismatches.add("block checksum " + Long.toHexString(crc.getValue()) + " differs from the source's");
            }
        }
        return DriverReport.of(host, DriverReport.Role.RECEIVER)
                .chunks(held.length)
                .received(delivered)
                .mismatches(mismatches)
                .verifiedChunks(verified)
                .done(complete())
                .stats(stats())
                .build();
    }

    private Map<String, Long> stats() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("duplicatesSuppressed", duplicates);
        out.put("acksSent", acks);
        out.put("deliveredBytes", (long) delivered * plan.params().packetBytes());
        if (plan.congestion() != null) {
            out.put("ecnMarked", marked);
            out.put("cnpsSent", cnps);
        }
        return out;
    }
}
