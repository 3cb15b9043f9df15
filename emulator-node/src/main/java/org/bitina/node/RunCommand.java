package org.bitina.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.bitina.cluster.ClusterSettings;
import org.bitina.job.Mode;
import org.bitina.protocol.TraceFilter;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.RunSession;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.Clock;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bitina run FILE}: runs a scenario and exits 0 only when every job ended as expected. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Runs a scenario on Pekko actors.")
final class RunCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "scenario file (HOCON)")
    Path file;

    @Option(names = "--report", paramLabel = "JSON", description = "write the JSON report here")
    Path report;

    @Option(names = "--trace", paramLabel = "JSONL", description = "write one JSON line per packet event here")
    Path trace;

    @Option(
            names = "--pcap",
            paramLabel = "PCAPNG",
            description = "write every link transmission here as pcapng (Ethernet, BIER as RFC 8296, the INA header"
                    + " and payload as the codec writes them; tools/wireshark/bitina.lua dissects it)")
    Path pcap;

    @Option(
            names = "--trace-filter",
            paramLabel = "KEY=V,...",
            description = "with --trace or --pcap: keep only the events (packets) matching every "
                    + "clause (repeatable, or clauses joined by ';'): job=NAME,..., mode=ina,ring,..., node=NAME,... (NAME* a prefix), "
                    + "event=replicate,drop,..., dir=agg|mcast, seq=N or A..B,...")
    List<String> traceFilter;

    @Option(
            names = "--csv",
            paramLabel = "DIR",
            description = "write the report's tables here as jobs.csv, links.csv and switches.csv")
    Path csv;

    @Option(
            names = "--html",
            paramLabel = "HTML",
            description =
                    "write a self-contained HTML report here: summary, charts, topology " + "heat maps per mode, trees")
    Path html;

    @Option(
            names = "--perfetto",
            paramLabel = "JSON",
            description =
                    "write the trace in Chrome's trace event format here (ui.perfetto.dev, "
                            + "chrome://tracing): a track per device, aggregation entries as slices, drops and timeouts as instants, packets as flows")
    Path perfetto;

    @Option(
            names = "--perfetto-seqs",
            paramLabel = "N",
            defaultValue = "32",
            description = "with --perfetto: packet slices and flows for "
                    + "sequence ids below N only (default ${DEFAULT-VALUE}; entries, drops and timeouts for all)")
    int perfettoSeqs;

    static final int MAX_MEMBERS = 64;

    @Option(
            names = "--jvms",
            paramLabel = "N",
            description = "cluster members to run on (default: the scenario's cluster.jvms)")
    Integer jvms;

    @Option(
            names = "--members",
            paramLabel = "N",
            description = "wait for N members in all (this one included), started elsewhere "
                    + "with `bitina node --seed HOST:PORT`, instead of launching local JVMs")
    Integer externalMembers;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "with --members: address this member listens on (default ${DEFAULT-VALUE})")
    String host;

    @Option(
            names = "--port",
            defaultValue = "25520",
            description = "with --members: Artery TCP port, the seed port (default ${DEFAULT-VALUE})")
    int port;

    @Option(
            names = "--run-dir",
            paramLabel = "DIR",
            description = "with --jvms N > 1: where the members' logs go (default runs/NAME-TIME)")
    Path runDir;

    @Option(
            names = "--clock",
            paramLabel = "virtual|real",
            description = "overrides the scenario's clock: virtual (modelled "
                    + "time, reproducible; the default) or real (wall-clock timers)")
    String clock;

    @Option(
            names = "--set",
            paramLabel = "PATH=VALUE",
            description = "change the scenario before it is validated (repeatable): "
                    + "a section's key (topology.link-defaults.latency=2us, clock=real), jobs.NAME.key=value for one job, or key=value "
                    + "for every job (data.elements=4096)")
    List<String> sets;

    @Option(
            names = "--repeat",
            paramLabel = "N",
            description = "run the file N times, every seed moved per run (run 1: the file's own), and print each"
                    + " figure as mean and 95 % confidence interval (default: the file's repeat.runs, else 1)")
    Integer repeat;

    @Option(
            names = "--verbose",
            description =
                    "a workload's run: its collectives' job rows too (the console keeps to the iterations without)")
    boolean verbose;

    @Option(
            names = "--quiet",
            description = "no progress bar; only the answer, the table and the verdict (and where the outputs went)")
    boolean quiet;

    /**
     * With --members: required (or --insecure). With --jvms N > 1: these instead of new ones
     * made for the run. One JVM listens on loopback only and takes no members: plain TCP.
     */
    @Mixin
    ClusterAccess access = new ClusterAccess();

    /** Why an output file cannot be written, or null when it can (see {@link OutputPaths#unwritable}). */
    static String unwritable(Path out) {
        return OutputPaths.unwritable(out);
    }

    @Override
    public Integer call() throws IOException {
        Scenario scenario = CliScenario.load(file, sets);
        if (scenario == null) {
            return ExitCodes.INVALID_SCENARIO;
        }
        if (clock != null) {
            Clock c = Clock.fromConfig(clock);
            if (c == null) {
                System.err.println("bitina: --clock must be virtual or real, got '" + clock + "'");
                return ExitCodes.INVALID_SCENARIO;
            }
            scenario = scenario.withClock(c);
        }
        String usage = usage();
        if (usage != null) {
            System.err.println("bitina: " + usage + "; nothing ran");
            return ExitCodes.USAGE;
        }
        // fail before running, not after: a report or trace that cannot be written is found now
        String unwritable = OutputPaths.of(file)
                .file("--report", report)
                .file("--trace", trace)
                .file("--pcap", pcap)
                .file("--csv", csv == null ? null : csv.resolve("jobs.csv"))
                .file("--html", html)
                .file("--perfetto", perfetto)
                .file("--perfetto (its trace)", trace == null && perfetto != null ? perfettoTrace() : null)
                .problem();
        if (unwritable != null) {
            System.err.println(unwritable);
            return ExitCodes.USAGE;
        }
        int members = jvms != null ? jvms : scenario.cluster().jvms();
        if (members < 1 || members > MAX_MEMBERS) {
            // the same bound as the file's cluster.jvms: each member is a JVM this machine starts
            System.err.println("bitina: --jvms must be from 1 to " + MAX_MEMBERS + ", got " + members);
            return ExitCodes.INVALID_SCENARIO;
        }
        int runs = repeat != null ? repeat : scenario.repeat().runs();
        if (runs > 1) {
            String refused = repeatRefused(members);
            if (refused != null) {
                System.err.println("bitina: " + refused + "; nothing ran");
                return ExitCodes.USAGE;
            }
            return repeated(scenario, runs);
        }
        for (FaultSpec f : scenario.faults()) {
            // a loss that cannot happen would leave a run that claims to have survived it
            if (f.kind() == FaultSpec.Kind.MEMBER_LOSS && (f.member() < 1 || f.member() >= members)) {
                System.err.println(
                        "bitina: a member-loss fault names member " + f.member() + ", but this run has " + members
                                + (members == 1 ? " member" : " members") + " (member 0 runs the coordinator"
                                + (members > 1 ? "; 1.." + (members - 1) + " can be lost" : "") + "); nothing ran");
                return ExitCodes.INVALID_SCENARIO;
            }
        }
        TraceFilter filter = traceFilter(scenario);
        if (filter == null) {
            return ExitCodes.USAGE;
        }
        RunProgress progress = new RunProgress();
        Report r;
        // the Perfetto file is made from the trace: a trace of the run's own when none was asked for, removed after
        Path traceFile = trace != null || perfetto == null ? trace : perfettoTrace();
        ScenarioRunner.Options options = ScenarioRunner.Options.defaults()
                .withTrace(traceFile)
                .withPcap(pcap)
                .withTraceFilter(filter);
        LocalCluster cluster = null;
        boolean ran = false;
        try (ProgressBar bar = quiet ? null : new ProgressBar(progress, System.err, Terminal.stderr())) {
            if (externalMembers != null) {
                // the other members are started by hand or by a deploy script: this one is their seed
                Config transport = access.transport("bitina", false);
                if (transport == null) {
                    return ExitCodes.USAGE;
                }
                options = options.withPekko(
                                transport.withFallback(ClusterSettings.member(host, port, List.of(host + ":" + port))))
                        .withMembers(externalMembers, Duration.ofSeconds(120));
            } else if (members > 1) {
                Path dir = runDir != null ? runDir : timestamped("runs", file);
                // this run's own credentials unless given some (or told --insecure): made now, gone with the run
                Config transport = access.transport("bitina", true);
                if (transport == null && (access.file() != null || access.credentials != null)) {
                    return ExitCodes.USAGE;
                }
                cluster = new LocalCluster(
                        members - 1,
                        dir,
                        System.getenv().getOrDefault("BITINA_MEMBER_HEAP", "2g"),
                        access.insecure,
                        access.file());
                System.err.println("bitina: " + members + " JVMs on loopback"
                        + (cluster.credentials == null ? " over plain TCP" : " over TLS") + ", seed port "
                        + cluster.seedPort + ", member logs in " + dir);
                String seed = "127.0.0.1:" + cluster.seedPort;
                Config member = ClusterSettings.member("127.0.0.1", cluster.seedPort, List.of(seed));
                options = options.withPekko(
                                cluster.credentials == null
                                        ? member
                                        : ClusterSettings.tls(cluster.credentials)
                                                .withFallback(member))
                        .withMembers(members, Duration.ofSeconds(90));
            }
            r = ScenarioRunner.run(scenario, options, progress);
            ran = true;
        } catch (UnsupportedOperationException e) {
            System.err.println("bitina: " + e.getMessage() + "; nothing ran.");
            return ExitCodes.UNSUPPORTED;
        } catch (IllegalStateException e) {
            System.err.println("bitina: " + e.getMessage());
            return ExitCodes.JOB_FAILED;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            if (!ran && trace == null && traceFile != null) {
                Files.deleteIfExists(traceFile); // the Perfetto file's own trace, of a run that did not end
            }
        }
        try {
            if (report != null) {
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(report.toFile(), r);
            }
            if (csv != null) {
                CsvReport.write(r, csv);
            }
            if (html != null) {
                HtmlReport.write(r, scenario, html);
            }
            if (perfetto != null) {
                try {
                    PerfettoExport.convert(traceFile, scenario.topology(), perfettoSeqs, perfetto);
                } finally {
                    if (trace == null) {
                        Files.deleteIfExists(traceFile);
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // checked before the run; what fails now (a disk filled meanwhile) is said in one line
            Summary.print(r, System.out, Terminal.colourOnStdout(), quiet, verbose);
            System.err.println("bitina: the run ended but its outputs could not all be written: " + e.getMessage());
            return ExitCodes.JOB_FAILED;
        }
        Summary.print(r, System.out, Terminal.colourOnStdout(), quiet, verbose);
        if (report != null) {
            System.out.println("report: " + report);
        }
        if (trace != null) {
            System.out.println("trace:  " + trace);
        }
        if (html != null) {
            System.out.println("html:   " + html);
        }
        if (perfetto != null) {
            System.out.println("perfetto: " + perfetto + " (open in ui.perfetto.dev)");
        }
        if (csv != null) {
            System.out.println("csv:    " + csv + " (jobs.csv, links.csv, switches.csv)");
        }
        String random = scenario.randomDrops();
        if (random != null) {
            // an independent tester read a shared run's slowdown below 1 off one draw of loss: say it where it is read
            System.out.println("note: this run draws at random (" + random + "): its figures rest on one draw;"
                    + " --repeat N gives each figure's mean and 95 % confidence interval over N draws");
        }
        if (report == null && csv == null && html == null && !quiet) {
            System.out.println(
                    "(--report FILE.json for every figure, --html FILE.html for charts, --csv DIR for tables, --trace FILE.jsonl for every packet event)");
        }
        return r.allAsExpected() ? ExitCodes.OK : ExitCodes.JOB_FAILED;
    }

    /** Why the options cannot repeat the run, or null: the runs share one JVM's session and write no traces. */
    private String repeatRefused(int members) {
        if (members > 1 || externalMembers != null) {
            return "--repeat runs its runs one after the other in this JVM; it does not start or join a cluster"
                    + " (give --jvms 1)";
        }
        if (trace != null || pcap != null || perfetto != null) {
            return "--repeat writes no --trace, --pcap or --perfetto (one run's packets: run the file once for them)";
        }
        return null;
    }

    /**
     * {@code runs} runs of the file, run {@code i} with every seed moved to draw {@code i - 1}
     * (run 1 is {@code first}, the file's own seeds), one after the other on one actor system;
     * each figure printed as mean and 95 % interval. The report, tables and page are run 1's with
     * the intervals added ({@code repeats} in the JSON, {@code repeats.csv}, a section of charts).
     */
    private int repeated(Scenario first, int runs) throws IOException {
        List<Scenario> scenarios = new ArrayList<>(List.of(first));
        for (int d = 1; d < runs; d++) {
            Scenario s = CliScenario.load(file, sets, d);
            if (s == null) {
                return ExitCodes.INVALID_SCENARIO;
            }
            scenarios.add(clock == null ? s : s.withClock(first.clock()));
        }
        List<Report> reports = new ArrayList<>();
        try (RunSession session = new RunSession(Duration.ofHours(2))) {
            for (int i = 0; i < runs; i++) {
                if (!quiet) {
                    System.err.println("run " + (i + 1) + "/" + runs + (i == 0 ? " (the file's own seeds)" : ""));
                }
                RunProgress progress = new RunProgress();
                try (ProgressBar bar = quiet ? null : new ProgressBar(progress, System.err, Terminal.stderr())) {
                    reports.add(session.run(scenarios.get(i), progress));
                }
            }
        } catch (UnsupportedOperationException e) {
            System.err.println("bitina: " + e.getMessage() + "; nothing ran.");
            return ExitCodes.UNSUPPORTED;
        } catch (IllegalStateException e) {
            System.err.println("bitina: run " + (reports.size() + 1) + " of " + runs + ": " + e.getMessage());
            return ExitCodes.JOB_FAILED;
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        List<JsonNode> trees =
                reports.stream().map(r -> (JsonNode) json.valueToTree(r)).toList();
        List<Repeats.Row> rows = Repeats.of(trees);
        List<Boolean> asExpected = reports.stream().map(Report::allAsExpected).toList();
        if (report != null) {
            ObjectNode out = trees.get(0).deepCopy();
            out.set("repeats", Repeats.json(rows, asExpected));
            json.writeValue(report.toFile(), out);
        }
        if (csv != null) {
            CsvReport.write(reports.get(0), csv);
            Files.writeString(csv.resolve("repeats.csv"), Repeats.csv(rows), StandardCharsets.UTF_8);
        }
        if (html != null) {
            HtmlReport.write(reports.get(0), first, html, Repeats.section(rows, runs));
        }
        Repeats.print(rows, runs, System.out);
        List<Integer> unexpected = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            if (!asExpected.get(i)) {
                unexpected.add(i + 1);
            }
        }
        if (report != null) {
            System.out.println("report: " + report + " (run 1's, with repeats)");
        }
        if (html != null) {
            System.out.println("html:   " + html);
        }
        if (csv != null) {
            System.out.println("csv:    " + csv + " (run 1's jobs.csv, links.csv, switches.csv; repeats.csv)");
        }
        System.out.println(
                unexpected.isEmpty()
                        ? "every job of every run ended as the scenario expects"
                        : "SOME JOBS DID NOT END AS THE SCENARIO EXPECTS in runs " + unexpected);
        return unexpected.isEmpty() ? ExitCodes.OK : ExitCodes.JOB_FAILED;
    }

    /** The trace a Perfetto file is made from when no --trace was asked for: beside it, removed after. */
    private Path perfettoTrace() {
        return perfetto.resolveSibling(perfetto.getFileName() + ".trace.jsonl.gz");
    }

    /** What is wrong with the options' values on their own, or null: said before the file is run. */
    private String usage() {
        if (perfettoSeqs < 0) {
            return "--perfetto-seqs must be 0 or more, got " + perfettoSeqs;
        }
        if (externalMembers != null && (externalMembers < 1 || externalMembers > MAX_MEMBERS)) {
            return "--members must be from 1 to " + MAX_MEMBERS + " (this member included), got " + externalMembers;
        }
        if (externalMembers != null && jvms != null) {
            return "--members (members started elsewhere) and --jvms (JVMs started here) exclude each other";
        }
        if (port < 1 || port > 65535) {
            return "--port must be from 1 to 65535, got " + port;
        }
        if (repeat != null && (repeat < 1 || repeat > Scenario.Repeat.MAX_RUNS)) {
            return "--repeat must be from 1 to " + Scenario.Repeat.MAX_RUNS + ", got " + repeat;
        }
        if (runDir != null && Files.exists(runDir) && !Files.isDirectory(runDir)) {
            return "--run-dir " + runDir + " is not a folder";
        }
        return null;
    }

    /**
     * The {@code --trace-filter}, checked against the scenario (its jobs and their modes), or null
     * after saying on stderr what is wrong: a filter naming a job the file lacks would keep nothing.
     */
    private TraceFilter traceFilter(Scenario scenario) {
        if (traceFilter == null || traceFilter.isEmpty()) {
            return TraceFilter.ALL;
        }
        if (trace == null && pcap == null) {
            System.err.println("bitina: --trace-filter needs --trace FILE or --pcap FILE; nothing ran");
            return null;
        }
        try {
            TraceFilter f = TraceFilter.parse(traceFilter);
            Set<String> jobs = new TreeSet<>();
            Set<String> modes = new TreeSet<>(List.of(Mode.INA.name()));
            scenario.jobs().forEach(j -> {
                jobs.add(j.name());
                j.common().baselines().forEach(m -> modes.add(m.name()));
            });
            for (String j : f.values("job")) {
                if (!jobs.contains(j)) {
                    throw new IllegalArgumentException(
                            "job '" + j + "' is not in " + file + " (jobs: " + String.join(", ", jobs) + ")");
                }
            }
            for (String m : f.values("mode")) {
                if (!modes.contains(m)) {
                    throw new IllegalArgumentException(
                            "mode '" + m + "' does not run in " + file + " (modes: " + String.join(", ", modes) + ")");
                }
            }
            return f;
        } catch (IllegalArgumentException e) {
            System.err.println("bitina: --trace-filter: " + e.getMessage() + "; nothing ran");
            return null;
        }
    }

    /** {@code parent/NAME-yyyyMMdd-HHmmss} for scenario {@code file}: where a run's (or a sweep's) outputs go by default. */
    static Path timestamped(String parent, Path file) {
        return Path.of(
                parent,
                file.getFileName().toString().replaceFirst("\\.conf$", "") + "-"
                        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
