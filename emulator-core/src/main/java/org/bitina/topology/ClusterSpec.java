package org.bitina.topology;

import java.util.Map;

/** How many JVM members run the scenario and how devices are placed on them (E2). */
public record ClusterSpec(int jvms, Placement placement, Map<String, Integer> explicit) {
    public static final ClusterSpec SINGLE = new ClusterSpec(1, Placement.BY_POD, Map.of());

    public enum Placement {
        BY_POD("by-pod"),
        ROUND_ROBIN("round-robin"),
        EXPLICIT("explicit");

        private final String configName;

        Placement(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        public static Placement fromConfig(String name) {
            for (Placement p : values()) {
                if (p.configName.equals(name)) {
                    return p;
                }
            }
            throw new IllegalArgumentException(
                    "unknown placement '" + name + "' (expected by-pod, round-robin or explicit)");
        }
    }
}
