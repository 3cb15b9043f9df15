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

    public static final int KNOWN = PARTIAL | RETRANSMIT | AUTH | LAST | LATE | PROVENANCE;

    public static String describe(int flags) {
        StringBuilder sb = new StringBuilder();
        if ((flags & PARTIAL) != 0) sb.append("P");
        if ((flags & RETRANSMIT) != 0) sb.append("R");
        if ((flags & AUTH) != 0) sb.append("A");
        if ((flags & LAST) != 0) sb.append("L");
        if ((flags & LATE) != 0) sb.append("T");
        if ((flags & PROVENANCE) != 0) sb.append("V");
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
