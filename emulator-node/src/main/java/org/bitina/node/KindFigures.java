package org.bitina.node;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.bitina.usecase.KindReport;

/**
 * A kind's own figures ({@link KindReport}) as the writers show them: the console line, the HTML
 * page's cells and the {@code jobs.csv} columns, the same for every kind.
 */
final class KindFigures {
    private KindFigures() {}

    /** A figure's value for a reader: bytes in binary units, counts as integers, GB/s with two decimals. */
    static String value(KindReport.Figure f) {
        return switch (f.unit()) {
            case BYTES -> Units.bytes((long) f.value());
            case GBPS -> String.format(Locale.ROOT, "%.2f GB/s", f.value());
            case COUNT ->
                f.value() == Math.rint(f.value())
                        ? Long.toString((long) f.value())
                        : String.format(Locale.ROOT, "%.2f", f.value());
        };
    }

    /** {@code label value (detail)}. */
    static String text(KindReport.Figure f) {
        return f.label() + " " + value(f) + (f.detail() == null ? "" : " (" + f.detail() + ")");
    }

    /** Every figure of the part, headline first: {@code ACK packets into the source 599 (...), repair rounds 3, ...}. */
    static String line(KindReport k) {
        return k.figures().stream().map(KindFigures::text).collect(Collectors.joining(", "));
    }

    /** The part's figures, none for a row without one. */
    static List<KindReport.Figure> of(KindReport k) {
        return k == null ? List.of() : k.figures();
    }
}
