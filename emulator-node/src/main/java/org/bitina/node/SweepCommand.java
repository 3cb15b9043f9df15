package org.bitina.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.RunSession;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina sweep FILE --set data.elements=4096,65536 --set tree.mode=auto,vat}: the cross
 * product of the values, each point a run of its own (on one actor system, one after the other),
 * its report and tables in a folder of its own, one {@code sweep.csv} with a row per point,
 * job and mode, and {@code sweep.html} plotting each metric against the swept values. Every point is validated before the first runs.
 */
@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        description =
                "Runs a scenario at every combination of --set values; writes one CSV of all runs and a page of charts.")
final class SweepCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "scenario file (HOCON)")
    Path file;

    @Option(
            names = "--set",
            paramLabel = "PATH=V1,V2,...",
            description = "a path and the values it takes (repeatable; commas inside [ ] or quotes stay in one value)")
    List<String> sets = new ArrayList<>();

    @Option(
            names = "--sizes",
            paramLabel = "LO..HI",
            description = "message sizes per rank in bytes, powers of two from LO to HI (4K..1G: K, M, G of 1024):"
                    + " each job's data.elements is the size over its element's bytes; prints nccl-tests' columns")
    String sizes;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "where the points' folders, sweep.csv and sweep.html go (default sweeps/NAME-TIME)")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<String> paths = new ArrayList<>();
        List<List<String>> choices = new ArrayList<>();
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                System.err.println("bitina sweep: --set " + s + ": write path=v1,v2,...");
                return ExitCodes.INVALID_SCENARIO;
            }
            paths.add(s.substring(0, eq).trim());
            choices.add(split(s.substring(eq + 1)));
        }
        List<Long> sizeList = null;
        if (sizes != null) {
            sizeList = sizes(sizes);
            if (sizeList == null) {
                System.err.println("bitina sweep: --sizes " + sizes
                        + ": write LO..HI, each a power of two of bytes (4K..1G), LO at most HI");
                return ExitCodes.USAGE;
            }
            paths.add(0, "data.elements");
            choices.add(0, sizeList.stream().map(b -> Long.toString(b / 4)).toList());
        }
        if (paths.isEmpty()) {
            System.err.println("bitina sweep: nothing to sweep: give --set PATH=V1,V2,... or --sizes LO..HI");
            return ExitCodes.USAGE;
        }
        List<List<String>> points = product(choices);
        List<Scenario> scenarios = new ArrayList<>();
        boolean ok = true;
        for (List<String> point : points) {
            List<String> overrides = new ArrayList<>();
            for (int i = 0; i < paths.size(); i++) {
                overrides.add(paths.get(i) + "=" + point.get(i));
            }
            Scenario s = CliScenario.load(file, overrides);
            ok &= s != null;
            scenarios.add(s);
        }
        if (!ok) {
            return ExitCodes.INVALID_SCENARIO;
        }
        if (out == null) {
            out = RunCommand.timestamped("sweeps", file);
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            System.err.println("bitina sweep: --out " + out + " is not a folder; nothing ran");
            return ExitCodes.USAGE;
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            System.err.println("bitina sweep: --out " + out + ": cannot make the folder (" + e + "); nothing ran");
            return ExitCodes.USAGE;
        }
        String unwritable =
                OutputPaths.of(file).file("--out", out.resolve("sweep.csv")).problem();
        if (unwritable != null) {
            System.err.println(unwritable);
            return ExitCodes.USAGE;
        }
        List<List<CsvReport.JobRow>> rows = new ArrayList<>();
        List<Report> reports = new ArrayList<>();
        boolean asExpected = true;
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        List<String> headers = new ArrayList<>(List.of("point"));
        headers.addAll(Summary.HEADERS);
        List<ConsoleTable.Align> aligns = new ArrayList<>(List.of(ConsoleTable.Align.LEFT));
        aligns.addAll(Summary.ALIGNS);
        ConsoleTable table = new ConsoleTable(headers, aligns);
        List<String> answers = new ArrayList<>();
        try (RunSession session = new RunSession(Duration.ofHours(2))) {
            for (int i = 0; i < scenarios.size(); i++) {
                final int idx = i;
                Scenario s = scenarios.get(i);
                System.err.printf("point %d/%d: %s%n", i + 1, scenarios.size(), describe(paths, points.get(i)));
                Report r = session.run(s, new RunProgress());
                Path dir = out.resolve("point-" + (i + 1));
                Files.createDirectories(dir);
                json.writeValue(dir.resolve("report.json").toFile(), r);
                CsvReport.write(r, dir);
                rows.add(CsvReport.jobRows(r));
                reports.add(r);
                asExpected &= r.allAsExpected();
                r.jobs().forEach(j -> {
                    List<ConsoleTable.Cell> cells = new ArrayList<>();
                    cells.add(ConsoleTable.Cell.plain(describe(paths, points.get(idx))));
                    cells.addAll(Summary.row(j));
                    table.add(cells);
                });
                Answer.sentences(r).forEach(a -> answers.add(describe(paths, points.get(idx)) + ": " + a));
            }
        }
        // the same table as run's, a column for the point first
        table.lines(Terminal.colourOnStdout()).forEach(System.out::println);
        answers.forEach(System.out::println);
        if (sizeList != null) {
            NcclTable.print(scenarios, points, rows, reports, System.out);
        }
        Path csv = out.resolve("sweep.csv");
        CsvReport.writeSweep(csv, paths, points, rows);
        Path page = out.resolve("sweep.html");
        SweepPage.write(page, file.toString(), paths, points, rows, reports);
        System.out.println("sweep: " + csv + " (" + points.size() + " points)");
        System.out.println("html:  " + page);
        System.out.println(
                asExpected
                        ? "every job of every point ended as the scenario expects"
                        : "SOME JOBS DID NOT END AS THE SCENARIO EXPECTS");
        return asExpected ? ExitCodes.OK : ExitCodes.JOB_FAILED;
    }

    private static String describe(List<String> paths, List<String> point) {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            s.add(paths.get(i) + "=" + point.get(i));
        }
        return String.join(" ", s);
    }

    /** {@code 4K..1M}: the powers of two from LO to HI in bytes; null when it is not that. */
    static List<Long> sizes(String range) {
        int dots = range.indexOf("..");
        if (dots <= 0) {
            return null;
        }
        Long lo = ConfigReader.wholeCount(range.substring(0, dots));
        Long hi = ConfigReader.wholeCount(range.substring(dots + 2));
        if (lo == null || hi == null || lo > hi || Long.bitCount(lo) != 1 || Long.bitCount(hi) != 1 || lo < 4) {
            return null;
        }
        List<Long> out = new ArrayList<>();
        for (long b = lo; b <= hi; b *= 2) {
            out.add(b);
        }
        return out;
    }

    /** Values split at commas outside brackets and quotes. */
    static List<String> split(String values) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        boolean quoted = false;
        for (char c : values.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '[' || c == '{')) {
                depth++;
            } else if (!quoted && (c == ']' || c == '}')) {
                depth--;
            }
            if (c == ',' && depth == 0 && !quoted) {
                out.add(cur.toString().trim());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString().trim());
        return out;
    }

    /** Every combination, the first path's values varying slowest. */
    static List<List<String>> product(List<List<String>> choices) {
        List<List<String>> out = new ArrayList<>();
        out.add(List.of());
        for (List<String> c : choices) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> prefix : out) {
                for (String v : c) {
                    List<String> p = new ArrayList<>(prefix);
                    p.add(v);
                    next.add(p);
                }
            }
            out = next;
        }
        return out;
    }
}
