package org.bitina.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Typed reads on one subtree of a scenario file. A value that is missing where it is needed,
 * of the wrong type or out of range is recorded in {@link Problems} with the value's
 * {@code FILE:LINE} and never thrown, so a reader goes on and finds the next problem. Each
 * read names the value by its path ({@code data.chunk}), says what it must be and what it got.
 *
 * <p>Reads with a default return the default when the key is absent and, after recording the
 * problem, when the value is bad; reads without one return null when the value is missing or
 * bad. Callers count problems ({@link Problems#count()}) to know whether what they read is usable.
 */
public final class ConfigReader {
    private static final Pattern BANDWIDTH = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)bps");

    private final Config config;
    private final String path;
    private final Problems problems;
    /** Which draw of a repeated run this reads for: {@link #seed} moves the file's seeds by it. */
    private final int draw;
    /**
     * The keys this object may have, once its check has run ({@link #checkKeys}): reading any other
     * fixed key is a reader asking for what {@link ConfigSchema} does not list, and fails at once.
     */
    private Set<String> listed;

    private ConfigReader(Config config, String path, Problems problems, int draw) {
        this.config = config;
        this.path = path;
        this.problems = problems;
        this.draw = draw;
    }

    /** A reader on {@code config}, whose values are named {@code path + key} in problems. */
    public static ConfigReader of(Config config, String path, Problems problems) {
        return new ConfigReader(config, path, problems, 0);
    }

    /** A reader on {@code config} for draw {@code draw} of a repeated run (see {@link Seeds}). */
    public static ConfigReader of(Config config, String path, Problems problems, int draw) {
        return new ConfigReader(config, path, problems, draw);
    }

    /** A reader on another tree of the same file: its problems and its draw are this reader's. */
    public ConfigReader on(Config other, String otherPath) {
        return new ConfigReader(other, otherPath, problems, draw);
    }

    /** A reader on an object without keys, for an optional section that is absent. */
    public ConfigReader empty(String key) {
        return new ConfigReader(ConfigFactory.empty(), label(key) + ".", problems, draw);
    }

    /** This reader with {@code fallback} behind its values (a scenario's defaults section). */
    public ConfigReader withFallback(ConfigReader fallback) {
        ConfigReader r = new ConfigReader(config.withFallback(fallback.config), path, problems, draw);
        r.listed = listed;
        return r;
    }

    public Problems problems() {
        return problems;
    }

    public Config config() {
        return config;
    }

    /** What problems call {@code key} of this subtree: its path from the top of the file. */
    public String label(String key) {
        return path + key;
    }

    public boolean has(String key) {
        return config.hasPath(ConfigUtil.joinPath(listed(key)));
    }

    public ConfigValue value(String key) {
        return config.getValue(ConfigUtil.joinPath(listed(key)));
    }

    /** {@code key}, when the schema lists it for this object (or the object has not been checked). */
    private String listed(String key) {
        if (listed != null && !listed.contains(key)) {
            throw new IllegalStateException(
                    "a reader reads '" + label(key) + "', which ConfigSchema does not list for this section ("
                            + keyList(listed) + "): add it to the schema");
        }
        return key;
    }

    public ConfigOrigin origin() {
        return config.root().origin();
    }

    /** Where {@code key} is written, or where this subtree is when it is absent. */
    public ConfigOrigin origin(String key) {
        return has(key) ? value(key).origin() : origin();
    }

    public void problem(ConfigOrigin origin, String message) {
        problems.add(origin, message);
    }

    /** A problem with {@code key}, or with this subtree when the key is absent. */
    public void problem(String key, String message) {
        problems.add(origin(key), message);
    }

    // ---------------------------------------------------------------- keys

    /**
     * Each key of this object that {@code section} does not list is a problem (a typo or a key of
     * another section), and from now on this reader reads only keys the section lists.
     */
    public void checkKeys(ConfigSchema.Section section, String where) {
        checkKeys(section, null, where);
    }

    /**
     * As {@link #checkKeys(ConfigSchema.Section, String)} for the keys a {@code kind} takes (of job,
     * fault, attack or generator; null when the kind is unknown: every key of the section); a key
     * of another kind is named as such.
     */
    public void checkKeys(ConfigSchema.Section section, String kind, String where) {
        Set<String> known = section.names(kind);
        for (Map.Entry<String, ConfigValue> e : inFileOrder(config.root())) {
            String key = e.getKey();
            if (known.contains(key)) {
                continue;
            }
            List<String> others = section.names().contains(key) ? section.kindsTaking(key) : List.of();
            problem(
                    e.getValue().origin(),
                    others.isEmpty()
                            ? "unknown key '" + key + "' in " + where + " (known: " + keyList(known) + ")"
                            : "key '" + key + "' is for " + String.join(", ", others) + ", not for " + where
                                    + " (known: " + keyList(known) + ")");
        }
        // the readers read a section's keys whatever the kind (unset ones give their defaults)
        listed(section.names());
    }

    /** From now on this reader reads only {@code keys} (what a check held the object to). */
    void listed(Set<String> keys) {
        this.listed = keys;
    }

    /** This object's keys, in the order they were written. */
    public List<String> keys() {
        return inFileOrder(config.root()).stream().map(Map.Entry::getKey).toList();
    }

    public static String keyList(Set<String> keys) {
        return String.join(", ", new TreeSet<>(keys));
    }

    /** HOCON objects are unordered; read them in the order they were written, so that "the second one" is the one blamed. */
    public static List<Map.Entry<String, ConfigValue>> inFileOrder(ConfigObject obj) {
        List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(obj.entrySet());
        entries.sort(Comparator.comparingInt((Map.Entry<String, ConfigValue> e) ->
                        e.getValue().origin().lineNumber())
                .thenComparing(Map.Entry::getKey));
        return entries;
    }

    // ---------------------------------------------------------------- shapes

    /** "a number", "a list", ...: what a value is, for "(got ...)". */
    public static String describe(ConfigValue v) {
        return switch (v.valueType()) {
            case OBJECT -> "an object";
            case LIST -> "a list";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case STRING -> "a string";
            case NULL -> "null";
        };
    }

    /** The object at {@code key}; null, with a problem, when it is something else; null when absent. */
    public ConfigReader object(String key) {
        if (!has(key)) {
            return null;
        }
        return objectOf(value(key), label(key), "");
    }

    /** The object at {@code key}, or an empty one when it is absent (an optional section). */
    public ConfigReader objectOrEmpty(String key) {
        return has(key) ? object(key) : empty(key);
    }

    /** {@code v} as an object named {@code label}; null with "LABEL must be an object SHAPE (got ...)" otherwise. */
    public ConfigReader objectOf(ConfigValue v, String label, String shape) {
        if (v.valueType() != ConfigValueType.OBJECT) {
            problem(
                    v.origin(),
                    label + " must be an object" + (shape.isEmpty() ? "" : " " + shape) + " (got " + describe(v) + ")");
            return null;
        }
        return new ConfigReader(((ConfigObject) v).toConfig(), label + ".", problems, draw);
    }

    /** The list at {@code key}; null, with a problem, when it is something else; null when absent. */
    public ConfigList list(String key) {
        if (!has(key)) {
            return null;
        }
        ConfigValue v = value(key);
        if (v.valueType() != ConfigValueType.LIST) {
            problem(v.origin(), label(key) + " must be a list (got " + describe(v) + ")");
            return null;
        }
        return (ConfigList) v;
    }

    // ---------------------------------------------------------------- names

    /** {@code v} as a name (a non-empty string); null with a problem otherwise. */
    public String nameOf(ConfigValue v, String label) {
        if (v.valueType() != ConfigValueType.STRING) {
            problem(v.origin(), label + " must be a name (got " + describe(v) + " " + shown(v) + ")");
            return null;
        }
        String s = (String) v.unwrapped();
        if (s.isBlank()) {
            problem(v.origin(), label + ": empty name");
            return null;
        }
        return s;
    }

    /** The name at {@code key}, {@code dflt} when absent, null with a problem when it is not a name. */
    public String name(String key, String dflt) {
        return has(key) ? nameOf(value(key), label(key)) : dflt;
    }

    /** The name at {@code key}; "missing WHAT" when it is absent. */
    public String requiredName(String key, String what) {
        if (!has(key)) {
            problem(origin(), "missing " + what);
            return null;
        }
        return nameOf(value(key), label(key));
    }

    /** The list of names at {@code key}; null when absent or when any element is not a name. */
    public List<String> names(String key) {
        ConfigList list = list(key);
        if (list == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean ok = true;
        for (ConfigValue v : list) {
            String s = nameOf(v, label(key) + " element");
            ok &= s != null;
            out.add(s);
        }
        return ok ? out : null;
    }

    /** A word out of {@code allowed} at {@code key}, {@code dflt} when absent, null with a problem otherwise. */
    public String oneOf(String key, List<String> allowed, String dflt) {
        String s = name(key, dflt);
        if (s != null && !allowed.contains(s)) {
            problem(key, label(key) + " must be " + String.join(" or ", allowed) + ", got '" + s + "'");
            return null;
        }
        return s;
    }

    // ---------------------------------------------------------------- numbers

    /** A whole number in {@code min..max} at {@code key}; {@code dflt} when absent or bad. */
    public int intIn(String key, int min, int max, int dflt) {
        Integer v = has(key) ? intOf(key, min, max) : null;
        return v == null ? dflt : v;
    }

    /** A whole number in {@code min..max} at {@code key}; "missing KEY" when absent. */
    public Integer requiredInt(String key, int min, int max) {
        if (!has(key)) {
            problem(origin(), "missing " + label(key));
            return null;
        }
        return intOf(key, min, max);
    }

    private Integer intOf(String key, int min, int max) {
        ConfigValue v = value(key);
        Double counted = v.valueType() == ConfigValueType.STRING ? counted((String) v.unwrapped()) : null;
        if (v.valueType() != ConfigValueType.NUMBER && counted == null) {
            problem(v.origin(), label(key) + " must be a whole number, got " + shown(v));
            return null;
        }
        double d = counted != null ? counted : ((Number) v.unwrapped()).doubleValue();
        if (d != Math.rint(d) || d < min || d > max) {
            problem(v.origin(), label(key) + " must be a whole number in " + min + ".." + max + ", got " + shown(v));
            return null;
        }
        return (int) d;
    }

    private static final Pattern COUNT = Pattern.compile("(\\d+)\\s*([KMG])");

    /** {@code 4K}, {@code 64K}, {@code 1M}: a count in binary multiples (4096, 65536, 1048576), as nccl-tests' sizes; null otherwise. */
    public static Double counted(String s) {
        Matcher m = COUNT.matcher(s.strip());
        if (!m.matches()) {
            return null;
        }
        int shift = switch (m.group(2)) {
            case "K" -> 10;
            case "M" -> 20;
            default -> 30;
        };
        return Double.parseDouble(m.group(1)) * (1L << shift);
    }

    /** {@code 4096} or {@code 4K} (binary multiples, {@link #counted}) as a whole number; null for anything else. */
    public static Long wholeCount(String s) {
        String v = s.strip();
        if (v.matches("\\d{1,18}")) {
            return Long.parseLong(v);
        }
        Double d = counted(v);
        return d == null ? null : d.longValue();
    }

    /** A whole number at {@code key}; {@code dflt} when absent or bad. */
    public long wholeLong(String key, long dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        if (v.valueType() != ConfigValueType.NUMBER
                || ((Number) v.unwrapped()).doubleValue() != Math.rint(((Number) v.unwrapped()).doubleValue())) {
            problem(v.origin(), label(key) + " must be a whole number, got " + shown(v));
            return dflt;
        }
        return ((Number) v.unwrapped()).longValue();
    }

    /**
     * The seed at {@code key} ({@code dflt} when absent or bad) as this draw of a repeated run
     * uses it: the one way a reader takes a seed, so that {@code --repeat} moves every one.
     */
    public long seed(String key, long dflt) {
        return drawn(wholeLong(key, dflt));
    }

    /** {@code seed} as this draw uses it (a seed not read from a key, such as a default kept aside). */
    public long drawn(long seed) {
        return Seeds.forDraw(seed, draw);
    }

    /** A list of whole numbers at least {@code min}; null when absent or bad. */
    public List<Long> wholeLongs(String key, long min) {
        ConfigList list = list(key);
        if (list == null) {
            return null;
        }
        List<Long> out = new ArrayList<>();
        boolean ok = true;
        for (ConfigValue v : list) {
            Object n = v.unwrapped();
            if (v.valueType() != ConfigValueType.NUMBER
                    || ((Number) n).doubleValue() != Math.rint(((Number) n).doubleValue())) {
                problem(v.origin(), label(key) + " must hold whole numbers, got " + shown(v));
                ok = false;
            } else if (((Number) n).longValue() < min) {
                problem(v.origin(), label(key) + " must hold numbers of at least " + min + ", got " + shown(v));
                ok = false;
            } else {
                out.add(((Number) n).longValue());
            }
        }
        return ok ? out : null;
    }

    /** A number above zero at {@code key}; {@code dflt} when absent or bad. */
    public double positive(String key, double dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        if (v.valueType() != ConfigValueType.NUMBER || ((Number) v.unwrapped()).doubleValue() <= 0) {
            problem(v.origin(), label(key) + " must be a positive number, got " + shown(v));
            return dflt;
        }
        return ((Number) v.unwrapped()).doubleValue();
    }

    /** {@code true} or {@code false} at {@code key}; {@code dflt} when absent or bad. */
    public boolean bool(String key, boolean dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        if (v.valueType() != ConfigValueType.BOOLEAN) {
            problem(v.origin(), label(key) + " must be true or false (got " + describe(v) + ")");
            return dflt;
        }
        return (Boolean) v.unwrapped();
    }

    /** A percentage or fraction in [0, 1): {@code 0.05} or {@code 5%}; {@code dflt} when absent or bad. */
    public double fraction(String key, double dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        double value;
        if (v.valueType() == ConfigValueType.NUMBER) {
            value = ((Number) v.unwrapped()).doubleValue();
        } else if (v.valueType() == ConfigValueType.STRING
                && ((String) v.unwrapped()).strip().endsWith("%")) {
            String s = ((String) v.unwrapped()).strip();
            try {
                value = Double.parseDouble(s.substring(0, s.length() - 1).strip()) / 100.0;
            } catch (NumberFormatException e) {
                problem(v.origin(), label(key) + " must be a fraction like 0.05 or 5%, got " + shown(v));
                return dflt;
            }
        } else {
            problem(v.origin(), label(key) + " must be a fraction like 0.05 or 5%, got " + shown(v));
            return dflt;
        }
        if (!(value >= 0 && value < 1)) {
            problem(v.origin(), label(key) + " must be at least 0 and below 1 (100%), got " + shown(v));
            return dflt;
        }
        return value;
    }

    /**
     * A value as a message shows it: {@code [1, 2]}, {@code "4XB"}. HOCON's own rendering puts an
     * origin comment before every element ({@code [ # FILE: 9 1, ...]}); the problem's
     * {@code FILE:LINE} says where already.
     */
    public static String shown(ConfigValue v) {
        if (v instanceof ConfigList list) {
            return list.stream().map(ConfigReader::shown).collect(Collectors.joining(", ", "[", "]"));
        }
        return v.render(ConfigRenderOptions.concise());
    }

    // ---------------------------------------------------------------- units

    /** The longest time a scenario may name (a fault's time, a timeout, a delay): a day. */
    public static final Duration MAX_DURATION = Duration.ofDays(1);

    /** A duration of zero or more at {@code key}; {@code dflt} when absent, null when bad. */
    public Duration nonNegativeDuration(String key, Duration dflt) {
        return duration(key, dflt, false);
    }

    /** A duration above zero at {@code key}; {@code dflt} when absent, null when bad. */
    public Duration positiveDuration(String key, Duration dflt) {
        return duration(key, dflt, true);
    }

    private Duration duration(String key, Duration dflt, boolean positive) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        if (withoutUnit(v)) {
            // HOCON reads a bare number as milliseconds: in files of microsecond phases that is never meant
            problem(
                    v.origin(),
                    label(key) + ": duration " + shown(v) + " has no unit (write a number with a unit: ns, us, ms, s)");
            return null;
        }
        Duration d;
        try {
            d = config.getDuration(ConfigUtil.joinPath(key));
        } catch (ConfigException e) {
            problem(
                    v.origin(),
                    label(key) + ": bad duration " + shown(v) + " (write a number with a unit: ns, us, ms, s)");
            return null;
        }
        if (d.isNegative() || (positive && d.isZero())) {
            problem(
                    v.origin(),
                    label(key) + " must " + (positive ? "be positive" : "not be negative") + ", got " + shown(v));
            return null;
        }
        if (d.compareTo(MAX_DURATION) > 0) {
            // timers and faults are scheduled with it: past the scheduler's reach a run would fail mid-way
            problem(v.origin(), label(key) + " must be at most " + MAX_DURATION.toHours() + " h, got " + shown(v));
            return null;
        }
        return d;
    }

    /** A number other than zero written without a unit, bare or quoted. */
    private static boolean withoutUnit(ConfigValue v) {
        Object o = v.unwrapped();
        if (v.valueType() == ConfigValueType.NUMBER) {
            return ((Number) o).doubleValue() != 0;
        }
        return v.valueType() == ConfigValueType.STRING
                && ((String) o).strip().matches("[0-9.eE+-]+")
                && !((String) o).strip().matches("[0.]+");
    }

    /** Bits per second written with a unit ({@code 100Gbps}); {@code dflt} when absent or bad. */
    public long bandwidth(String key, long dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        if (v.valueType() == ConfigValueType.STRING) {
            Matcher m = BANDWIDTH.matcher(((String) v.unwrapped()).strip());
            if (m.matches()) {
                long unit = switch (m.group(2)) {
                    case "K" -> 1_000L;
                    case "M" -> 1_000_000L;
                    case "G" -> 1_000_000_000L;
                    case "T" -> 1_000_000_000_000L;
                    default -> 1L;
                };
                double bps = Double.parseDouble(m.group(1)) * unit;
                if (bps >= 1 && bps < 1e16) {
                    return (long) bps;
                }
            }
        }
        problem(
                v.origin(),
                label(key) + ": bad bandwidth " + shown(v)
                        + " (write a number with a unit: bps, Kbps, Mbps, Gbps, Tbps)");
        return dflt;
    }

    /** A size in bytes ({@code 4MiB}, {@code 1000000}) in {@code min..max}; {@code dflt} when absent or bad. */
    public long bytes(String key, long min, long max, String range, long dflt) {
        if (!has(key)) {
            return dflt;
        }
        ConfigValue v = value(key);
        long bytes;
        try {
            bytes = config.getBytes(ConfigUtil.joinPath(key));
        } catch (ConfigException e) {
            problem(v.origin(), label(key) + ": bad size " + shown(v) + " (write 4MiB, 1000000, ...)");
            return dflt;
        }
        if (bytes < min || bytes > max) {
            problem(v.origin(), label(key) + " must be " + range + ", got " + shown(v));
            return dflt;
        }
        return bytes;
    }
}
