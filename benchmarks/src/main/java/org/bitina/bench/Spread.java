package org.bitina.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The median of a benchmark's runs with their minimum and maximum: how far one run can be trusted. */
record Spread(double median, double min, double max, int n) {
    static Spread of(double[] xs) {
        if (xs.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        return new Spread(median, s[0], s[s.length - 1], s.length);
    }

    static Spread of(List<Double> xs) {
        return of(xs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** {@code 1,234 [1,100..1,400]}: the median, then the range of the runs, in {@code format} (e.g. {@code %,.0f}). */
    String format(String format) {
        return String.format(Locale.ROOT, format, median) + " [" + String.format(Locale.ROOT, format, min) + ".."
                + String.format(Locale.ROOT, format, max) + "]";
    }
}
