package org.bitina.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.run.IterationReport;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.moe.MoeSpec;
import org.bitina.usecase.multicast.MulticastSpec;
import org.bitina.usecase.reduction.ValueSecurity;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;

/**
 * Runs a whole scenario several times in one JVM and prints, per job and mode, the median
 * wall time, packet-hops per second (link transmissions / wall time), and the INA/baseline
 * ratio of max link bytes beside its theoretical value. A run that does not verify is
 * reported as such and fails the benchmark: figures of a wrong run are worthless.
 *
 * <pre>./bench scenario topology-configs/fat-tree-k8-allreduce.conf --repeat 3 [--clock virtual|real|both] [--members 1,3]</pre>
 *
 * With {@code --clock both} the two clocks alternate run by run and their packet-hops per
 * second are set side by side; under the virtual clock the windows are counted and timed.
 * {@code --members 1,3} alternates the member counts the same way, so that both meet the same load.
 */
public final class ScenarioBench {
    private ScenarioBench() {}

    /** One way of running the file, named in the output ("virtual", "real", "mac-on", "mac-off"). */
    private record Variant(String name, Scenario scenario, int members) {
        Variant(String name, Scenario scenario) {
            this(name, scenario, 0);
        }
    }

    /** {@code s} with S6 masking and checksum on (or off) for every AllReduce job that can take them (an int32 sum). */
    private static Scenario withValues(Scenario s, boolean on) {
        List<JobSpec> jobs = s.jobs().stream()
                .map(j -> j instanceof AllReduceSpec a
                                && a.data().type() == ElementType.INT32
                                && a.data().op() == ReductionOp.SUM
                        ? (JobSpec) new AllReduceSpec(
                                a.common(),
                                a.tree(),
                                a.data(),
                                a.elastic(),
                                on ? new ValueSecurity(true, true) : ValueSecurity.OFF)
                        : j)
                .toList();
        return new Scenario(
                s.file(),
                s.topology(),
                jobs,
                s.faults(),
                s.cluster(),
                s.clock(),
                s.security(),
                s.attacks(),
                s.capacity(),
                s.schedule());
    }

    /** The command line: picocli refuses unknown options and bad values. */
    @picocli.CommandLine.Command(
            name = "./bench scenario",
            mixinStandardHelpOptions = true,
            description = "Runs a whole scenario several times in one JVM; medians with min and max.")
    static final class Options {
        @picocli.CommandLine.Parameters(paramLabel = "FILE", description = "scenario file")
        Path file;

        @picocli.CommandLine.Option(
                names = "--repeat",
                paramLabel = "N",
                description = "measured runs (default ${DEFAULT-VALUE})")
        int repeat = 3;

        @picocli.CommandLine.Option(
                names = "--warmup",
                paramLabel = "N",
                description = "runs before measuring (default ${DEFAULT-VALUE})")
        int warmup = 1;

        @picocli.CommandLine.Option(
                names = "--clock",
                paramLabel = "virtual|real|both",
                description = "the clock, or both alternating")
        String clocks;

        @picocli.CommandLine.Option(
                names = "--mac",
                paramLabel = "on|off|both",
                description = "S2 packet tags, or both alternating")
        String macs;

        @picocli.CommandLine.Option(
                names = "--s6",
                paramLabel = "on|off|both",
                description = "S6 masking and checksum of every int32 sum AllReduce job, or both alternating")
        String s6;

        @picocli.CommandLine.Option(
                names = "--loss",
                paramLabel = "RATE",
                description = "the file as it is and with loss at RATE on every link from the start (e.g. 1%),"
                        + " alternating (as --set 'faults=[{at=0us,kind=loss,rate=RATE}]')")
        String loss;

        @picocli.CommandLine.Option(
                names = "--members",
                paramLabel = "N[,M...]",
                split = ",",
                description = "cluster members as ActorSystems in this JVM; several counts alternate run by run")
        List<Integer> members = List.of(1);
    }

    public static void main(String[] args) throws Exception {
        BenchArgs.bindLogging();
        Options o = BenchArgs.parse(new Options(), args);
        Path file = o.file;
        int repeat = o.repeat;
        String clocks = o.clocks;
        String macs = o.macs;
        String s6 = o.s6;
        List<Integer> memberCounts = o.members;
        int members = memberCounts.get(0);
        int warmup = o.warmup;
        if (repeat < 1 || warmup < 0 || memberCounts.stream().anyMatch(m -> m < 1)) {
            System.err.println("--repeat and --members must be at least 1, --warmup at least 0");
            System.exit(2);
        }
        Scenario s = ScenarioLoader.load(file);
        if (clocks != null && !clocks.equals("both") && Clock.fromConfig(clocks) == null) {
            System.err.println("--clock must be virtual, real or both");
            System.exit(2);
        }
        if (macs != null && !List.of("on", "off", "both").contains(macs)) {
            System.err.println("--mac must be on, off or both");
            System.exit(2);
        }
        if (s6 != null && !List.of("on", "off", "both").contains(s6)) {
            System.err.println("--s6 must be on, off or both (masking and checksum of every int32 sum AllReduce job)");
            System.exit(2);
        }
        if (s6 != null && !s6.equals("both")) {
            s = withValues(s, s6.equals("on"));
        }
        if (clocks != null && !clocks.equals("both")) {
            s = s.withClock(Clock.fromConfig(clocks));
        }
        if (macs != null && !macs.equals("both")) {
            s = s.withSecurity(new Scenario.Security(macs.equals("on")));
        }
        List<Variant> order;
        if (o.loss != null) {
            // the faults replaced by loss alone, as the CLI's --set does: the same reader, the same checks
            Scenario lossy = ScenarioLoader.load(
                    file,
                    Runtime.getRuntime().maxMemory(),
                    Overrides.parse(List.of("faults=[{at=0us,kind=loss,rate=" + o.loss + "}]")));
            order = List.of(new Variant("lossless", s), new Variant("loss-" + o.loss, lossy));
        } else if ("both".equals(clocks)) {
            order = List.of(
                    new Variant("virtual", s.withClock(Clock.VIRTUAL)), new Variant("real", s.withClock(Clock.REAL)));
        } else if ("both".equals(macs)) {
            order = List.of(
                    new Variant("mac-on", s.withSecurity(new Scenario.Security(true))),
                    new Variant("mac-off", s.withSecurity(new Scenario.Security(false))));
        } else if (memberCounts.size() > 1) {
            Scenario same = s;
            order = memberCounts.stream()
                    .map(m -> new Variant("members-" + m, same, m))
                    .toList();
        } else if ("both".equals(s6)) {
            order = List.of(new Variant("s6-on", withValues(s, true)), new Variant("s6-off", withValues(s, false)));
        } else {
            order = List.of(new Variant(s.clock().configName(), s));
        }
        Map<String, List<Report.JobReport>> runs = new LinkedHashMap<>();
        Map<String, List<RunProgress>> progress = new LinkedHashMap<>();
        // a workload's iterations per world, every run of the first variant
        Map<String, List<IterationReport>> iterations = new LinkedHashMap<>();
        for (int w = 0; w < warmup; w++) {
            // the JIT warms up on whole runs first; their figures are not kept
            for (Variant v : order) {
                Members.run(v.scenario(), v.members() > 0 ? v.members() : members, new RunProgress());
            }
            System.err.printf("warm-up run %d of %d done%n", w + 1, warmup);
        }
        for (int i = 0; i < repeat; i++) {
            // the variants alternate, so that all meet the same machine load
            for (Variant v : order) {
                RunProgress p = new RunProgress();
                Report r = Members.run(v.scenario(), v.members() > 0 ? v.members() : members, p);
                progress.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(p);
                if (v == order.get(0) && r.iterations() != null) {
                    r.iterations()
                            .forEach(it -> iterations
                                    .computeIfAbsent(it.world().configName(), k -> new ArrayList<>())
                                    .add(it));
                }
                for (Report.JobReport j : r.jobs()) {
                    runs.computeIfAbsent(key(order, v, j), k -> new ArrayList<>())
                            .add(j);
                    if (!j.outcome().asExpected()) {
                        System.err.printf(
                                "run %d (%s): %s %s ended %s (expected %s): %s%n",
                                i + 1,
                                v.name(),
                                j.name(),
                                j.mode(),
                                j.outcome().status(),
                                j.outcome().expected(),
                                j.problems().mismatches().isEmpty()
                                        ? j.problems().unfinished()
                                        : j.problems().mismatches().get(0));
                        System.exit(1);
                    }
                }
            }
            System.err.printf("run %d of %d done%n", i + 1, repeat);
        }
        if (order.size() > 1) {
            comparison(runs, order.get(0).name(), order.get(1).name());
        }
        for (Variant v : order) {
            if (v.scenario().clock() == Clock.VIRTUAL) {
                windowFigures(v.name(), progress.get(v.name()), v.members() > 0 ? v.members() : members);
                if (v.members() == 0 && o.loss == null) {
                    break; // the variants differ in what ran, not in members: the first's windows say it
                }
            }
        }
        if (order.size() > 1) {
            // the per-mode tables below are the first variant's
            String first = order.get(0).name() + " ";
            runs.keySet().removeIf(k -> !k.startsWith(first));
            Map<String, List<Report.JobReport>> plain = new LinkedHashMap<>();
            runs.forEach((k, v) -> plain.put(k.substring(first.length()), v));
            runs = plain;
        }
        System.out.printf(
                "%s, %d runs: wall time and packet-hops/s as median [min..max]; bytes, modelled time and timeouts as"
                        + " medians (the same every run under the virtual clock)%n",
                file, repeat);
        System.out.printf(
                "%-16s %24s %30s %14s %14s %12s %9s%n",
                "job mode", "wall ms", "packet-hops/s", "max link B", "total link B", "modelled us", "timeouts");
        Map<String, Long> maxLink = new LinkedHashMap<>();
        for (Map.Entry<String, List<Report.JobReport>> e : runs.entrySet()) {
            List<Report.JobReport> js = e.getValue();
            Spread wall = Spread.of(
                    js.stream().mapToDouble(jr -> jr.timing().wallMillis()).toArray());
            Spread rate = Spread.of(js.stream()
                    .mapToDouble(j ->
                            j.traffic().packets() / Math.max(1e-3, j.timing().wallMillis() / 1000.0))
                    .toArray());
            long max = (long) median(
                    js.stream().mapToDouble(jr -> jr.traffic().maxLinkBytes()).toArray());
            maxLink.put(e.getKey(), max);
            System.out.printf(
                    "%-16s %24s %30s %14d %14.0f %12.1f %9.0f%n",
                    e.getKey(),
                    wall.format("%.0f"),
                    rate.format("%,.0f"),
                    max,
                    median(js.stream()
                            .mapToDouble(jr -> jr.traffic().totalLinkBytes())
                            .toArray()),
                    median(js.stream()
                            .mapToDouble(jr -> jr.timing().modeledMicros())
                            .toArray()),
                    median(js.stream().mapToDouble(jr -> jr.counts().timeouts()).toArray()));
        }
        if (s.schedule().shared()) {
            sharedFigures(runs, s, iterations);
            return;
        }
        for (JobSpec job : s.jobs()) {
            if (job instanceof MulticastSpec mc) {
                List<Report.JobReport> ina = runs.get(job.name() + " ina");
                List<Report.JobReport> uni = runs.get(job.name() + " unicast-ack");
                double delivered =
                        (double) mc.params().bytes() * mc.common().members().size();
                double acksIna = median(ina.stream()
                        .mapToDouble(j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L))
                        .toArray());
                System.out.printf(
                        "%s: delivered bytes/s INA %.3e%s; ACK packets into the source INA %.0f%s%n",
                        job.name(),
                        delivered
                                / (median(ina.stream()
                                                .mapToDouble(jr -> jr.timing().wallMillis())
                                                .toArray())
                                        / 1000.0),
                        uni == null
                                ? ""
                                : String.format(
                                        ", unicast-ack %.3e",
                                        delivered
                                                / (median(uni.stream()
                                                                .mapToDouble(jr -> jr.timing()
                                                                        .wallMillis())
                                                                .toArray())
                                                        / 1000.0)),
                        acksIna,
                        uni == null
                                ? ""
                                : String.format(
                                        ", unicast-ack %.0f: ratio %.4f (theory 1/receivers = %.4f without loss)",
                                        median(uni.stream()
                                                .mapToDouble(j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L))
                                                .toArray()),
                                        acksIna
                                                / median(uni.stream()
                                                        .mapToDouble(
                                                                j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L))
                                                        .toArray()),
                                        1.0 / mc.common().members().size()));
                continue;
            }
            if (job instanceof MoeSpec moe) {
                List<Report.JobReport> ina = runs.get(job.name() + " ina");
                List<Report.JobReport> a2a = runs.get(job.name() + " all-to-all");
                int k = moe.params().topK();
                double tokens =
                        (double) moe.params().tokensPerSource() * moe.sources().size();
                System.out.printf(
                        "%s: tokens/s INA %.0f, all-to-all %.0f; INA/all-to-all source-uplink bytes = %.4f; theory %.4f (1/K, K=%d,"
                                + " headers aside)%n",
                        job.name(),
                        tokens
                                / (median(ina.stream()
                                                .mapToDouble(jr -> jr.timing().wallMillis())
                                                .toArray())
                                        / 1000.0),
                        a2a == null
                                ? Double.NaN
                                : tokens
                                        / (median(a2a.stream()
                                                        .mapToDouble(jr ->
                                                                jr.timing().wallMillis())
                                                        .toArray())
                                                / 1000.0),
                        a2a == null
                                ? Double.NaN
                                : median(ina.stream()
                                                .mapToDouble(jr -> jr.traffic().sourceUplinkBytes())
                                                .toArray())
                                        / median(a2a.stream()
                                                .mapToDouble(jr -> jr.traffic().sourceUplinkBytes())
                                                .toArray()),
                        1.0 / k,
                        k);
                continue;
            }
            Long ina = maxLink.get(job.name() + " ina");
            int n = job.common().members().size();
            for (Mode baseline : job.common().baselines()) {
                String b = baseline.name();
                Long base = maxLink.get(job.name() + " " + b);
                if (ina != null && base != null) {
                    String theory = switch (b) {
                        // ring: each member sends 2(N-1)/N of its array; INA: the array once each way
                        case "ring" -> String.format("%.4f (N/(2(N-1)), N=%d)", n / (2.0 * (n - 1)), n);
                        // PS: the server's link carries N arrays; INA's busiest link carries one
                        case "ps" -> String.format("%.4f (1/N, N=%d)", 1.0 / n, n);
                        default -> "-";
                    };
                    System.out.printf(
                            "%s: INA/%s max link bytes = %.4f; theory %s%n",
                            job.name(), b, (double) ina / base, theory);
                }
            }
        }
    }

    private static String key(List<Variant> order, Variant v, Report.JobReport j) {
        // a shared run's rows: the job in its world's mix (whose packets are the world's) or alone
        String shared = j.shared() == null ? "" : j.shared().alone() ? " alone" : " shared";
        return (order.size() > 1 ? v.name() + " " : "") + j.name() + " " + j.mode() + shared;
    }

    /** Packet-hops per second of two variants, same runs, and the first's over the second's (virtual/real: at least 0.7; mac on/off: 0.8). */
    private static void comparison(Map<String, List<Report.JobReport>> runs, String a, String b) {
        System.out.printf("%-24s %30s %30s %8s%n", "job mode", a + " hops/s", b + " hops/s", "ratio of medians");
        for (String k : runs.keySet()) {
            if (!k.startsWith(a + " ")) {
                continue;
            }
            String jm = k.substring(a.length() + 1);
            Spread x = hopsPerSecond(runs.get(k));
            Spread y = hopsPerSecond(runs.getOrDefault(b + " " + jm, List.of()));
            System.out.printf(
                    "%-24s %30s %30s %8.2f%n", jm, x.format("%,.0f"), y.format("%,.0f"), x.median() / y.median());
        }
        // the ratio above is the first variant's rate over the second's; with loss, what recovery cost, read the other
        // way
        System.out.printf(
                "%-24s %14s %14s %14s %14s %14s%n",
                "job mode",
                b + "/" + a + " hops/s",
                b + "/" + a + " wall",
                "retransmits",
                "results resent",
                "modelled us");
        for (String k : runs.keySet()) {
            if (!k.startsWith(b + " ")) {
                continue;
            }
            String jm = k.substring(b.length() + 1);
            List<Report.JobReport> ys = runs.get(k);
            List<Report.JobReport> xs = runs.getOrDefault(a + " " + jm, List.of());
            double wallX = median(
                    xs.stream().mapToDouble(jr -> jr.timing().wallMillis()).toArray());
            double wallY = median(
                    ys.stream().mapToDouble(jr -> jr.timing().wallMillis()).toArray());
            System.out.printf(
                    "%-24s %14.2f %14.2f %14.0f %14.0f %14.1f%n",
                    jm,
                    hopsPerSecond(ys).median() / hopsPerSecond(xs).median(),
                    wallY / wallX,
                    median(ys.stream()
                            .mapToDouble(j -> j.recovery().retransmissions())
                            .toArray()),
                    median(ys.stream()
                            .mapToDouble(j -> j.recovery().resultResends())
                            .toArray()),
                    median(ys.stream()
                            .mapToDouble(jr -> jr.timing().modeledMicros())
                            .toArray()));
        }
    }

    private static Spread hopsPerSecond(List<Report.JobReport> js) {
        return Spread.of(js.stream()
                .mapToDouble(
                        j -> j.traffic().packets() / Math.max(1e-3, j.timing().wallMillis() / 1000.0))
                .toArray());
    }

    /**
     * The virtual clock's windows, per run (medians): how many, events per window, wall time
     * per window, and the barrier's share of it: wall per window less the devices' busy time
     * spread over this machine's cores (an estimate: what the window cost beyond the work).
     */
    private static void windowFigures(String variant, List<RunProgress> ps, int members) {
        int cores = Runtime.getRuntime().availableProcessors();
        double windows = median(ps.stream().mapToDouble(RunProgress::windows).toArray());
        double events = median(ps.stream()
                .mapToDouble(p -> p.windowEvents() / (double) Math.max(1, p.windows()))
                .toArray());
        double wall = median(ps.stream()
                .mapToDouble(p -> p.windowWallNanos() / 1000.0 / Math.max(1, p.windows()))
                .toArray());
        double barrier = median(ps.stream()
                .mapToDouble(p -> Math.max(0, p.windowWallNanos() - p.deviceBusyNanos() / (double) cores)
                        / 1000.0
                        / Math.max(1, p.windows()))
                .toArray());
        System.out.printf(
                "%s: virtual clock on %d member%s: %.0f windows a run, %.1f events a window, %.1f us wall a window, barrier about"
                        + " %.1f us a window (wall less device busy time / %d cores)%n",
                variant, members, members == 1 ? "" : "s", windows, events, wall, barrier, cores);
    }

    /**
     * A shared run's packet-hops/s per world: the mix's (its rows carry the world's packets and the
     * mix's wall time) over the same jobs run one by one (their alone rows' packets over their wall
     * times summed), medians over the runs. The window barrier should not grow with the jobs: 0.8 or more.
     */
    private static void sharedFigures(
            Map<String, List<Report.JobReport>> runs, Scenario s, Map<String, List<IterationReport>> iterations) {
        Map<String, List<Report.JobReport>> byWorld = new LinkedHashMap<>();
        runs.values()
                .forEach(js -> js.forEach(j -> {
                    if (j.shared() != null) {
                        byWorld.computeIfAbsent(j.shared().world().configName(), k -> new ArrayList<>())
                                .add(j);
                    }
                }));
        String first = s.jobs().get(0).name();
        byWorld.forEach((world, rows) -> {
            // one mix row per run (the first job's); the alone rows of every job, run by run in the order they came
            List<Report.JobReport> mix = rows.stream()
                    .filter(j -> !j.shared().alone() && j.name().equals(first))
                    .toList();
            double[] shared = mix.stream()
                    .mapToDouble(j ->
                            j.traffic().packets() / Math.max(1e-3, j.timing().wallMillis() / 1000.0))
                    .toArray();
            List<Report.JobReport> alone =
                    rows.stream().filter(j -> j.shared().alone()).toList();
            if (alone.isEmpty()) {
                // a workload runs no job alone: its figures are the iterations' (nothing to divide by)
                workloadFigures(world, mix, iterations.getOrDefault(world, List.of()));
                return;
            }
            int perRun = alone.size() / Math.max(1, mix.size());
            double[] oneByOne = new double[mix.size()];
            for (int r = 0; r < mix.size(); r++) {
                long packets = 0;
                double wall = 0;
                for (String job : s.jobs().stream().map(JobSpec::name).toList()) {
                    List<Report.JobReport> mine =
                            alone.stream().filter(j -> j.name().equals(job)).toList();
                    if (r < mine.size()) {
                        packets += mine.get(r).traffic().packets();
                        wall += mine.get(r).timing().wallMillis() / 1000.0;
                    }
                }
                oneByOne[r] = packets / Math.max(1e-3, wall);
            }
            double a = median(shared);
            double b = median(oneByOne);
            System.out.printf(
                    "world %s: packet-hops/s shared %,.0f, the same jobs one by one %,.0f: %.2f (%d jobs, %d alone rows a"
                            + " run)%n",
                    world, a, b, a / b, s.jobs().size(), perRun);
        });
    }

    /**
     * A workload's world (no alone rows): the wall time of its iterations (the world's phase, whose
     * rows all carry its wall time and packets, over the iterations it ran) and its packet-hops/s,
     * medians over the runs, beside the modelled iteration time (the same every run).
     */
    private static void workloadFigures(String world, List<Report.JobReport> mix, List<IterationReport> its) {
        if (mix.isEmpty()) {
            return;
        }
        int perRun = Math.max(1, its.size() / mix.size());
        double wall =
                median(mix.stream().mapToDouble(jr -> jr.timing().wallMillis()).toArray());
        double rate = median(mix.stream()
                .mapToDouble(
                        j -> j.traffic().packets() / Math.max(1e-3, j.timing().wallMillis() / 1000.0))
                .toArray());
        double modelled = its.isEmpty()
                ? Double.NaN
                : median(its.stream()
                        .mapToDouble(IterationReport::iterationMicros)
                        .toArray());
        System.out.printf(
                "world %s: %d iteration%s in %.0f ms wall, %.0f ms wall an iteration, packet-hops/s %,.0f;"
                        + " modelled iteration %.1f us%n",
                world, perRun, perRun == 1 ? "" : "s", wall, wall / perRun, rate, modelled);
    }

    private static double median(double[] xs) {
        return Spread.of(xs).median();
    }
}
