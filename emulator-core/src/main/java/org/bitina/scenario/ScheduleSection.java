package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bitina.job.JobSpec;

/**
 * Reads {@code schedule}, {@code worlds}, {@code alone} (top level) and each job's {@code start},
 * {@code after} and {@code admission} into a {@link Schedule}, checking what a shared run needs: the virtual clock,
 * only the faults a shared fabric applies (not a member loss or a malicious switch), and {@code after} naming other
 * jobs of the file without a cycle. Every problem is recorded at its key.
 */
final class ScheduleSection {
    private ScheduleSection() {}

    static Schedule read(ConfigReader root, List<JobSpec> jobs, List<FaultSpec> faults, Clock clock) {
        String mode = root.oneOf(
                "schedule",
                Arrays.stream(Schedule.Mode.values())
                        .map(Schedule.Mode::configName)
                        .toList(),
                Schedule.Mode.SEQUENTIAL.configName());
        boolean shared = Schedule.Mode.SHARED.configName().equals(mode);
        Map<String, Schedule.Start> starts = starts(root, shared);
        if (shared) {
            noElasticJobs(root);
        }
        Map<String, AdmissionMode> admissions = admissions(root);
        if (!shared) {
            for (String k : List.of("worlds", "alone")) {
                if (root.has(k)) {
                    root.problem(k, k + " is for schedule = shared (this file runs its jobs one after the other)");
                }
            }
            return admissions.isEmpty()
                    ? Schedule.SEQUENTIAL
                    : new Schedule(Schedule.Mode.SEQUENTIAL, List.of(), false, Map.of(), admissions);
        }
        List<Schedule.World> worlds = worlds(root);
        boolean alone = root.bool("alone", true);
        if (clock != Clock.VIRTUAL) {
            root.problem("schedule", "schedule = shared needs clock = virtual: the jobs start at modelled times");
        }
        refuseUnshared(root, faults, "under schedule = shared");
        Set<String> names = new HashSet<>();
        jobs.forEach(j -> names.add(j.name()));
        starts.forEach((job, s) -> s.after().forEach(a -> {
            if (!names.contains(a)) {
                root.problem("jobs", "job '" + job + "' starts after '" + a + "', which is no job of this file");
            } else if (a.equals(job)) {
                root.problem("jobs", "job '" + job + "' cannot start after itself");
            }
        }));
        String cycle = cycle(starts);
        if (cycle != null) {
            root.problem("jobs", "the jobs' after lists go round in a circle: " + cycle);
        }
        return new Schedule(Schedule.Mode.SHARED, worlds, alone, starts, admissions);
    }

    /** Each fault of a kind a shared fabric does not apply, refused at {@code faults} with why. */
    private static void refuseUnshared(ConfigReader root, List<FaultSpec> faults, String where) {
        for (FaultSpec f : faults) {
            String why = notShared(f.kind());
            if (why != null) {
                root.problem("faults", "a " + f.kind().configName() + " fault " + where + ": " + why);
            }
        }
    }

    /**
     * Why a fault of this kind cannot run beside several jobs, or null: the shared fabric applies
     * link, switch and loss faults to every job and flow on it (docs/shared-fabric.md).
     */
    private static String notShared(FaultSpec.Kind kind) {
        return switch (kind) {
            case MEMBER_LOSS ->
                "losing a cluster member ends the phase, and with it every job of the mix (run it under"
                        + " schedule = sequential)";
            case MALICIOUS_SWITCH ->
                "a malicious switch (S6) corrupts one AllReduce job's sums, checked by its sequential phase"
                        + " (run it under schedule = sequential)";
            default -> null;
        };
    }

    /** Each job's {@code admission} where it sets one (T2): strict or best-effort, under either schedule. */
    private static Map<String, AdmissionMode> admissions(ConfigReader root) {
        Map<String, AdmissionMode> out = new LinkedHashMap<>();
        List<String> names = Arrays.stream(AdmissionMode.values())
                .map(AdmissionMode::configName)
                .toList();
        for (ConfigReader job : jobs(root)) {
            if (!job.has("admission")) {
                continue;
            }
            String name = job.name("name", null);
            String mode = job.oneOf("admission", names, AdmissionMode.STRICT.configName());
            if (name != null && mode != null) {
                out.put(name, AdmissionMode.values()[names.indexOf(mode)]);
            }
        }
        return out;
    }

    /**
     * A workload's schedule: always shared (its collectives run on one fabric, each when the
     * workload's steps before it are done), per world, alone only when asked ({@code alone = true}:
     * a workload has many collectives, and its figures are the iteration's, not a job's slowdown).
     */
    static Schedule forWorkload(ConfigReader root, List<FaultSpec> faults, Clock clock, StartRule.Factory rule) {
        if (root.has("schedule") && !Schedule.Mode.SHARED.configName().equals(root.name("schedule", null))) {
            root.problem("schedule", "a workload runs its collectives on one fabric: schedule = shared or no schedule");
        }
        List<Schedule.World> worlds = worlds(root);
        boolean alone = root.bool("alone", false);
        if (clock != Clock.VIRTUAL) {
            root.problem("workload", "a workload needs clock = virtual: its steps start at modelled times");
        }
        refuseUnshared(root, faults, "beside a workload");
        return new Schedule(Schedule.Mode.SHARED, worlds, alone, Map.of(), Map.of(), Optional.of(rule));
    }

    private static List<Schedule.World> worlds(ConfigReader root) {
        if (!root.has("worlds")) {
            return List.of(Schedule.World.INA, Schedule.World.BASELINE);
        }
        List<String> named = root.names("worlds");
        if (named == null) {
            return List.of(Schedule.World.INA);
        }
        Set<Schedule.World> out = new LinkedHashSet<>();
        for (String w : named) {
            Schedule.World world = Arrays.stream(Schedule.World.values())
                    .filter(x -> x.configName().equals(w))
                    .findFirst()
                    .orElse(null);
            if (world == null) {
                root.problem("worlds", "unknown world '" + w + "' (expected ina or baseline)");
            } else if (!out.add(world)) {
                root.problem("worlds", "world '" + w + "' is listed twice");
            }
        }
        if (named.isEmpty()) {
            root.problem("worlds", "worlds names no world (write worlds = [ina, baseline])");
        }
        return List.copyOf(out);
    }

    /**
     * Under shared, an elastic job (several iterations, a membership plan) is a problem: a shared
     * world runs one phase per job, an elastic job one phase per iteration. Refused here, before
     * anything runs, not as rows that failed.
     */
    private static void noElasticJobs(ConfigReader root) {
        for (ConfigReader job : jobs(root)) {
            // iterations = 1 is one phase, as a job without the key (its value is checked with the job's keys)
            boolean once = !job.has("iterations")
                    || "1".equals(String.valueOf(job.value("iterations").unwrapped()));
            if (job.has("membership") || !once) {
                job.problem(
                        job.has("membership") ? "membership" : "iterations",
                        "an elastic job (iterations, membership) runs under schedule = sequential: a shared world"
                                + " runs one phase per job, an elastic job one per iteration");
            }
        }
    }

    /** Each entry of {@code jobs} that is an object, read for its keys (the others are the jobs section's problem). */
    private static List<ConfigReader> jobs(ConfigReader root) {
        ConfigList list = root.has("jobs") ? root.list("jobs") : null;
        List<ConfigReader> out = new ArrayList<>();
        for (int i = 0; list != null && i < list.size(); i++) {
            if (list.get(i) instanceof ConfigObject o) {
                out.add(root.on(o.toConfig(), ""));
            }
        }
        return out;
    }

    /** Each job's {@code start} and {@code after}; under sequential, either is a problem. */
    private static Map<String, Schedule.Start> starts(ConfigReader root, boolean shared) {
        Map<String, Schedule.Start> out = new LinkedHashMap<>();
        for (ConfigReader job : jobs(root)) {
            if (!job.has("start") && !job.has("after")) {
                continue;
            }
            if (!shared) {
                job.problem(
                        job.has("start") ? "start" : "after",
                        "start and after are for schedule = shared (this file runs its jobs one after the other)");
                continue;
            }
            if (job.has("start") && job.has("after")) {
                job.problem("after", "a job starts at a time or after other jobs, not both");
                continue;
            }
            String name = job.name("name", null);
            Duration at = job.nonNegativeDuration("start", Duration.ZERO);
            List<String> after = job.has("after") ? job.names("after") : List.of();
            if (name != null && at != null && after != null) {
                out.put(name, new Schedule.Start(at, after));
            }
        }
        return out;
    }

    /** A circle in the after lists, as {@code a -> b -> a}, or null. */
    private static String cycle(Map<String, Schedule.Start> starts) {
        for (String from : starts.keySet()) {
            List<String> path = new ArrayList<>();
            if (reaches(from, from, starts, path, new HashSet<>())) {
                return from + " -> " + String.join(" -> ", path);
            }
        }
        return null;
    }

    private static boolean reaches(
            String target, String at, Map<String, Schedule.Start> starts, List<String> path, Set<String> seen) {
        for (String next : starts.getOrDefault(at, Schedule.Start.ZERO).after()) {
            path.add(next);
            if (next.equals(target) || (seen.add(next) && reaches(target, next, starts, path, seen))) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }
}
