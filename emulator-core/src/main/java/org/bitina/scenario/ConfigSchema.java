package org.bitina.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The scenario file's keys, section by section: name, type, default, unit, which kinds take it,
 * an example and what it means. Every reader's unknown-key check takes its key set from here
 * ({@link ConfigReader#checkKeys(Section, String, String)}), and a reader that asks for a key its
 * section does not list fails at once (a programming error, caught by any test that reads it), so
 * what the loader reads and what is documented cannot drift; {@code docs/configuration.md} is
 * generated from it ({@link #markdown}; a test keeps the file current). The sections themselves
 * are in {@link ScenarioKeys} (top level, topology, cluster, security, faults, attacks) and
 * {@link JobKeys} (jobs, merged from each kind's reader, and the sections every kind shares; each
 * kind's own sections come from its reader).
 */
public final class ConfigSchema {
    private ConfigSchema() {}

    /**
     * One key. {@code kinds}: "" where the section has no kinds, "all" for every kind, else the
     * kinds (of job, fault, attack or generator, as the section says) that take it, comma-separated.
     * A name in angle brackets ({@code <node>}) stands for keys the file chooses (node names, modes).
     */
    public record Key(
            String name, String type, String defaultValue, String unit, String kinds, String example, String doc) {
        public boolean takenBy(String kind) {
            return kinds.isEmpty() || kinds.equals("all") || kindList().contains(kind);
        }

        public List<String> kindList() {
            return kinds.isEmpty() || kinds.equals("all")
                    ? List.of()
                    : Arrays.stream(kinds.split(",")).map(String::strip).toList();
        }

        /** Whether the file chooses this key's name (a node, a mode): not a fixed key. */
        public boolean placeholder() {
            return name.startsWith("<");
        }
    }

    /**
     * A section of the file: its path ({@code topology}, {@code faults[]}), what it is, which kinds
     * its {@code kinds} column names ("" when none) and its keys.
     */
    public record Section(String path, String doc, String kindsOf, List<Key> keys) {
        public Section(String path, String doc, List<Key> keys) {
            this(path, doc, "", keys);
        }

        /** Every fixed key of the section, whatever the kind. */
        public Set<String> names() {
            Set<String> s = new LinkedHashSet<>();
            keys.stream().filter(k -> !k.placeholder()).forEach(k -> s.add(k.name()));
            return Set.copyOf(s);
        }

        /** The fixed keys a {@code kind} takes; every key when {@code kind} is null (unknown). */
        public Set<String> names(String kind) {
            if (kind == null) {
                return names();
            }
            Set<String> s = new LinkedHashSet<>();
            keys.stream().filter(k -> !k.placeholder() && k.takenBy(kind)).forEach(k -> s.add(k.name()));
            return Set.copyOf(s);
        }

        /** The kinds that take {@code key}, in the schema's order. */
        public List<String> kindsTaking(String key) {
            return keys.stream()
                    .filter(k -> k.name().equals(key))
                    .findFirst()
                    .map(Key::kindList)
                    .orElse(List.of());
        }

        public boolean hasKinds() {
            return keys.stream().anyMatch(k -> !k.kinds().isEmpty());
        }
    }

    /** A job's completion timeout when neither it nor {@code defaults} sets one. */
    static final Duration DEFAULT_COMPLETION_TIMEOUT = Duration.ofMillis(50);

    /**
     * A key, each part named where it is written: {@code key("top-k").type("whole number 1..64")
     * .byDefault("2").unit("experts").example("top-k = 2").means("experts per token")}. The unit and
     * the kinds (of a section with kinds) are optional; {@link KeyBuilder#means} makes the key.
     */
    public static KeyBuilder key(String name) {
        return new KeyBuilder(name);
    }

    /** A key being described; {@link #means} ends it. */
    public static final class KeyBuilder {
        private final String name;
        private String type;
        private String byDefault;
        private String unit = "";
        private String kinds = "";
        private String example;

        private KeyBuilder(String name) {
            this.name = name;
        }

        /** What the value is ({@code whole number 1..64}, {@code group | pair}). */
        public KeyBuilder type(String type) {
            this.type = type;
            return this;
        }

        /** The default as the reference prints it ({@code required}, {@code none}, or a value). */
        public KeyBuilder byDefault(String value) {
            this.byDefault = value;
            return this;
        }

        public KeyBuilder unit(String unit) {
            this.unit = unit;
            return this;
        }

        /** The kinds that take it, comma-separated ({@code all}: every kind); none: a section without kinds. */
        public KeyBuilder kinds(String kinds) {
            this.kinds = kinds;
            return this;
        }

        /** HOCON that sets it. */
        public KeyBuilder example(String example) {
            this.example = example;
            return this;
        }

        /** The key, with what it means. */
        public Key means(String doc) {
            if (type == null || byDefault == null || example == null) {
                throw new IllegalStateException("key " + name + " needs a type, a default and an example");
            }
            return new Key(name, type, byDefault, unit, kinds, example, doc);
        }
    }

    /** Every section, in the order of the reference. */
    public static List<Section> all() {
        List<Section> all = new ArrayList<>(ScenarioKeys.ALL);
        all.addAll(JobKeys.all(JobKinds.installed().readers()));
        return List.copyOf(all);
    }

    /** docs/configuration.md: every section's keys as a table, then the host selectors. */
    public static String markdown() {
        StringBuilder s = new StringBuilder("""
                # Configuration reference

                Generated from `org.bitina.scenario.ConfigSchema` (sections in `ScenarioKeys`, `JobKeys` and each kind's reader), the key
                sets the scenario loader checks: a key not listed for a section (or for the kind of job, fault or
                attack at hand) is refused at its line, and the loader reads no key that is not listed here.
                `ConfigSchemaTest` fails when this file is not what the schema generates (regenerate:
                `mvn -pl emulator-core test -Dtest=ConfigSchemaTest -Dbitina.regenerate=true`). Units are written
                out (`1us`, `100Gbps`, `5%`); a whole number may be written with a binary multiple (`4K` = 4096, `64K`,
                `1M` = 1048576, `1G`), as nccl-tests' sizes; `--set PATH=VALUE` changes any key before validation. A key in angle
                brackets (`<node>`) stands for names the file chooses. Where a list of hosts is read, it may hold
                [host selectors](#host-selectors).
                """);
        for (Section sec : all()) {
            s.append("\n## `")
                    .append(sec.path())
                    .append("`\n\n")
                    .append(sec.doc())
                    .append("\n\n");
            boolean kinds = sec.hasKinds();
            String kindsHead = sec.kindsOf().isEmpty() ? "kinds" : sec.kindsOf();
            s.append("| key | type | default | unit |")
                    .append(kinds ? " " + kindsHead + " |" : "")
                    .append(" example | meaning |\n");
            s.append("| --- | --- | --- | --- |").append(kinds ? " --- |" : "").append(" --- | --- |\n");
            for (Key k : sec.keys()) {
                s.append("| `")
                        .append(k.name())
                        .append("` | ")
                        .append(cell(k.type()))
                        .append(" | ")
                        .append(cell(k.defaultValue()))
                        .append(" | ")
                        .append(cell(k.unit()))
                        .append(" |")
                        .append(kinds ? " " + cell(k.kinds()) + " |" : "")
                        .append(" `")
                        .append(k.example().replace("|", "\\|"))
                        .append("` | ")
                        .append(cell(k.doc()))
                        .append(" |\n");
            }
        }
        s.append("\n## Host selectors\n\n").append(HostSelector.SYNTAX).append('\n');
        return s.toString();
    }

    private static String cell(String s) {
        return s.isEmpty() ? "-" : s.replace("|", "\\|");
    }
}
