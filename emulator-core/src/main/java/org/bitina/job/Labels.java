package org.bitina.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The one rule for enums written as their lower-case names in reports and traces ({@code complete}, {@code replicate}). */
public final class Labels {
    private Labels() {}

    /** How {@code e} is written. */
    public static String of(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code type} written {@code label}; anything else is refused, naming {@code what} and the choices. */
    public static <E extends Enum<E>> E parse(Class<E> type, String label, String what) {
        List<String> all = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            if (of(e).equals(label)) {
                return e;
            }
            all.add(of(e));
        }
        throw new IllegalArgumentException("unknown " + what + " '" + label + "' (" + String.join(", ", all) + ")");
    }
}
