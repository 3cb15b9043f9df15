package org.bitina.wire;

/** Element type of a packet's payload (seed 000 section 3: float32, int32 fixed point). */
public enum ElementType {
    NONE(0, 0),
    FLOAT32(1, 4),
    INT32(2, 4);

    private final int wireValue;
    private final int bytes;

    ElementType(int wireValue, int bytes) {
        this.wireValue = wireValue;
        this.bytes = bytes;
    }

    public int wireValue() {
        return wireValue;
    }

    /** Bytes per element on the wire. */
    public int bytes() {
        return bytes;
    }

    public static ElementType fromWire(int value) {
        for (ElementType t : values()) {
            if (t.wireValue == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown element type " + value);
    }
}
