package org.bitina.protocol;

import org.bitina.wire.Direction;
import org.bitina.wire.InaPacket;

/**
 * Optional switch realism (off by default): a fixed per-packet processing delay before egress,
 * and an adder of finite rate. A packet travelling toward a root (contribution, combine,
 * INC reduction) with B payload bytes occupies the adder for B*8/rate; the adder serves one
 * at a time, so aggregations arriving back to back queue. What the switch sends in reply
 * leaves when the adder is done with the packet, plus the processing delay. With both zero,
 * every time is returned unchanged, so the figures stay those of a free switch.
 */
public final class SwitchTiming {
    /**
     * @param processingNanos           per-packet delay between arrival and egress; 0: none
     * @param aggregationBitsPerSecond the adder's rate; 0: unlimited (an aggregation takes no time)
     */
    public record Spec(long processingNanos, double aggregationBitsPerSecond) {
        public static final Spec FREE = new Spec(0, 0);

        public Spec {
            if (processingNanos < 0 || aggregationBitsPerSecond < 0 || Double.isNaN(aggregationBitsPerSecond)) {
                throw new IllegalArgumentException("switch processing and aggregation rate must not be negative: "
                        + processingNanos + " ns, " + aggregationBitsPerSecond + " bps");
            }
        }

        public boolean free() {
            return processingNanos == 0 && aggregationBitsPerSecond == 0;
        }

        /** How long the adder is busy with {@code bytes} payload bytes: rounded up, so a nonzero sum is never free. */
        public long addNanos(int bytes) {
            if (aggregationBitsPerSecond == 0 || bytes <= 0) {
                return 0;
            }
            return (long) Math.ceil(bytes * 8e9 / aggregationBitsPerSecond);
        }
    }

    private final Spec spec;
    /** Modelled time from which the adder is free. */
    private long adderFreeAt;

    public SwitchTiming(Spec spec) {
        this.spec = spec;
    }

    public Spec spec() {
        return spec;
    }

    /** When the adder has finished with packet {@code p} arriving at modelled time {@code vt}: {@code vt} if it adds nothing. */
    public long added(long vt, InaPacket p) {
        int bytes = p.header().type().direction() == Direction.AGGREGATION
                ? p.payload().byteSize()
                : 0;
        long busy = spec.addNanos(bytes);
        if (busy == 0) {
            return vt;
        }
        long start = Math.max(vt, adderFreeAt);
        adderFreeAt = start + busy;
        return adderFreeAt;
    }

    /** When a packet the switch has ready at modelled time {@code vt} leaves. */
    public long egress(long vt) {
        return vt + spec.processingNanos;
    }

    /** A new phase starts at modelled time 0: the adder is free. */
    public void reset() {
        adderFreeAt = 0;
    }
}
