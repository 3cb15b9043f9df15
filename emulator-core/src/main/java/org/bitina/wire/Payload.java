package org.bitina.wire;

import java.util.Arrays;

/**
 * A packet's payload: float32 or int32 elements, or nothing (an ACK, whose bitmap is the
 * acknowledgment). Arrays are owned by the payload; {@link #copy()} before mutating, and never
 * after its {@link #digest()} was taken.
 */
public sealed interface Payload {

    ElementType elementType();

    /**
     * SHA-256 of the elements as the codec writes them (big-endian), taken once per payload and
     * kept: what the S2 tag covers beside the header (seed 000 section 8: "a MAC over the headers
     * and a payload digest"), so a hop that checks a tag hashes 32 bytes, not the payload again.
     * Whoever changes a payload makes a new one ({@link #copy()}), whose digest is its own.
     */
    byte[] digest();

    int elements();

    default int byteSize() {
        return elements() * elementType().bytes();
    }

    Payload copy();

    Payload EMPTY = new Empty();

    static Payload of(float[] values) {
        return new Float32(values);
    }

    static Payload of(int[] values) {
        return new Int32(values);
    }

    /** The empty payload. */
    final class Empty extends Digested {
        private Empty() {}

        @Override
        public ElementType elementType() {
            return ElementType.NONE;
        }

        @Override
        public int elements() {
            return 0;
        }

        @Override
        public Payload copy() {
            return this;
        }

        @Override
        public String toString() {
            return "Empty";
        }
    }

    /** What every payload shares: its digest, taken on first use and kept. */
    abstract sealed class Digested implements Payload permits Empty, Float32, Int32 {
        /** Volatile, so a reader on another thread sees the whole array. */
        private volatile byte[] digest;

        @Override
        public final byte[] digest() {
            byte[] d = digest;
            if (d == null) {
                d = PacketCodec.digest(this);
                digest = d;
            }
            return d;
        }
    }

    final class Float32 extends Digested {
        private final float[] values;

        public Float32(float[] values) {
            this.values = values;
        }

        public float[] values() {
            return values;
        }

        @Override
        public ElementType elementType() {
            return ElementType.FLOAT32;
        }

        @Override
        public int elements() {
            return values.length;
        }

        @Override
        public Float32 copy() {
            return new Float32(values.clone());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Float32 f && Arrays.equals(values, f.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Float32[" + values.length + "]";
        }
    }

    final class Int32 extends Digested {
        private final int[] values;

        public Int32(int[] values) {
            this.values = values;
        }

        public int[] values() {
            return values;
        }

        @Override
        public ElementType elementType() {
            return ElementType.INT32;
        }

        @Override
        public int elements() {
            return values.length;
        }

        @Override
        public Int32 copy() {
            return new Int32(values.clone());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Int32 i && Arrays.equals(values, i.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Int32[" + values.length + "]";
        }
    }
}
