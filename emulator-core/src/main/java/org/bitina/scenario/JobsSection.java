package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitina.job.JobSpec;
import org.bitina.topology.Topology;

/**
 * Reads the {@code jobs} list: picks each job's reader by its kind, holds the job to that
 * kind's keys, and checks what concerns jobs together (unique names, unique tenant and id).
 */
public final class JobsSection {
    private JobsSection() {}

    /** Whether a job of {@code kind} takes {@code key} (a kind nobody knows takes none). */
    static boolean accepts(List<JobReader> readers, String kind, String key) {
        return readers.stream().anyMatch(r -> r.kind().equals(kind) && r.keys().contains(key));
    }

    /**
     * The valid jobs of {@code root}'s {@code jobs} list; the others are problems.
     *
     * @param topology null when the topology section is broken: jobs are still checked for their own keys and values
     * @param defaults the scenario's {@code defaults} section, behind every job's own values
     */
    public static List<JobSpec> read(ConfigReader root, Topology topology, ConfigReader defaults, JobKinds kinds) {
        return read(root, topology, defaults, Long.MAX_VALUE, Duration.ofDays(1), kinds);
    }

    /**
     * @param heapBytes  the heap the run will have: a job that needs more is refused here, not out of memory mid-run
     * @param maxTimeout the longest completion timeout the scenario allows (S5)
     * @param kinds      the kinds of job there are
     */
    public static List<JobSpec> read(
            ConfigReader root,
            Topology topology,
            ConfigReader defaults,
            long heapBytes,
            Duration maxTimeout,
            JobKinds kinds) {
        List<JobSpec> jobs = new ArrayList<>();
        ConfigList list = root.list("jobs");
        if (list == null) {
            return jobs;
        }
        Set<String> names = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            ConfigValue v = list.get(i);
            if (root.objectOf(v, root.label("jobs[" + i + "]"), "{ name = ..., kind = ... }") == null) {
                continue;
            }
            ConfigReader own = root.on(((ConfigObject) v).toConfig(), "");
            ConfigReader job = own.withFallback(defaults);
            JobSpec spec = job(own, job, topology, i, kinds.readers());
            if (spec == null) {
                continue;
            }
            if (spec.common().expect() != null && topology != null) {
                for (String m : spec.common().expect().named()) {
                    if (!topology.has(m) || topology.node(m).isSwitch()) {
                        job.problem("expect", "expect names '" + m + "' missing, which is no host of the topology");
                    }
                }
            }
            if (spec.common().completionTimeout().compareTo(maxTimeout) > 0) {
                job.problem(
                        "completion-timeout",
                        "completion-timeout of "
                                + spec.common().completionTimeout().toMillis() + " ms is longer"
                                + " than the scenario allows (security.max-completion-timeout = "
                                + maxTimeout.toMillis() + " ms): a switch"
                                + " would hold soft state that long for one aggregation");
            }
            long need = kinds.memoryBytes(spec);
            if (need > heapBytes) {
                job.problem(
                        v.origin(),
                        "job " + spec.name() + " needs about " + size(need)
                                + " for its data and references; the JVM has " + size(heapBytes)
                                + " (BITINA_JAVA_OPTS=-Xmx...)");
            }
            if (!names.add(spec.name())) {
                job.problem("name", "duplicate job name '" + spec.name() + "'");
            }
            String key = spec.common().tenant() + "/" + spec.common().id();
            if (!ids.add(key)) {
                job.problem(
                        v.origin(),
                        "job '" + spec.name() + "' reuses tenant "
                                + spec.common().tenant() + " job id "
                                + spec.common().id() + "; (tenant, id) names one job");
            }
            jobs.add(spec);
        }
        return jobs;
    }

    /** 18 GiB, 300 MiB: as a user sets a heap. */
    static String size(long bytes) {
        double gib = bytes / (double) (1L << 30);
        return gib >= 1
                ? String.format(Locale.ROOT, "%.0f GiB", Math.ceil(gib))
                : String.format(Locale.ROOT, "%d MiB", (bytes + (1 << 20) - 1) >> 20);
    }

    private static JobSpec job(
            ConfigReader own, ConfigReader job, Topology topology, int index, List<JobReader> readers) {
        String kind = job.requiredName("kind", "a job's kind");
        JobReader reader =
                readers.stream().filter(r -> r.kind().equals(kind)).findFirst().orElse(null);
        if (reader == null) {
            if (kind != null) {
                job.problem(
                        "kind",
                        "unknown job kind '" + kind + "' (expected one of "
                                + readers.stream().map(JobReader::kind).collect(Collectors.joining(", ")) + ")");
            }
            job.requiredName("name", "a job's name");
            return null;
        }
        checkKeys(own, reader, readers);
        job.listed(reader.keys());
        return reader.read(job, topology, index, JobKeys.data(readers));
    }

    /** A key of another kind of job gets its own message: it is a job meant as another kind, or a key in the wrong job. */
    private static void checkKeys(ConfigReader own, JobReader reader, List<JobReader> readers) {
        for (Map.Entry<String, ConfigValue> e :
                ConfigReader.inFileOrder(own.config().root())) {
            String key = e.getKey();
            if (reader.keys().contains(key)) {
                continue;
            }
            List<String> others = readers.stream()
                    .filter(r -> r.keys().contains(key))
                    .map(JobReader::kind)
                    .toList();
            String job = JobReader.article(reader.kind()) + reader.kind() + " job (" + reader.kind() + " keys: "
                    + ConfigReader.keyList(reader.keys()) + ")";
            own.problem(
                    e.getValue().origin(),
                    others.isEmpty()
                            ? "unknown key '" + key + "' in " + job
                            : "key '" + key + "' is for " + inWords(others) + " jobs, not for " + job);
        }
    }

    /** "a", "a and b", "a, b and c": the kinds a key belongs to, as a sentence lists them. */
    private static String inWords(List<String> kinds) {
        if (kinds.size() <= 2) {
            return String.join(" and ", kinds);
        }
        return String.join(", ", kinds.subList(0, kinds.size() - 1)) + " and " + kinds.get(kinds.size() - 1);
    }
}
