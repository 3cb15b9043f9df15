package org.bitina.protocol;

import org.bitina.wire.InaPacket;

/**
 * An INA packet as it travels between devices: the packet, the underlay destination node
 * (the VAT parent or root an aggregation packet is routed toward, the host of a unicast
 * baseline packet; null for a BIER multicast, which is replicated by its bitmap) and its
 * modelled time in nanoseconds.
 */
public record Frame(InaPacket packet, String destination, long vt) {
    public Frame withVt(long t) {
        return new Frame(packet, destination, t);
    }
}
