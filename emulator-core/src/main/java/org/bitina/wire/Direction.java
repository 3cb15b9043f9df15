package org.bitina.wire;

/** The two directions of seed 000 section 2; one header bit. */
public enum Direction {
    /** Leaves toward the root: terminate, reduce, complete. */
    AGGREGATION(0),
    /** Root toward the leaves: stateless bitmap replication. */
    MULTICAST(1);

    private final int wireValue;

    Direction(int wireValue) {
        this.wireValue = wireValue;
    }

    public int wireValue() {
        return wireValue;
    }

    public static Direction fromWire(int value) {
        for (Direction d : values()) {
            if (d.wireValue == value) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown direction " + value);
    }
}
