package org.bitina.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.protocol.TrafficFlows;
import org.bitina.security.AttackSpec;
import org.bitina.security.IngressPolicy;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.Topology;

/**
 * Reads a scenario file (HOCON, requirement E3) into a validated {@link Scenario}: the file
 * and its includes, then the topology, jobs, faults and cluster sections. Every problem of the
 * file is collected with the file and line of the offending value and reported at once; a
 * broken topology does not stop the jobs from being checked for their own keys and values.
 * Nothing is returned unless the whole file is valid: a bad file never half-runs. The format
 * is described in the README; topology-configs/ has examples of every part.
 */
public final class ScenarioLoader {

    private ScenarioLoader() {}

    /** Loads and validates {@code file} for this JVM's heap; throws with every problem found. */
    public static Scenario load(Path file) throws ScenarioException {
        return load(file, Runtime.getRuntime().maxMemory());
    }

    /** Loads and validates {@code file} for a run with {@code heapBytes} of heap; throws with every problem found. */
    public static Scenario load(Path file, long heapBytes) throws ScenarioException {
        return load(file, heapBytes, Overrides.NONE);
    }

    /** {@code file} with the command line's {@code --set} changes applied before it is validated. */
    public static Scenario load(Path file, long heapBytes, Overrides overrides) throws ScenarioException {
        return load(file, heapBytes, overrides, JobKinds.installed());
    }

    /** As {@link #load(Path, long, Overrides)}, with the kinds of job {@code kinds} has. */
    public static Scenario load(Path file, long heapBytes, Overrides overrides, JobKinds kinds)
            throws ScenarioException {
        return load(file, heapBytes, overrides, kinds, 0);
    }

    /**
     * As {@link #load(Path, long, Overrides)}, for draw {@code draw} of a repeated run: every
     * seed of the file moved to that draw's ({@link Seeds}); draw 0 is the file as written.
     */
    public static Scenario load(Path file, long heapBytes, Overrides overrides, int draw) throws ScenarioException {
        return load(file, heapBytes, overrides, JobKinds.installed(), draw);
    }

    private static Scenario load(Path file, long heapBytes, Overrides overrides, JobKinds kinds, int draw)
            throws ScenarioException {
        Problems problems = new Problems(file);
        String unreadable = unreadable(file);
        if (unreadable != null) {
            throw new ScenarioException(List.of(new Problem(problems.displayName(), 1, unreadable)));
        }
        Nesting.Deep deep = Nesting.tooDeep(file);
        if (deep != null) {
            throw new ScenarioException(List.of(new Problem(problems.displayName(), deep.line(), deep.message())));
        }
        Includes includes = Includes.forFile(file);
        Config config;
        try {
            config = ConfigFactory.parseFile(
                            file.toFile(),
                            ConfigParseOptions.defaults()
                                    .setSyntax(ConfigSyntax.CONF)
                                    .setAllowMissing(false)
                                    .setIncluder(includes))
                    .resolve();
            config = overrides.apply(config, kinds.readers());
        } catch (ConfigException e) {
            includes.report(problems);
            problems.add(e.origin(), withoutOrigin(e));
            throw new ScenarioException(problems.sorted());
        } catch (StackOverflowError e) {
            // Nesting keeps files shallow; this is the guard for whatever recursion it did not foresee
            includes.report(problems);
            problems.add(file, 1, "too deeply nested or self-referring to read");
            throw new ScenarioException(problems.sorted());
        }
        includes.report(problems);
        adjacentObjects(file, problems);
        ConfigReader root = ConfigReader.of(config, "", problems, draw);
        root.checkKeys(ScenarioKeys.ROOT, "a scenario");
        Topology topology = null;
        Scenario.StateCapacity capacity = Scenario.StateCapacity.UNLIMITED;
        if (!root.has("topology")) {
            root.problem(root.origin(), "missing 'topology' section");
        } else {
            ConfigReader t = root.object("topology");
            topology = t == null ? null : TopologySection.read(t);
            if (t != null) {
                capacity = TopologySection.capacity(t, topology);
            }
        }
        JobKinds.Workload workload = null;
        if (root.has("workload")) {
            workload = workload(root, topology, file, kinds);
        }
        // a workload's collectives are the file's jobs, read by their kinds' readers like any other
        ConfigReader jobsRoot = workload == null
                ? root
                : root.on(
                        config.withValue(
                                "jobs",
                                ConfigValueFactory.fromIterable(workload.jobs().stream()
                                        .map(Config::root)
                                        .toList())),
                        "");
        ConfigReader defaults = root.objectOrEmpty("defaults");
        if (defaults != null) {
            // job keys only: a typo here would otherwise be behind every job, unread and unsaid
            defaults.checkKeys(JobKeys.job(kinds.readers()), "defaults (job keys)");
        }
        Scenario.Security security = readSecurity(root);
        CongestionSection.Congestion congestion = CongestionSection.read(root);
        List<JobSpec> jobs = JobsSection.read(
                jobsRoot,
                topology,
                CongestionSection.jobDefaults(defaults == null ? root.empty("defaults") : defaults, congestion),
                heapBytes,
                security.maxCompletionTimeout(),
                kinds);
        List<FaultSpec> faults = FaultSection.read(root, topology);
        // what a job's faults ask that this version does not build is said before anything runs
        kinds.unbuiltFaults(jobs, faults).forEach(m -> root.problem("faults", m));
        ConfigReader c = root.object("cluster");
        ClusterSpec cluster = c == null ? ClusterSpec.SINGLE : ClusterSection.read(c, topology);
        Clock clock = readClock(root);
        List<AttackSpec> attacks = AttackSection.read(root, topology, jobs, security, kinds.readers());
        Schedule schedule = workload == null
                ? ScheduleSection.read(root, jobs, faults, clock)
                : ScheduleSection.forWorkload(root, faults, clock, workload.starts());
        List<TrafficFlows.Spec> traffic = TrafficSection.read(root, topology, jobs, schedule.shared(), congestion);
        Topology marked = CongestionSection.marking(topology, congestion, traffic, jobs);
        if (marked != topology) {
            topology = marked;
            Topology on = marked;
            faults = faults.stream().map(f -> f.on(on)).toList();
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems.sorted());
        }
        Scenario scenario = new Scenario(
                problems.displayName(),
                topology,
                List.copyOf(jobs),
                List.copyOf(faults),
                cluster,
                clock,
                security,
                List.copyOf(attacks),
                capacity,
                schedule,
                traffic,
                new Scenario.Repeat(readRuns(root), draw),
                congestion.settings());
        wireBudget(scenario, jobsRoot, kinds);
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems.sorted());
        }
        return scenario;
    }

    /**
     * The jobs of the {@code workload} section, or null (a problem recorded): a file with a
     * workload lists no jobs of its own, and its topology must be valid to place the ranks.
     */
    private static JobKinds.Workload workload(ConfigReader root, Topology topology, Path file, JobKinds kinds) {
        ConfigReader w = root.object("workload");
        if (w == null) {
            return null;
        }
        if (root.has("jobs")) {
            root.problem("jobs", "a file with a workload lists no jobs: the workload's collectives are its jobs");
            return null;
        }
        if (topology == null) {
            return null;
        }
        Path dir = file.toAbsolutePath().getParent();
        return kinds.workload(w, topology, dir == null ? Path.of(".") : dir);
    }

    /** Why {@code file} cannot be read as a scenario (missing, a folder, a device or FIFO), or null. */
    static String unreadable(Path file) {
        if (Files.isDirectory(file)) {
            return "is a folder, not a scenario file";
        }
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (!Files.isRegularFile(file)) {
            // /dev/null reads as an empty file and a FIFO blocks until written: neither is a scenario
            return "is not a regular file (a device, FIFO or socket)";
        }
        if (!Files.isReadable(file)) {
            return "cannot be read (permission denied)";
        }
        return null;
    }

    /**
     * H2: every packet fits every link it crosses, its endpoint set in the job's encoding
     * (the kinds' {@link JobKinds#wireBudget}); a job that does not is a problem at its key
     * (the chunk, the packet size), or at the job.
     */
    private static void wireBudget(Scenario scenario, ConfigReader root, JobKinds kinds) {
        List<JobKinds.JobProblem> excess = kinds.wireBudget(scenario);
        if (excess.isEmpty()) {
            return;
        }
        ConfigList list = root.list("jobs");
        for (JobKinds.JobProblem e : excess) {
            int i = scenario.jobs().indexOf(e.job());
            ConfigReader job = root.on(((ConfigObject) list.get(i)).toConfig(), "");
            Config c = job.config();
            String key = c.hasPath(e.key()) ? e.key() : c.hasPath("encoding") ? "encoding" : null;
            job.problem(key == null ? job.origin() : c.getValue(key).origin(), e.message());
        }
    }

    private static Scenario.Security readSecurity(ConfigReader root) {
        ConfigReader s = root.objectOrEmpty("security");
        if (s == null) {
            return Scenario.Security.DEFAULT;
        }
        s.checkKeys(ScenarioKeys.SECURITY, "security");
        String mac = s.oneOf("mac", List.of("on", "off"), "on");
        Duration max = s.positiveDuration("max-completion-timeout", Scenario.Security.DEFAULT.maxCompletionTimeout());
        IngressPolicy.RateLimit rate = null;
        ConfigReader r = s.has("rate-limit") ? s.object("rate-limit") : null;
        if (r != null) {
            r.checkKeys(ScenarioKeys.RATE_LIMIT, "security.rate-limit");
            Integer perSecond = r.requiredInt("packets-per-second", 1, Integer.MAX_VALUE);
            Integer burst = r.requiredInt("burst", 1, 1 << 20);
            if (perSecond != null && burst != null) {
                rate = new IngressPolicy.RateLimit(perSecond, burst);
            }
        }
        return new Scenario.Security(!"off".equals(mac), max, rate);
    }

    /** {@code repeat { runs = N }}: how many draws a run makes (1 unless the file asks; {@code --repeat} overrides). */
    private static int readRuns(ConfigReader root) {
        ConfigReader r = root.object("repeat");
        if (r == null) {
            return 1;
        }
        r.checkKeys(ScenarioKeys.REPEAT, "repeat");
        return r.intIn("runs", 1, Scenario.Repeat.MAX_RUNS, 1);
    }

    private static Clock readClock(ConfigReader root) {
        String name = root.oneOf(
                "clock", Arrays.stream(Clock.values()).map(Clock::configName).toList(), Clock.VIRTUAL.configName());
        return name == null ? Clock.VIRTUAL : Clock.fromConfig(name);
    }

    /**
     * HOCON merges two objects written next to each other ({@code { a = 1 } { b = 2 }}) into one:
     * in a list, two faults without a comma between them become one fault, silently. Written
     * out on one line in a scenario file that is always a missing comma, so it is an error at its line. A
     * substitution followed by an object ({@code ${defs.data} { seed = 3 }}) is a deliberate
     * merge and stays allowed.
     */
    private static void adjacentObjects(Path file, Problems problems) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException | UncheckedIOException e) {
            return; // the parser has said what is wrong with reading it
        }
        for (int i = 0; i < lines.size(); i++) {
            // a newline separates list elements as a comma does: only objects on one line merge
            boolean afterObject = false;
            String code = lines.get(i)
                    .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
                    .replaceAll("(#|//).*$", "")
                    .replaceAll("\\$\\{[^}]*\\}", "S");
            for (int c = 0; c < code.length(); c++) {
                char ch = code.charAt(c);
                if (Character.isWhitespace(ch)) {
                    continue;
                }
                if (ch == '{' && afterObject) {
                    problems.add(
                            file,
                            i + 1,
                            "two objects next to each other on one line merge into one: a comma is missing between them");
                }
                afterObject = ch == '}';
            }
        }
    }

    /** HOCON puts the origin in front of its messages; the problem carries it already. */
    private static String withoutOrigin(ConfigException e) {
        String m = e.getMessage();
        if (e.origin() != null) {
            String prefix = e.origin().description() + ": ";
            if (m.startsWith(prefix)) {
                m = m.substring(prefix.length());
            }
        }
        return m;
    }
}
