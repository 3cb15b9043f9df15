package org.bitina.bitmap;

/**
 * Endpoint-set encodings of seed 000 section 7, with their on-wire code (the header's
 * encoding-type indicator, section 6).
 */
public enum Encoding {
    /** One bit per endpoint of the job's bit space; fixed length. */
    FLAT(0),
    /** An upper bitmap selecting blocks plus one lower bitmap per selected block. */
    HIERARCHICAL(1),
    /** Sorted list of endpoint indices, each ceil(log2 N) bits wide. */
    NODE_LIST(2);

    private final int wireValue;

    Encoding(int wireValue) {
        this.wireValue = wireValue;
    }

    public int wireValue() {
        return wireValue;
    }

    /** Fail-fast reverse lookup: an unknown code is an error, never a default. */
    public static Encoding fromWire(int value) {
        for (Encoding e : values()) {
            if (e.wireValue == value) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown endpoint-set encoding " + value);
    }
}
