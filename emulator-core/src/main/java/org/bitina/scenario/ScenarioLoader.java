package org.bitina.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.FaultSpec;
import org.bitina.usecase.JobSpec;
import org.bitina.topology.Problem;
import org.bitina.topology.ScenarioException;
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
    private static final Set<String> KEYS = Set.of("topology", "jobs", "faults", "cluster", "defaults", "defs", "clock");

    private ScenarioLoader() {
    }

    /** Loads and validates {@code file}; throws with every problem found. */
    public static Scenario load(Path file) throws ScenarioException {
        Problems problems = new Problems(file);
        if (!Files.isRegularFile(file)) {
            throw new ScenarioException(List.of(new Problem(problems.displayName(), 1, "no such file")));
        }
        Includes includes = Includes.forFile(file);
        Config config;
        try {
            config = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
                    .setAllowMissing(false).setIncluder(includes)).resolve();
        } catch (ConfigException e) {
            includes.report(problems);
            problems.add(e.origin(), withoutOrigin(e));
            throw new ScenarioException(problems.sorted());
        }
        includes.report(problems);
        ConfigReader root = ConfigReader.of(config, "", problems);
        root.checkKeys(KEYS, "a scenario");
        Topology topology = null;
        if (!root.has("topology")) {
            root.problem(root.origin(), "missing 'topology' section");
        } else {
            ConfigReader t = root.object("topology");
            topology = t == null ? null : TopologySection.read(t);
        }
        ConfigReader defaults = root.objectOrEmpty("defaults");
        List<JobSpec> jobs = JobsSection.read(root, topology, defaults == null ? root.empty("defaults") : defaults);
        List<FaultSpec> faults = FaultSection.read(root, topology);
        ConfigReader c = root.object("cluster");
        ClusterSpec cluster = c == null ? ClusterSpec.SINGLE : ClusterSection.read(c, topology);
        Clock clock = readClock(root);
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems.sorted());
        }
        return new Scenario(problems.displayName(), topology, List.copyOf(jobs), List.copyOf(faults), cluster, clock);
    }

    private static Clock readClock(ConfigReader root) {
        String name = root.oneOf("clock", java.util.Arrays.stream(Clock.values()).map(Clock::configName).toList(),
                Clock.VIRTUAL.configName());
        return name == null ? Clock.VIRTUAL : Clock.fromConfig(name);
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
