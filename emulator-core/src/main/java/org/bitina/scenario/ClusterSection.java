package org.bitina.scenario;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.Topology;

/** Reads the {@code cluster} section: how many JVM members and how devices are placed on them (E2). */
public final class ClusterSection {

    private ClusterSection() {}

    /** The cluster layout of {@code c}; {@code topology} is null when it is broken, and then node names go unchecked. */
    public static ClusterSpec read(ConfigReader c, Topology topology) {
        c.checkKeys(ScenarioKeys.CLUSTER, "cluster");
        int jvms = c.intIn("jvms", 1, 64, 1);
        ClusterSpec.Placement placement = ClusterSpec.Placement.BY_POD;
        String p = c.name("placement", null);
        if (p != null) {
            try {
                placement = ClusterSpec.Placement.fromConfig(p);
            } catch (IllegalArgumentException e) {
                c.problem("placement", e.getMessage());
            }
        }
        Map<String, Integer> explicit = new LinkedHashMap<>();
        ConfigReader e = c.object("explicit");
        if (e != null) {
            for (Map.Entry<String, ConfigValue> entry :
                    ConfigReader.inFileOrder(e.config().root())) {
                ConfigValue v = entry.getValue();
                if (topology != null && !topology.has(entry.getKey())) {
                    c.problem(v.origin(), "explicit placement names unknown node '" + entry.getKey() + "'");
                } else if (v.valueType() != ConfigValueType.NUMBER) {
                    c.problem(
                            v.origin(),
                            "explicit placement maps a node to a member index (got " + ConfigReader.describe(v) + ")");
                } else {
                    int m = ((Number) v.unwrapped()).intValue();
                    if (m < 0 || m >= jvms) {
                        c.problem(v.origin(), "member index " + m + " outside 0.." + (jvms - 1));
                    }
                    explicit.put(entry.getKey(), m);
                }
            }
        } else if (!c.has("explicit") && placement == ClusterSpec.Placement.EXPLICIT) {
            c.problem("placement", "placement explicit needs an explicit { node = member } section");
        }
        return new ClusterSpec(jvms, placement, Map.copyOf(explicit));
    }
}
