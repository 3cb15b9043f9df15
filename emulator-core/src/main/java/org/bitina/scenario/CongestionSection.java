package org.bitina.scenario;

import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.TrafficFlows;
import org.bitina.topology.Link;
import org.bitina.topology.Topology;

/**
 * Reads the top-level {@code congestion} ({@code none}, {@code dcqcn}, or an object of DCQCN's
 * parameters) and applies it: RED marking on every link when some sender runs DCQCN.
 */
final class CongestionSection {
    private CongestionSection() {}

    /** The file's congestion settings: its parameters and whether senders run DCQCN unless they say otherwise. */
    record Congestion(Dcqcn.Settings settings, boolean dcqcn) {
        static final Congestion NONE = new Congestion(Dcqcn.Settings.DEFAULTS, false);

        /** The settings of a sender that runs {@code control}, or null for none. */
        Dcqcn.Settings of(boolean control) {
            return control ? settings : null;
        }
    }

    static final List<String> CONTROLS = List.of("none", "dcqcn");

    static Congestion read(ConfigReader root) {
        if (!root.has("congestion")) {
            return Congestion.NONE;
        }
        if (root.value("congestion").valueType() == ConfigValueType.STRING) {
            return new Congestion(Dcqcn.Settings.DEFAULTS, "dcqcn".equals(root.oneOf("congestion", CONTROLS, "none")));
        }
        ConfigReader c = root.object("congestion");
        if (c == null) {
            return Congestion.NONE;
        }
        c.checkKeys(ScenarioKeys.CONGESTION, "congestion");
        Dcqcn.Settings d = Dcqcn.Settings.DEFAULTS;
        boolean dcqcn = "dcqcn".equals(c.oneOf("control", CONTROLS, "none"));
        long kmin = c.bytes("kmin", 0, 1L << 40, "0..1TiB", d.kminBytes());
        long kmax = c.bytes("kmax", 1, 1L << 40, "1 byte..1TiB", d.kmaxBytes());
        if (kmax < kmin) {
            c.problem("kmax", "congestion.kmax (" + kmax + " bytes) must be at least kmin (" + kmin + " bytes)");
            kmax = kmin;
        }
        double pmax = c.fraction("pmax", d.pmax());
        if (c.has("pmax") && pmax <= 0) {
            c.problem("pmax", "congestion.pmax must be above 0");
            pmax = d.pmax();
        }
        double g = unitInterval(c, "g", d.g());
        double first = unitInterval(c, "rate-on-first-cnp", d.rateOnFirstCnp());
        return new Congestion(
                new Dcqcn.Settings(
                        kmin,
                        kmax,
                        pmax,
                        c.nonNegativeDuration("cnp-interval", Duration.ofNanos(d.cnpNanos()))
                                .toNanos(),
                        g,
                        c.positiveDuration("alpha-timer", Duration.ofNanos(d.alphaNanos()))
                                .toNanos(),
                        c.positiveDuration("decrease-timer", Duration.ofNanos(d.decreaseNanos()))
                                .toNanos(),
                        c.positiveDuration("increase-timer", Duration.ofNanos(d.increaseNanos()))
                                .toNanos(),
                        c.intIn("fast-recovery", 0, 1000, d.fastRecovery()),
                        c.bandwidth("rate-ai", d.rateAiBps()),
                        c.bandwidth("rate-hai", d.rateHaiBps()),
                        c.bandwidth("min-rate", d.minRateBps()),
                        first,
                        c.bool("clamp-target", d.clampTarget())),
                dcqcn);
    }

    /** The job defaults with the file's control as every job's {@code congestion}, unless the defaults set it. */
    static ConfigReader jobDefaults(ConfigReader defaults, Congestion congestion) {
        if (!congestion.dcqcn() || defaults.has("congestion")) {
            return defaults;
        }
        return defaults.on(
                defaults.config().withValue("congestion", ConfigValueFactory.fromAnyRef("dcqcn")), "defaults.");
    }

    private static double unitInterval(ConfigReader c, String key, double dflt) {
        double v = c.positive(key, dflt);
        if (v > 1) {
            c.problem(key, c.label(key) + " must be at most 1, got " + v);
            return dflt;
        }
        return v;
    }

    /**
     * {@code topology} with the file's RED marking on every link when some traffic entry or job reacts
     * to marks (a host's NIC never marks: its queue is not limited), else {@code topology} itself.
     */
    static Topology marking(
            Topology topology, Congestion congestion, List<TrafficFlows.Spec> traffic, List<JobSpec> jobs) {
        boolean reacts = traffic.stream().anyMatch(t -> t.congestion() != null)
                || jobs.stream().anyMatch(j -> j.common().congestionControl());
        if (topology == null || !reacts) {
            return topology;
        }
        Dcqcn.Settings s = congestion.settings();
        return new Topology(
                topology.nodes(),
                topology.links().stream()
                        .map(l -> new Link(l.a(), l.b(), l.spec().withRed(s.kminBytes(), s.kmaxBytes(), s.pmax())))
                        .toList());
    }
}
