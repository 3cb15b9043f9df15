package org.bitina.job;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a scenario says a job's modes end as, instead of the expectation derived from its
 * fault plan: {@code expect { ina = partial, ring = failed, missing = [h16] }}, or per mode
 * {@code ina = { status = failed, missing = [h3, h4] }}. A mode named here matches only with
 * its status and, where given, exactly those endpoints missing (the top-level {@code missing}
 * is every partial mode's).
 */
public record Expect(Map<Mode, Outcome> modes) {
    /** @param missing the endpoints that must be named missing, exactly; null: not checked (a failed mode) */
    public record Outcome(Status status, Set<String> missing) {}

    public Expect {
        modes = Map.copyOf(modes);
    }

    /** Every endpoint any mode expects to be missing. */
    public Set<String> named() {
        Set<String> all = new TreeSet<>();
        modes.values().forEach(o -> {
            if (o.missing() != null) {
                all.addAll(o.missing());
            }
        });
        return all;
    }
}
