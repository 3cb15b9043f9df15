package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which trace events a run writes ({@code --trace-filter}): clauses {@code KEY=V1,V2,...}, each
 * given as its own option or several in one separated by {@code ;}. An event is written when it
 * matches every clause, and a clause when it matches any of its values. Keys:
 * <ul>
 *   <li>{@code job}, {@code mode}: names, exactly ({@code job=fig1}, {@code mode=ina,ring});</li>
 *   <li>{@code node}: names, a trailing {@code *} matching any rest ({@code node=s1,leaf-*});</li>
 *   <li>{@code event}: the contract's events ({@code event=replicate,drop});</li>
 *   <li>{@code dir}: {@code agg} or {@code mcast};</li>
 *   <li>{@code seq}: numbers or inclusive ranges {@code A..B} ({@code seq=0..15,100}).</li>
 * </ul>
 * A key given twice, an unknown key or event, an empty value or a bad range is an error
 * ({@link IllegalArgumentException}, naming the clause): a filter that silently matched nothing
 * would look like a run with no events.
 */
public final class TraceFilter implements Predicate<TraceEvent> {
    /** The events of the trace contract (docs/reference.md), in its order. */
    public static final List<String> EVENTS =
            Arrays.stream(TraceEvent.Kind.values()).map(TraceEvent.Kind::label).toList();
    /** The keys a clause may name. */
    public static final List<String> KEYS = List.of("job", "mode", "node", "event", "dir", "seq");

    /** Every event. */
    public static final TraceFilter ALL = new TraceFilter(Map.of());

    private final Map<String, List<String>> clauses;
    private final List<long[]> seqRanges;

    private TraceFilter(Map<String, List<String>> clauses) {
        this.clauses = clauses;
        List<long[]> ranges = new ArrayList<>();
        for (String v : clauses.getOrDefault("seq", List.of())) {
            ranges.add(range(v));
        }
        this.seqRanges = ranges;
    }

    /** The filter the options say; no options: {@link #ALL}. */
    public static TraceFilter parse(List<String> options) {
        if (options == null || options.isEmpty()) {
            return ALL;
        }
        Map<String, List<String>> clauses = new LinkedHashMap<>();
        for (String option : options) {
            for (String clause : option.split(";")) {
                String c = clause.strip();
                if (c.isEmpty()) {
                    continue;
                }
                int eq = c.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException(
                            "'" + c + "' is not KEY=VALUE,... (keys: " + String.join(", ", KEYS) + ")");
                }
                String key = c.substring(0, eq).strip();
                if (!KEYS.contains(key)) {
                    throw new IllegalArgumentException(
                            "unknown key '" + key + "' in '" + c + "' (keys: " + String.join(", ", KEYS) + ")");
                }
                if (clauses.containsKey(key)) {
                    throw new IllegalArgumentException(
                            "key '" + key + "' given twice: list its values in one clause (" + key + "=A,B)");
                }
                List<String> values = new ArrayList<>();
                for (String v : c.substring(eq + 1).split(",", -1)) {
                    String value = v.strip();
                    if (value.isEmpty()) {
                        throw new IllegalArgumentException("empty value in '" + c + "'");
                    }
                    check(key, value, c);
                    values.add(value);
                }
                clauses.put(key, List.copyOf(values));
            }
        }
        return new TraceFilter(clauses);
    }

    private static void check(String key, String value, String clause) {
        switch (key) {
            case "event" -> {
                if (!EVENTS.contains(value)) {
                    throw new IllegalArgumentException("unknown event '" + value + "' in '" + clause + "' (events: "
                            + String.join(", ", EVENTS) + ")");
                }
            }
            case "dir" -> {
                if (!Set.of("agg", "mcast").contains(value)) {
                    throw new IllegalArgumentException("dir is agg or mcast, got '" + value + "' in '" + clause + "'");
                }
            }
            case "seq" -> range(value);
            default -> {
                if (value.indexOf('*') >= 0 && !(key.equals("node") && value.indexOf('*') == value.length() - 1)) {
                    throw new IllegalArgumentException(
                            "'*' only ends a node name, got '" + value + "' in '" + clause + "'");
                }
            }
        }
    }

    private static long[] range(String v) {
        int dots = v.indexOf("..");
        try {
            long from = Long.parseLong(dots < 0 ? v : v.substring(0, dots).strip());
            long to = dots < 0 ? from : Long.parseLong(v.substring(dots + 2).strip());
            if (from < 0 || to < from) {
                throw new IllegalArgumentException(
                        "seq range '" + v + "' is empty or negative (A..B with 0 <= A <= B)");
            }
            return new long[] {from, to};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("seq takes numbers or ranges A..B, got '" + v + "'");
        }
    }

    /** The values of clause {@code key}, or an empty list when it is not given. */
    public List<String> values(String key) {
        return clauses.getOrDefault(key, List.of());
    }

    public boolean isAll() {
        return clauses.isEmpty();
    }

    @Override
    public boolean test(TraceEvent e) {
        return matches("job", e.job())
                && matches("mode", e.modeName())
                && matches("event", e.event().label())
                && matches("dir", e.dir())
                && nodeMatches(e.node())
                && seqMatches(e.seq());
    }

    private boolean matches(String key, String value) {
        List<String> vs = clauses.get(key);
        return vs == null || vs.contains(value);
    }

    private boolean nodeMatches(String node) {
        List<String> vs = clauses.get("node");
        if (vs == null) {
            return true;
        }
        for (String v : vs) {
            if (v.endsWith("*") ? node.startsWith(v.substring(0, v.length() - 1)) : node.equals(v)) {
                return true;
            }
        }
        return false;
    }

    private boolean seqMatches(long seq) {
        if (seqRanges.isEmpty()) {
            return true;
        }
        for (long[] r : seqRanges) {
            if (seq >= r[0] && seq <= r[1]) {
                return true;
            }
        }
        return false;
    }

    /** The clauses in the option's syntax, as the trace's first line records them ("" for every event). */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        clauses.forEach((k, v) -> parts.add(k + "=" + String.join(",", v)));
        return String.join(";", parts);
    }
}
