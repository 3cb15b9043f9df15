package org.bitina.scenario;

import java.time.Duration;
import java.util.List;
import org.bitina.topology.Link;
import org.bitina.topology.Topology;

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

    /** A fault's target names the field it needs; the loader checks it is there and of the right kind. */
    public FaultSpec {
        switch (kind.target()) {
            case LINK -> require(link != null, kind, "link");
            case SWITCH, HOST -> require(node != null, kind, "node");
            case MEMBER -> require(member >= 0, kind, "member");
            case LINKS -> {
                // a link, or every link when none is named
            }
            default -> throw new AssertionError(kind);
        }
        chunks = List.copyOf(chunks);
    }

    /**
     * This fault on {@code topology}'s link between the same two nodes: routing tells a down link by
     * equality, so a fault read on a topology whose links were then given other properties (RED
     * marking, {@code congestion}) must name the links of the one that runs.
     */
    public FaultSpec on(Topology topology) {
        if (link == null) {
            return this;
        }
        Link there = topology.linkBetween(link.a(), link.b()).orElse(link);
        return there.equals(link) ? this : new FaultSpec(at, kind, node, there, delay, jitter, rate, chunks, member);
    }

    private static void require(boolean present, Kind kind, String field) {
        if (!present) {
            throw new IllegalArgumentException(kind.configName() + " needs " + field);
        }
    }

    /**
     * Whether the network applies this fault (links, switches, members); the others are an
     * endpoint's behaviour, planned into the drivers. The one place this rule is written.
     */
    public boolean inNetwork() {
        return kind.target() != Target.HOST;
    }

    /** What a kind of fault acts on. */
    public enum Target {
        /** one link, {@code link = [a, b]} */
        LINK,
        /** one link, or every link when none is named */
        LINKS,
        /** one switch, {@code node} */
        SWITCH,
        /** one host, or several by a host selector, {@code node} */
        HOST,
        /** one cluster member, {@code member} */
        MEMBER
    }

    public enum Kind {
        LINK_DOWN("link-down", Target.LINK),
        LINK_UP("link-up", Target.LINK),
        SWITCH_CRASH("switch-crash", Target.SWITCH),
        /** A crashed switch comes back empty (no tables, no soft state) and rejoins at the reconfiguration it triggers. */
        SWITCH_RECOVER("switch-recover", Target.SWITCH),
        LOSS("loss", Target.LINKS),
        DUPLICATE("duplicate", Target.LINKS),
        REORDER("reorder", Target.LINKS),
        DELAY("delay", Target.LINK),
        STRAGGLER("straggler", Target.HOST),
        SILENT("silent", Target.HOST),
        MEMBER_LOSS("member-loss", Target.MEMBER),
        /** S6: a switch that corrupts the AllReduce sums it emits. */
        MALICIOUS_SWITCH("malicious-switch", Target.SWITCH);

        private final String configName;
        private final Target target;

        Kind(String configName, Target target) {
            this.configName = configName;
            this.target = target;
        }

        public String configName() {
            return configName;
        }

        public Target target() {
            return target;
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
