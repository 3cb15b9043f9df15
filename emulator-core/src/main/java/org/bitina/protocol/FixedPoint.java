package org.bitina.protocol;

/**
 * int32 fixed point as switch ASICs reduce it (seed 000 section 3, A3): a value v is
 * carried as round(v * scale), saturated to the int32 range. Sums of fixed-point values
 * are exact integer sums.
 */
public final class FixedPoint {
    private FixedPoint() {}

    public static int encode(float value, int scale) {
        double scaled = Math.rint((double) value * scale);
        if (scaled >= Integer.MAX_VALUE) {
            return Integer.MAX_VALUE;
        }
        if (scaled <= Integer.MIN_VALUE) {
            return Integer.MIN_VALUE;
        }
        return (int) scaled;
    }

    public static float decode(int value, int scale) {
        return (float) ((double) value / scale);
    }
}
