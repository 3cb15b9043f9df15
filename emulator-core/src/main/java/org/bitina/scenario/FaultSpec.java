package org.bitina.scenario;

import java.time.Duration;
import java.util.List;
import org.bitina.topology.Link;

/**
 * One entry of a fault plan (E4). Which fields matter depends on the kind; the loader
 * rejects a fault that lacks what its kind needs.
 *
 * @param link   the link for link faults (null: every link, for loss/duplicate/reorder)
 * @param chunks sequence ids a straggler delays, or a malicious switch corrupts (empty: all)
 * @param member cluster member index for member-loss
 */
public record FaultSpec(
        Duration at,
        Kind kind,
        String node,
        Link link,
        Duration delay,
        Duration jitter,
        double rate,
        List<Long> chunks,
        int member) {

    public enum Kind {
        LINK_DOWN("link-down"),
        LINK_UP("link-up"),
        SWITCH_CRASH("switch-crash"),
        /** A crashed switch comes back empty (no tables, no soft state) and rejoins at the reconfiguration it triggers. */
        SWITCH_RECOVER("switch-recover"),
        LOSS("loss"),
        DUPLICATE("duplicate"),
        REORDER("reorder"),
        DELAY("delay"),
        STRAGGLER("straggler"),
        SILENT("silent"),
        MEMBER_LOSS("member-loss"),
        /** S6: a switch that corrupts the AllReduce sums it emits. */
        MALICIOUS_SWITCH("malicious-switch");

        private final String configName;

        Kind(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        public static Kind fromConfig(String name) {
            for (Kind k : values()) {
                if (k.configName.equals(name)) {
                    return k;
                }
            }
            StringBuilder known = new StringBuilder();
            for (Kind k : values()) {
                known.append(known.length() == 0 ? "" : ", ").append(k.configName);
            }
            throw new IllegalArgumentException("unknown fault kind '" + name + "' (expected one of " + known + ")");
        }
    }
}
