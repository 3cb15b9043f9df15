package org.bitina.node;

import org.bitina.time.Durations;

/**
 * Human units for the console: bytes in powers of 1024 (B, KiB, MiB, GiB, TiB) and times in
 * ns, µs, ms and s, each with three significant digits ({@code 1.33 GiB}, {@code 80.3 µs}). The
 * report and the CSV keep the exact numbers; this is for reading a table at a glance.
 */
final class Units {
    private static final String[] BYTES = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Units() {}

    /** {@code 826112} -> {@code 807 KiB}; below 1024, the exact count ({@code 812 B}). */
    static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        double v = b;
        int unit = 0;
        while (v >= 1024 && unit < BYTES.length - 1) {
            v /= 1024;
            unit++;
        }
        // 1023.6 KiB would print as "1024 KiB": the next unit reads better
        if (Durations.threeDigits(v).equals("1024") && unit < BYTES.length - 1) {
            v /= 1024;
            unit++;
        }
        return Durations.threeDigits(v) + " " + BYTES[unit];
    }

    /** {@code 80_300} ns -> {@code 80.3 µs}; below a microsecond, whole nanoseconds. */
    static String nanos(double ns) {
        return Durations.of(ns, "µs");
    }

    /** A rate or a count as people read it: 950, 51.2K, 3.40M. */
    static String count(double v) {
        if (v < 1000) {
            return String.format(java.util.Locale.ROOT, "%.0f", v);
        }
        return v < 1e6 ? Durations.threeDigits(v / 1e3) + "K" : Durations.threeDigits(v / 1e6) + "M";
    }

    static String micros(double us) {
        return nanos(us * 1000);
    }

    static String millis(long ms) {
        return nanos(ms * 1_000_000.0);
    }
}
