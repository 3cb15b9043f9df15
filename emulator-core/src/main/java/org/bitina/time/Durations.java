package org.bitina.time;

import java.util.Locale;

/**
 * Durations as people read them, for the notes the report carries and the console: three
 * significant digits in the largest unit that keeps the number below a thousand ({@code 812 ns},
 * {@code 47.9 us}, {@code 2.27 ms}, {@code 2.50 s}), never {@code 2273.544 us} or {@code 1.60K us}.
 * The report's numeric fields keep the exact values.
 */
public final class Durations {
    private Durations() {}

    /** {@code ns} in ns, us, ms or s (ASCII, as in the report's notes). */
    public static String of(double ns) {
        return of(ns, "us");
    }

    /** The same with {@code micro} as the microsecond unit's name ({@code µs} on the console). */
    public static String of(double ns, String micro) {
        if (ns < 1000) {
            return Math.round(ns) + " ns";
        }
        String[] units = {micro, "ms", "s"};
        double v = ns / 1000;
        int unit = 0;
        while (v >= 1000 && unit < units.length - 1) {
            v /= 1000;
            unit++;
        }
        // 999.96 us would print as "1000 us": the next unit reads better
        if (threeDigits(v).equals("1000") && unit < units.length - 1) {
            v /= 1000;
            unit++;
        }
        return threeDigits(v) + " " + units[unit];
    }

    /** Three significant digits: 1.33, 13.6, 136 (and 1360 for seconds past a thousand). */
    public static String threeDigits(double v) {
        if (v < 9.995) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (v < 99.95) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
