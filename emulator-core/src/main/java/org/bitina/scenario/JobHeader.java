package org.bitina.scenario;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitina.job.Expect;
import org.bitina.job.JobCommon;
import org.bitina.job.Mode;
import org.bitina.job.RecoverySettings;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Topology;

/** The keys every job has, whatever its kind: name, kind, tenant, id, completion timeout, baselines and what to expect. */
public record JobHeader(
        String name,
        int tenant,
        int id,
        Duration completionTimeout,
        List<Mode> baselines,
        Expect expect,
        RecoverySettings recovery,
        boolean congestionControl) {
    private static final Duration DEFAULT_COMPLETION_TIMEOUT = ConfigSchema.DEFAULT_COMPLETION_TIMEOUT;

    /**
     * The header of {@code c}, or null when a value is missing or bad (recorded).
     *
     * @param allowedBaselines the baselines this kind can be compared with, in the order to list them
     * @param topology         the topology, for host selectors in {@code expect}'s missing lists; null when it is broken
     */
    public static JobHeader read(
            ConfigReader c, int index, String kind, List<Mode> allowedBaselines, Topology topology) {
        int before = c.problems().count();
        String name = c.requiredName("name", "a job's name");
        int tenant = c.intIn("tenant", 0, 0xFFFF, 0);
        // every block of wire job ids holds it (job.WireJobs)
        int id = c.intIn("id", 1, WireJobs.MAX_JOB_ID, index + 1);
        Duration timeout = c.positiveDuration("completion-timeout", DEFAULT_COMPLETION_TIMEOUT);
        List<String> names = c.has("baselines") ? c.names("baselines") : List.of();
        List<Mode> baselines = null;
        if (names != null) {
            // parsed once here: from now on a baseline is one of the kind's own modes
            baselines = new ArrayList<>();
            for (String b : names) {
                Mode m = b.isBlank() ? null : Mode.of(b);
                if (m == null || !allowedBaselines.contains(m)) {
                    c.problem(
                            "baselines",
                            "unknown baseline '" + b + "' for a " + kind + " job (expected "
                                    + allowedBaselines.stream().map(Mode::name).collect(Collectors.joining(" or "))
                                    + ")");
                }
                if (m != null) {
                    baselines.add(m);
                }
            }
            baselines = List.copyOf(baselines);
        }
        Expect expect = c.has("expect") ? expect(c, baselines == null ? List.of() : baselines, topology) : null;
        RecoverySettings recovery = c.has("recovery") ? recovery(c) : RecoverySettings.NONE;
        // the file's congestion.control reaches every job through its defaults (ScenarioLoader)
        boolean congestion = "dcqcn".equals(c.oneOf("congestion", CongestionSection.CONTROLS, "none"));
        return c.problems().since(before)
                ? null
                : new JobHeader(name, tenant, id, timeout, baselines, expect, recovery, congestion);
    }

    /** {@code recovery { rto-min = 10us, rto-max = 5ms, max-sends = 8 }}: bounds on every endpoint's retransmission rule. */
    private static RecoverySettings recovery(ConfigReader c) {
        ConfigReader r = c.object("recovery");
        if (r == null) {
            return RecoverySettings.NONE;
        }
        r.checkKeys(JobKeys.RECOVERY, "a job's recovery");
        Duration min = r.positiveDuration("rto-min", null);
        Duration max = r.positiveDuration("rto-max", null);
        // PhaseEstimate.ALLOWED_PER_PLANNED: past 32 sends of a packet a phase reads as a storm
        int sends = r.intIn("max-sends", 1, 32, 0);
        if (min == null && r.has("rto-min") || max == null && r.has("rto-max")) {
            return RecoverySettings.NONE; // recorded
        }
        if (min != null && max != null && min.compareTo(max) > 0) {
            r.problem("rto-min", "rto-min (" + min + ") is above rto-max (" + max + ")");
            return RecoverySettings.NONE;
        }
        return new RecoverySettings(min == null ? 0 : min.toNanos(), max == null ? 0 : max.toNanos(), sends);
    }

    /**
     * {@code expect { ina = partial, ring = failed, missing = [h16] }}: each key a mode the job
     * runs (ina or one of its baselines) with the status it must end as, or an object
     * {@code { status = failed, missing = [...] }}; the top-level {@code missing} is what every
     * partial mode must name missing, exactly.
     */
    private static Expect expect(ConfigReader c, List<Mode> baselines, Topology topology) {
        ConfigReader e = c.object("expect");
        if (e == null) {
            return null;
        }
        int before = c.problems().count();
        List<Mode> modes = new ArrayList<>(List.of(Mode.INA));
        modes.addAll(baselines);
        List<String> statusNames =
                Arrays.stream(Status.values()).map(Status::label).toList();
        Set<String> partialMissing = null;
        if (e.has("missing")) {
            partialMissing = missing(e, topology);
        }
        Map<Mode, Expect.Outcome> outcomes = new LinkedHashMap<>();
        for (String key : e.keys()) {
            if (key.equals("missing")) {
                continue;
            }
            Mode mode =
                    modes.stream().filter(m -> m.name().equals(key)).findFirst().orElse(null);
            if (mode == null) {
                e.problem(
                        key,
                        "expect names mode '" + key + "', which this job does not run (it runs "
                                + modes.stream().map(Mode::name).collect(Collectors.joining(", ")) + ")");
                continue;
            }
            Status status;
            Set<String> missing;
            if (e.value(key).valueType() == ConfigValueType.OBJECT) {
                ConfigReader m = e.object(key);
                m.checkKeys(JobKeys.OUTCOME, "an expected outcome");
                String s = m.oneOf("status", statusNames, null);
                status = s == null ? null : Status.valueOf(s.toUpperCase(Locale.ROOT));
                missing = m.has("missing") ? missing(m, topology) : null;
            } else {
                String s = e.oneOf(key, statusNames, null);
                status = s == null ? null : Status.valueOf(s.toUpperCase(Locale.ROOT));
                missing = null;
            }
            if (status == null) {
                continue;
            }
            if (status == Status.COMPLETE) {
                missing = Set.of();
            } else if (missing == null && status == Status.PARTIAL) {
                missing = partialMissing;
                if (missing == null) {
                    e.problem(key, "expect: a partial " + key + " names who is missing (missing = [...])");
                }
            }
            outcomes.put(mode, new Expect.Outcome(status, missing));
        }
        if (outcomes.isEmpty() && !c.problems().since(before)) {
            e.problem(e.origin(), "expect names no mode (write e.g. expect { ina = partial, missing = [h3] })");
        }
        return new Expect(outcomes);
    }

    public JobCommon common(String kind, List<String> members, BitSpace space, EncodingSpec encoding) {
        return new JobCommon(
                name,
                kind,
                tenant,
                id,
                members,
                space,
                encoding,
                completionTimeout,
                baselines,
                expect,
                recovery,
                congestionControl);
    }

    /**
     * The hosts of {@code c}'s missing list as a set, or null when bad (recorded); a host named
     * twice is an error at the element that names it again, as in every host list.
     */
    private static Set<String> missing(ConfigReader c, Topology topology) {
        List<? extends ConfigValue> elements = HostLists.elements(c, "missing");
        List<HostLists.Named> named =
                elements == null ? null : HostLists.expand(c, elements, topology, "a missing host", Set.of());
        if (named == null) {
            return null;
        }
        Set<String> seen = new LinkedHashSet<>();
        for (HostLists.Named n : named) {
            if (!seen.add(n.name())) {
                c.problem(n.from().origin(), "missing host '" + n.name() + "' is listed twice");
            }
        }
        return Set.copyOf(seen);
    }
}
