package org.bitina.scenario;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Resolves the {@code include} statements of a scenario file. {@code include "defaults"} is
 * a file next to the including one ({@code defaults.conf}, {@code .json} or
 * {@code .properties}), {@code include file("x")} is relative to the working directory as in
 * HOCON. Unlike HOCON's own includer, an include that finds nothing is a problem, whether
 * {@code required(...)} or not, and it names the paths looked for rather than a classpath
 * resource: a scenario that silently lost its defaults would run with other values than
 * its author meant.
 */
final class Includes implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL, ConfigIncluderClasspath {
    private static final List<String> EXTENSIONS = List.of(".conf", ".json", ".properties");

    /** One include that found nothing, and the statement as the file spells it. */
    private record Missing(Path includingFile, String statement, String name, String lookedFor) {}

    private final Path file;
    private final List<Missing> missing;
    /** The files being included, outermost first, this one last: a cycle is a file already in it. */
    private final List<Path> chain;

    private Includes(Path file, List<Missing> missing, List<Path> chain) {
        this.file = file;
        this.missing = missing;
        this.chain = chain;
    }

    /** An includer for the top-level scenario {@code file}. */
    static Includes forFile(Path file) {
        return new Includes(file, new ArrayList<>(), List.of(canonical(file)));
    }

    /** The file as the chain compares it: links resolved, so two names for one file are one. */
    private static Path canonical(Path f) {
        try {
            return f.toRealPath();
        } catch (IOException e) {
            return f.toAbsolutePath().normalize();
        }
    }

    @Override
    public ConfigIncluder withFallback(ConfigIncluder fallback) {
        return this;
    }

    @Override
    public ConfigObject include(ConfigIncludeContext context, String what) {
        Path p = Path.of(what);
        Path dir = file.getParent();
        Path beside = p.isAbsolute() || dir == null ? p : dir.resolve(p);
        if (what.equals(SHIPPED) && EXTENSIONS.stream().noneMatch(ext -> Files.isRegularFile(Path.of(beside + ext)))) {
            // a scenario copied out of topology-configs/ still finds the defaults it was written against
            return shippedDefaults(context);
        }
        return includePath(context, beside, "\"" + what + "\"", what);
    }

    /** The name whose include falls back to the defaults shipped with bitina when no such file is beside the scenario. */
    static final String SHIPPED = "defaults";

    private static final String SHIPPED_RESOURCE = "org/bitina/scenario/shipped/defaults.conf";

    /** topology-configs/defaults.conf as built into the jar. */
    private ConfigObject shippedDefaults(ConfigIncludeContext context) {
        URL url = Includes.class.getClassLoader().getResource(SHIPPED_RESOURCE);
        if (url == null) {
            return missing(
                    context,
                    "\"" + SHIPPED + "\"",
                    SHIPPED,
                    "no such file beside " + file + ", and no shipped defaults in this build");
        }
        return ConfigFactory.parseURL(url, options(context).setAllowMissing(false))
                .root();
    }

    @Override
    public ConfigObject includeFile(ConfigIncludeContext context, File what) {
        return includePath(context, what.toPath(), "file(\"" + what + "\")", what.toString());
    }

    @Override
    public ConfigObject includeResources(ConfigIncludeContext context, String what) {
        try {
            return ConfigFactory.parseResourcesAnySyntax(what, options(context).setAllowMissing(false))
                    .root();
        } catch (ConfigException.IO e) {
            return missing(context, "classpath(\"" + what + "\")", what, "no such classpath resource");
        }
    }

    @Override
    public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
        try {
            return ConfigFactory.parseURL(what, options(context).setAllowMissing(false))
                    .root();
        } catch (ConfigException.IO e) {
            return missing(context, "url(\"" + what + "\")", what.toString(), "nothing at " + what);
        }
    }

    private ConfigObject includePath(ConfigIncludeContext context, Path path, String statement, String name) {
        String fileName = path.getFileName() == null ? "" : path.getFileName().toString();
        List<Path> candidates = EXTENSIONS.stream().anyMatch(fileName::endsWith)
                ? List.of(path)
                : EXTENSIONS.stream()
                        .map(ext -> path.resolveSibling(fileName + ext))
                        .toList();
        List<Path> found = candidates.stream().filter(Files::isRegularFile).toList();
        if (found.isEmpty()) {
            String lookedFor = candidates.size() == 1
                    ? candidates.get(0).toString()
                    : candidates.get(0) + ", " + fileName + ".json or " + fileName + ".properties";
            return missing(context, statement, name, "no such file (looked for " + lookedFor + ")");
        }
        // as HOCON merges them: .conf over .json over .properties
        ConfigObject merged = null;
        for (Path f : found) {
            Path real = canonical(f);
            if (chain.contains(real)) {
                // HOCON would include it again and again until the stack overflows
                String cycle = Stream.concat(chain.subList(chain.indexOf(real), chain.size()).stream(), Stream.of(real))
                        .map(c -> c.getFileName().toString())
                        .collect(Collectors.joining(" -> "));
                return missing(context, statement, name, "include cycle: " + cycle);
            }
            Nesting.Deep deep = Nesting.tooDeep(f);
            if (deep != null) {
                return missing(context, statement, name, f + ":" + deep.line() + ": " + deep.message());
            }
            List<Path> longer = new ArrayList<>(chain);
            longer.add(real);
            ConfigParseOptions options = options(context)
                    .setAllowMissing(false)
                    .setSyntax(null)
                    .setIncluder(new Includes(f, missing, List.copyOf(longer)));
            ConfigObject o = ConfigFactory.parseFile(f.toFile(), options).root();
            merged = merged == null ? o : merged.withFallback(o);
        }
        return merged;
    }

    private static ConfigParseOptions options(ConfigIncludeContext context) {
        return context.parseOptions().setOriginDescription(null);
    }

    private ConfigObject missing(ConfigIncludeContext context, String statement, String name, String why) {
        boolean required = !context.parseOptions().getAllowMissing();
        missing.add(new Missing(file, "include " + (required ? "required(" + statement + ")" : statement), name, why));
        return ConfigFactory.empty().root();
    }

    /**
     * Records each include that found nothing at the line of its statement. The includer is
     * not told where the statement is, so the line is found in the text: the n-th missing
     * include of a name is blamed on the n-th statement that names it.
     */
    void report(Problems problems) {
        Map<String, Integer> seen = new HashMap<>();
        for (Missing m : missing) {
            int n = seen.merge(m.includingFile() + "\n" + m.name(), 1, Integer::sum);
            problems.add(
                    m.includingFile(), lineOf(m.includingFile(), m.name(), n), m.statement() + ": " + m.lookedFor());
        }
    }

    private static int lineOf(Path file, String name, int occurrence) {
        Pattern statement = Pattern.compile("\\binclude\\s+(required\\s*\\(\\s*)?((file|classpath|url)\\s*\\(\\s*)?\""
                + Pattern.quote(name) + "\"");
        try {
            List<String> lines = Files.readAllLines(file);
            int count = 0;
            for (int i = 0; i < lines.size(); i++) {
                if (statement.matcher(lines.get(i)).find() && ++count == occurrence) {
                    return i + 1;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the file was just parsed; if it cannot be read again, blame its first line
        }
        return 1;
    }
}
