package org.bitina.wire;

/** Bits of the header's flags byte. Unknown bits are rejected by the codec. */
public final class Flags {
    private Flags() {}

    /** The packet carries a partial result: its bitmap names exactly what it holds (F5). */
    public static final int PARTIAL = 0x01;
    /** The packet is a retransmission (reliable multicast, R3). */
    public static final int RETRANSMIT = 0x02;
    /** A 16-byte authentication tag follows the payload (S2). Set by the codec. */
    public static final int AUTH = 0x04;
    /** The last chunk, window or token group of an operation. */
    public static final int LAST = 0x08;
    /** A contribution that arrived after its aggregation already left (see the late policy). */
    public static final int LATE = 0x10;

    /**
     * A provenance bitmap follows the endpoint set: on a multicast result whose payload
     * holds fewer contributions than its destinations (a partial result, F5), it names the
     * contributions it holds. Set by the codec.
     */
    public static final int PROVENANCE = 0x20;

    /**
     * Congestion experienced. On a data packet, set by a switch whose egress queue ECN-marked it (any
     * packet but an ACK may be marked: RoCE sends ACKs and CNPs in a class no switch marks); on an ACK,
     * set by the receiver: the ACK carries a congestion notification (a CNP, as HPCC's ns-3 RoCE model
     * flags its ACKs). A switch may change it, so the S2 tag of a packet other than an ACK leaves it out.
     */
    public static final int CE = 0x40;

    public static final int KNOWN = PARTIAL | RETRANSMIT | AUTH | LAST | LATE | PROVENANCE | CE;

    /** Whether a switch may mark a packet of type {@code t} (set {@link #CE} on it). */
    public static boolean ecnCapable(PacketType t) {
        return t != PacketType.ACK;
    }

    public static String describe(int flags) {
        StringBuilder sb = new StringBuilder();
        if ((flags & PARTIAL) != 0) sb.append("P");
        if ((flags & RETRANSMIT) != 0) sb.append("R");
        if ((flags & AUTH) != 0) sb.append("A");
        if ((flags & LAST) != 0) sb.append("L");
        if ((flags & LATE) != 0) sb.append("T");
        if ((flags & PROVENANCE) != 0) sb.append("V");
        if ((flags & CE) != 0) sb.append("C");
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
