package org.bitina.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;

/**
 * The scenarios the end-to-end tests run and the one way they run them: scenario texts
 * written to a test's folder and loaded, the reference files of {@code topology-configs}
 * (as they are, or edited), a run on this JVM alone, and the lookups of what a run reports.
 */
public final class Scenarios {
    /** The reference scenarios, seen from a module's folder (where Maven runs the tests). */
    public static final Path CONFIGS = Path.of("..", "topology-configs");

    private Scenarios() {}

    /** Four hosts h1..h4 on one switch s1, 1 us and 100 Gbps links: the small topology many tests share. */
    public static final String STAR4 = """
            topology {
              link-defaults { latency = 1us, bandwidth = 100Gbps }
              switches = [s1]
              hosts = [h1, h2, h3, h4]
              links = [[s1, h1], [s1, h2], [s1, h3], [s1, h4]]
            }
            """;

    /** A scenario on a generated fat tree of {@code k} pods; {@code rest} holds its jobs, faults and defs. */
    public static String fatTree(int k, String rest) {
        return "topology { generator { kind = fat-tree, k = " + k + " } }\n" + rest;
    }

    /** Writes {@code text} to {@code dir/file} and loads it, as a scenario file of the test's own. */
    public static Scenario write(Path dir, String file, String text) throws IOException, ScenarioException {
        Path conf = dir.resolve(file);
        Files.writeString(conf, text);
        return ScenarioLoader.load(conf);
    }

    /** A reference scenario of {@code topology-configs}, as it is. */
    public static Scenario reference(String file) throws ScenarioException {
        return ScenarioLoader.load(CONFIGS.resolve(file));
    }

    /**
     * A reference scenario with {@code edit} applied to its text, written to {@code dir}: its
     * {@code include "defaults"} still reads the shared defaults, from wherever the copy lives.
     */
    public static Scenario reference(Path dir, String file, UnaryOperator<String> edit)
            throws IOException, ScenarioException {
        String defaults = CONFIGS.resolve("defaults.conf").toAbsolutePath().toString();
        String text = Files.readString(CONFIGS.resolve(file))
                .replace("include \"defaults\"", "include file(\"" + defaults + "\")");
        return write(dir, file, edit.apply(text));
    }

    /**
     * The seed's Fig. 1 with every completion timeout set to {@code timeout}: the file's 50 ms
     * is tuned for one idle JVM; tests that count packets exactly, or cross members, need room.
     */
    public static Scenario fig1WithTimeouts(Path dir, String timeout) throws IOException, ScenarioException {
        return reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t.replaceAll("completion-timeout = \\d+ms", "completion-timeout = " + timeout));
    }

    /** Runs {@code s} on this JVM alone with the default options. */
    public static Report run(Scenario s) {
        return run(s, ScenarioRunner.Options.defaults());
    }

    /** Runs {@code s} on this JVM alone, writing its trace to {@code trace}. */
    public static Report run(Scenario s, Path trace) {
        return run(s, ScenarioRunner.Options.defaults().withTrace(trace));
    }

    public static Report run(Scenario s, ScenarioRunner.Options options) {
        return ScenarioRunner.run(s, options, new RunProgress());
    }

    /** Writes {@code text} to {@code dir/file}, loads it and runs it with the default options. */
    public static Report run(Path dir, String file, String text) throws IOException, ScenarioException {
        return run(write(dir, file, text));
    }

    /** The report of the phase of {@code mode} (ina, ring, ps, all-to-all, unicast-ack); fails when there is none. */
    public static Report.JobReport mode(Report r, String mode) {
        return r.jobs().stream()
                .filter(j -> j.mode().name().equals(mode))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + mode + " phase in " + r.jobs()));
    }

    /** What two runs of one file under the virtual clock must agree on: {@link RunComparison#comparable}. */
    public static JsonNode comparable(Report r) {
        return RunComparison.comparable(r);
    }

    /** Fails, naming the first field where they differ, unless two runs reported the same (see {@link RunComparison}). */
    public static void assertSameRun(Report a, Report b, String what) {
        String diff = RunComparison.firstDifference(a, b);
        if (diff != null) {
            throw new AssertionError(what + ": the two runs differ at " + diff);
        }
    }

    /** The events of a trace file, one per line (gzipped when its name ends in .gz). */
    public static List<JsonNode> events(Path trace) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> lines = trace.toString().endsWith(".gz")
                ? new BufferedReader(new InputStreamReader(
                                new GZIPInputStream(Files.newInputStream(trace)), StandardCharsets.UTF_8))
                        .lines()
                        .toList()
                : Files.readAllLines(trace);
        return lines.stream()
                .map(l -> {
                    try {
                        return json.readTree(l);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .toList();
    }
}
