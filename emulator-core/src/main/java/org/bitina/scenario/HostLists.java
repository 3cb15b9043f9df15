package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bitina.topology.Topology;

/**
 * Lists of hosts as a scenario file writes them: names and {@link HostSelector host selectors}
 * mixed. A bad selector is a problem at its value's line; plain names pass through for the
 * caller to check as it always has (a switch, a name listed twice, not a member), each with the
 * value it came from.
 */
public final class HostLists {
    private HostLists() {}

    /** A host's name and the value of the file that named it (a plain name, or the selector it came from). */
    public record Named(String name, ConfigValue from) {}

    /**
     * The names {@code elements} hold, selectors expanded in place; null when an element is not a
     * string or a selector is bad (recorded). With {@code topology} null (broken) selectors cannot
     * be expanded and are left out: the caller checks nothing against the nodes then.
     *
     * @param what     what an element is, for problems ("a job member")
     * @param leaveOut hosts a selector leaves out (a multicast job's source); a plain name is kept
     */
    public static List<Named> expand(
            ConfigReader c,
            List<? extends ConfigValue> elements,
            Topology topology,
            String what,
            Set<String> leaveOut) {
        List<Named> out = new ArrayList<>();
        boolean ok = true;
        for (ConfigValue v : elements) {
            String s = c.nameOf(v, what);
            if (s == null) {
                ok = false;
            } else if (!HostSelector.isSelector(s)) {
                out.add(new Named(s, v));
            } else if (topology != null) {
                try {
                    for (String h : HostSelector.expand(s, topology)) {
                        if (!leaveOut.contains(h)) {
                            out.add(new Named(h, v));
                        }
                    }
                } catch (IllegalArgumentException e) {
                    c.problem(v.origin(), what + ": " + e.getMessage());
                    ok = false;
                }
            }
        }
        return ok ? out : null;
    }

    /**
     * The hosts at {@code key}: a list of names and selectors, or one string; null when absent or
     * bad (recorded). Names are not checked here.
     */
    public static List<String> names(ConfigReader c, String key, Topology topology, String what) {
        List<? extends ConfigValue> elements = elements(c, key);
        if (elements == null) {
            return null;
        }
        List<Named> named = expand(c, elements, topology, what, Set.of());
        return named == null ? null : named.stream().map(Named::name).toList();
    }

    /** The value at {@code key} as list elements: a list's, or one string alone; null (recorded when present) otherwise. */
    public static List<? extends ConfigValue> elements(ConfigReader c, String key) {
        if (!c.has(key)) {
            return null;
        }
        ConfigValue v = c.value(key);
        if (v.valueType() == ConfigValueType.STRING) {
            return List.of(v);
        }
        if (v.valueType() != ConfigValueType.LIST) {
            c.problem(
                    v.origin(),
                    c.label(key) + " must be a list of hosts or a host selector (got " + ConfigReader.describe(v)
                            + ")");
            return null;
        }
        return (ConfigList) v;
    }
}
