package org.bitina.protocol;

import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;

/**
 * An INA packet as it travels between devices: the packet, the underlay destination node
 * (the VAT parent or root an aggregation packet is routed toward, the host of a unicast
 * baseline packet; null for a BIER multicast, which is replicated by its bitmap), its
 * modelled time in nanoseconds, and {@code via}: on a self-installing multicast (MoE
 * dispatch), the last node upstream that installed a C-BM (or the source), which is where
 * the reverse-direction packets of that tree are sent, so that the combine climbs the very
 * tree the dispatch built (seed 000 section 4) whatever the unicast routing would choose.
 */
public record Frame(InaPacket packet, String destination, long vt, String via) {
    public Frame(InaPacket packet, String destination, long vt) {
        this(packet, destination, vt, null);
    }

    public Frame withVt(long t) {
        return new Frame(packet, destination, t, via);
    }

    public Frame withPacket(InaPacket p) {
        return new Frame(p, destination, vt, via);
    }

    public Frame withVia(String v) {
        return new Frame(packet, destination, vt, v);
    }

    /** This frame flagged LATE: it missed the aggregation it was for and goes on outside it. */
    Frame flaggedLate() {
        return new Frame(packet.flagged(Flags.LATE), destination, vt, via);
    }
}
