package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.bitina.run.Report;

/**
 * Every frame the devices dropped, summed by reason over the switches and hosts, as one line: the
 * devices no longer warn one by one (a drop a scenario's fault or attack causes is expected), so
 * the console says here what they dropped, and the report's {@code switches[]} and {@code
 * hosts[]} say where.
 */
final class Drops {
    private Drops() {}

    /** Reason -> frames, over every switch and host of the report. */
    static Map<String, Long> byReason(Report r) {
        Map<String, Long> total = new TreeMap<>();
        if (r.switches() != null) {
            r.switches().forEach(s -> s.drops().forEach((k, v) -> total.merge(k, v, Long::sum)));
        }
        if (r.hosts() != null) {
            r.hosts().forEach(h -> h.drops().forEach((k, v) -> total.merge(k, v, Long::sum)));
        }
        total.values().removeIf(v -> v == 0);
        return total;
    }

    /** "drops: 24 duplicate contribution, 34 sent under the VAT before its repair (...)", or nothing. */
    static Optional<String> summary(Report r) {
        Map<String, Long> by = byReason(r);
        if (by.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        by.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> parts.add(e.getValue() + " " + e.getKey()));
        long devices = (r.switches() == null
                        ? 0
                        : r.switches().stream()
                                .filter(s -> !s.drops().isEmpty())
                                .count())
                + (r.hosts() == null
                        ? 0
                        : r.hosts().stream().filter(h -> !h.drops().isEmpty()).count());
        return Optional.of("drops: " + String.join(", ", parts) + " (frames, at " + devices
                + " devices; by device in the report's switches[] and hosts[])");
    }
}
