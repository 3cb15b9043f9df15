package org.bitina.wire;

/**
 * What an INA packet is, with its wire code and the one direction it may travel in. A
 * header whose direction bit disagrees with its type is malformed.
 */
public enum PacketType {
    /** AllReduce: a worker's (or subtree's) chunk travelling toward the VAT root. */
    CONTRIBUTION(1, Direction.AGGREGATION),
    /** AllReduce: the root's result, multicast with its A-BM. */
    RESULT(2, Direction.MULTICAST),
    /** MoE: a token group multicast to its D-BM. */
    DISPATCH(3, Direction.MULTICAST),
    /** MoE: weighted expert outputs travelling back toward the source. */
    COMBINE(4, Direction.AGGREGATION),
    /** Reliable multicast: a data packet to the receiver bitmap. */
    DATA(5, Direction.MULTICAST),
    /** Reliable multicast: an acknowledgment; the bitmap is the acknowledgment. */
    ACK(6, Direction.AGGREGATION),
    /** BIER-INC: forward packet on the INC-forward BIFT (seed 001). */
    INC_FORWARD(7, Direction.MULTICAST),
    /** BIER-INC: reduction packet on the INC-reverse BIFT (seed 001). */
    INC_REVERSE(8, Direction.AGGREGATION),
    /** Baselines: a point-to-point packet to the destination endpoint (ring, PS, all-to-all). */
    UNICAST(9, Direction.MULTICAST);

    private final int wireValue;
    private final Direction direction;

    PacketType(int wireValue, Direction direction) {
        this.wireValue = wireValue;
        this.direction = direction;
    }

    public int wireValue() {
        return wireValue;
    }

    public Direction direction() {
        return direction;
    }

    public static PacketType fromWire(int value) {
        for (PacketType t : values()) {
            if (t.wireValue == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown packet type " + value);
    }
}
