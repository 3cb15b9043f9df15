package org.bitina.wire;

import java.util.Arrays;

/**
 * A packet's payload: float32 or int32 elements, or nothing (an ACK, whose bitmap is the
 * acknowledgment). Arrays are owned by the payload; {@link #copy()} before mutating.
 */
public sealed interface Payload {

    ElementType elementType();

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
    final class Empty implements Payload {
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

    record Float32(float[] values) implements Payload {
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

    record Int32(int[] values) implements Payload {
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
