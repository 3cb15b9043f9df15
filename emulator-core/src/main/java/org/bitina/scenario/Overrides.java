package org.bitina.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOriginFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The command line's {@code --set path=value} (ns-3's {@code --x=}): a change to the scenario
 * file applied before it is validated, so a bad value is a problem like any other. A path that
 * starts with a section ({@code topology.link-defaults.latency=2us}, {@code clock=real})
 * applies there; {@code jobs.NAME.path} to one job; any other path ({@code data.elements=4096},
 * {@code completion-timeout=1ms}) to every job that has it, or, when none has it, to every job
 * whose kind takes its first key. The value is HOCON: a number, a word, a duration, a list.
 *
 * @param path  where, as written
 * @param value the value, as written
 */
public record Overrides(List<Override> all) {
    public static final Overrides NONE = new Overrides(List.of());

    /** One {@code --set}. */
    public record Override(String path, String value) {
        public String text() {
            return path + "=" + value;
        }
    }

    /** The file's sections but the jobs (a job key goes to the jobs): the schema's top level. */
    private static final Set<String> SECTIONS =
            ScenarioKeys.ROOT.names().stream().filter(k -> !k.equals("jobs")).collect(Collectors.toUnmodifiableSet());

    public Overrides {
        all = List.copyOf(all);
    }

    /** {@code path=value} strings as the command line has them; a malformed one is an IllegalArgumentException saying so. */
    public static Overrides parse(List<String> sets) {
        List<Override> out = new ArrayList<>();
        for (String s : sets == null ? List.<String>of() : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                throw new IllegalArgumentException("--set " + s + ": write path=value, e.g. --set data.elements=4096");
            }
            out.add(new Override(s.substring(0, eq).trim(), s.substring(eq + 1).trim()));
        }
        return new Overrides(out);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    /** {@code config} with every override applied, in order; a bad path or value is a ConfigException. */
    Config apply(Config config, List<JobReader> readers) {
        for (Override o : all) {
            ConfigValue value = value(o);
            String first = o.path().split("\\.", 2)[0];
            if (SECTIONS.contains(first)) {
                config = config.withValue(o.path(), value);
            } else if (first.equals("jobs")) {
                String[] parts = o.path().split("\\.", 3);
                if (parts.length < 3) {
                    throw new ConfigException.BadPath(
                            o.path(), "--set jobs.NAME.key=value changes one job (" + o.text() + ")");
                }
                config = jobs(config, parts[1], parts[2], value, o, readers);
            } else {
                config = jobs(config, null, o.path(), value, o, readers);
            }
        }
        return config;
    }

    private static ConfigValue value(Override o) {
        try {
            return ConfigFactory.parseString("v = " + o.value())
                    .getValue("v")
                    .withOrigin(ConfigOriginFactory.newSimple("--set " + o.text()));
        } catch (ConfigException e) {
            throw new ConfigException.BadValue(o.path(), "--set " + o.text() + ": not a HOCON value", e);
        }
    }

    /** Whether a job's kind takes {@code path}'s first key. */
    private static boolean takes(ConfigObject job, String path, List<JobReader> readers) {
        String first = path.split("\\.", 2)[0];
        return JobsSection.accepts(readers, String.valueOf(job.unwrapped().get("kind")), first);
    }

    /** The jobs list with {@code path} set in the job named {@code name} (null: as the class says). */
    private static Config jobs(
            Config config, String name, String path, ConfigValue value, Override o, List<JobReader> readers) {
        if (!config.hasPath("jobs") || config.getValue("jobs").valueType() != ConfigValueType.LIST) {
            throw new ConfigException.BadPath(
                    o.path(), "--set " + o.text() + ": the scenario has no jobs list to set it in");
        }
        List<ConfigValue> jobs = new ArrayList<>();
        boolean found = false;
        ConfigList all = (ConfigList) config.getValue("jobs");
        // every job that has the key; when none has it, every job whose kind takes it
        boolean anyHas = all.stream()
                .anyMatch(j -> j instanceof ConfigObject obj && obj.toConfig().hasPath(path));
        for (ConfigValue j : all) {
            if (j instanceof ConfigObject obj
                    && (name == null
                            ? (anyHas ? obj.toConfig().hasPath(path) : takes(obj, path, readers))
                            : name.equals(String.valueOf(obj.unwrapped().get("name"))))) {
                found = true;
                jobs.add(obj.toConfig().withValue(path, value).root());
            } else {
                jobs.add(j);
            }
        }
        if (!found) {
            throw new ConfigException.BadPath(
                    o.path(),
                    "--set " + o.text() + ": "
                            + (name == null ? "no job takes that key" : "no job is named '" + name + "'"));
        }
        return config.withValue("jobs", ConfigValueFactory.fromIterable(jobs));
    }
}
