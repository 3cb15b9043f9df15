package org.bitina.topology;

/**
 * Properties of a link, the same in both directions.
 *
 * @param latencyNanos  one-way propagation latency, modelled time
 * @param bandwidthBps  bits per second, for serialisation delay in modelled time
 * @param mtu           largest packet in bytes
 * @param loss          probability in [0, 1) that a packet is lost on this link
 * @param bufferBytes   egress buffer per direction: the bytes that may wait behind the packet on
 *                      the wire (drop-tail, T3); {@link #UNLIMITED} for none
 * @param ecnThresholdBytes a packet that joins an egress queue holding more bytes than this (itself
 *                      included) may be ECN-marked (T3; RED's kmin); {@link #UNLIMITED}: no marking
 * @param ecnMaxBytes   above this depth every packet is marked (RED's kmax); between the two a packet
 *                      is marked with a probability rising linearly to {@code ecnMaxProbability}. Equal
 *                      to the threshold: a step, every packet above it marked (the {@code ecn-threshold} key)
 * @param ecnMaxProbability RED's pmax: the marking probability just below {@code ecnMaxBytes}
 */
public record LinkSpec(
        long latencyNanos,
        long bandwidthBps,
        int mtu,
        double loss,
        long bufferBytes,
        long ecnThresholdBytes,
        long ecnMaxBytes,
        double ecnMaxProbability) {
    /** No buffer limit: every packet queues, however long the queue (the default). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public static final LinkSpec DEFAULT = new LinkSpec(1_000, 100_000_000_000L, 4096, 0.0);

    public LinkSpec {
        if (latencyNanos < 0
                || bandwidthBps <= 0
                || mtu < 64
                || !(loss >= 0 && loss < 1)
                || bufferBytes < 0
                || ecnThresholdBytes < 0
                || ecnMaxBytes < ecnThresholdBytes
                || !(ecnMaxProbability > 0 && ecnMaxProbability <= 1)) {
            throw new IllegalArgumentException("bad link spec: latency " + latencyNanos + "ns, bandwidth "
                    + bandwidthBps + "bps, mtu " + mtu + ", loss " + loss + ", buffer " + bufferBytes
                    + ", ecn-threshold "
                    + ecnThresholdBytes + ", ecn-max " + ecnMaxBytes + ", pmax " + ecnMaxProbability);
        }
    }

    /** A link that marks every packet joining a queue deeper than {@code ecnThresholdBytes} (a step). */
    public LinkSpec(
            long latencyNanos, long bandwidthBps, int mtu, double loss, long bufferBytes, long ecnThresholdBytes) {
        this(latencyNanos, bandwidthBps, mtu, loss, bufferBytes, ecnThresholdBytes, ecnThresholdBytes, 1.0);
    }

    /** A link that marks nothing. */
    public LinkSpec(long latencyNanos, long bandwidthBps, int mtu, double loss, long bufferBytes) {
        this(latencyNanos, bandwidthBps, mtu, loss, bufferBytes, UNLIMITED);
    }

    /** A link with an unlimited buffer. */
    public LinkSpec(long latencyNanos, long bandwidthBps, int mtu, double loss) {
        this(latencyNanos, bandwidthBps, mtu, loss, UNLIMITED);
    }

    /** This link without a buffer limit and without ECN marking (a host's NIC: both are the switches'). */
    public LinkSpec unbuffered() {
        return new LinkSpec(latencyNanos, bandwidthBps, mtu, loss);
    }

    public boolean bufferLimited() {
        return bufferBytes != UNLIMITED;
    }

    /** This link marking with RED between {@code kmin} and {@code kmax} bytes, up to probability {@code pmax}. */
    public LinkSpec withRed(long kmin, long kmax, double pmax) {
        return new LinkSpec(latencyNanos, bandwidthBps, mtu, loss, bufferBytes, kmin, kmax, pmax);
    }

    /**
     * The probability that a packet joining a queue of {@code queuedBytes} (itself included) is marked:
     * 0 up to the threshold, rising linearly to {@code ecnMaxProbability} at {@code ecnMaxBytes}, 1 above.
     */
    public double markProbability(long queuedBytes) {
        if (queuedBytes <= ecnThresholdBytes) {
            return 0;
        }
        if (queuedBytes > ecnMaxBytes) {
            return 1;
        }
        return ecnMaxProbability * (queuedBytes - ecnThresholdBytes) / (double) (ecnMaxBytes - ecnThresholdBytes);
    }

    /** Whether packets that join a deep queue are ECN-marked (and counted) here. */
    public boolean ecnMarking() {
        return ecnThresholdBytes != UNLIMITED;
    }

    /** Serialisation time of {@code bytes} on this link, in nanoseconds (rounded up). */
    public long serializationNanos(long bytes) {
        return -Math.floorDiv(-(bytes * 8L * 1_000_000_000L), bandwidthBps);
    }
}
