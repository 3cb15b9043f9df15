package org.bitina.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.bitina.run.LinkReport;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Link;
import org.bitina.topology.Placements;

/**
 * The virtual clock across members, measured and projected (docs/scale.md "Several members"):
 * per member count, the barrier's cost a window (wall a window of a probe scenario whose windows
 * hold almost no work, so that what a window costs is the barrier) and, on a work scenario, the
 * events a window, the device time an event and the wall a window. From them, the wall a window
 * at M members each with C cores of its own, extrapolated with the formula the output states.
 *
 * <pre>./bench cluster [--work FILE] [--set KEY=VALUE]... [--probe FILE] [--members 1,2,3] [--project 8,32] [--repeat 3]
 *               [--warmup 1] [--cores C]</pre>
 *
 * Members are ActorSystems in this JVM ({@link Members}): on one machine they share its cores,
 * which is why the projection takes the barrier and the work apart instead of timing M members here.
 */
public final class ClusterBench {
    private ClusterBench() {}

    @picocli.CommandLine.Command(
            name = "./bench cluster",
            mixinStandardHelpOptions = true,
            description = "Barrier cost and events a window per member count, projected to more members.")
    static final class Options {
        @picocli.CommandLine.Option(
                names = "--work",
                description = "the scenario with the work (default ${DEFAULT-VALUE})")
        Path work = Path.of("topology-configs/fat-tree-k8-allreduce.conf");

        @picocli.CommandLine.Option(
                names = "--set",
                description = "an override of the work scenario, as bitina run --set")
        List<String> set = new ArrayList<>(List.of("jobs.ft8.baselines=[]"));

        @picocli.CommandLine.Option(
                names = "--probe",
                description =
                        "a scenario of many almost empty windows: its wall a window is the barrier (default ${DEFAULT-VALUE})")
        Path probe = Path.of("topology-configs/paper-fig1-allreduce.conf");

        @picocli.CommandLine.Option(names = "--members", split = ",", description = "member counts measured")
        List<Integer> members = List.of(1, 2, 3);

        @picocli.CommandLine.Option(names = "--project", split = ",", description = "member counts projected")
        List<Integer> project = List.of(8, 32);

        @picocli.CommandLine.Option(names = "--repeat", description = "measured runs per member count")
        int repeat = 3;

        @picocli.CommandLine.Option(names = "--warmup", description = "unmeasured runs first")
        int warmup = 1;

        @picocli.CommandLine.Option(
                names = "--cores",
                description = "cores per member in the projection (default: this machine's)")
        int cores = Runtime.getRuntime().availableProcessors();
    }

    /** Medians over the runs of one member count. */
    private record Figures(
            double windows,
            double eventsPerWindow,
            double wallPerWindowUs,
            double busyPerEventUs,
            double phaseMs,
            double crossingPerWindow,
            double crossingKiBPerWindow) {}

    public static void main(String[] args) throws Exception {
        BenchArgs.bindLogging();
        Options o = BenchArgs.parse(new Options(), args);
        if (o.repeat < 1
                || o.warmup < 0
                || o.members.isEmpty()
                || o.members.stream().anyMatch(m -> m < 1)) {
            System.err.println("--repeat and every --members must be at least 1, --warmup at least 0");
            System.exit(2);
        }
        Scenario work = ScenarioLoader.load(o.work, Runtime.getRuntime().maxMemory(), Overrides.parse(o.set));
        Scenario probe = ScenarioLoader.load(o.probe);
        int here = Runtime.getRuntime().availableProcessors();
        for (int w = 0; w < o.warmup; w++) {
            for (int m : o.members) {
                Members.run(probe, m, new RunProgress());
                Members.run(work, m, new RunProgress());
            }
        }
        Map<Integer, List<double[]>> probeRuns = new LinkedHashMap<>();
        Map<Integer, List<double[]>> workRuns = new LinkedHashMap<>();
        for (int i = 0; i < o.repeat; i++) {
            // member counts alternate, so that all meet the same machine load
            for (int m : o.members) {
                probeRuns.computeIfAbsent(m, k -> new ArrayList<>()).add(measure(probe, m));
                workRuns.computeIfAbsent(m, k -> new ArrayList<>()).add(measure(work, m));
            }
            System.err.printf("run %d of %d done%n", i + 1, o.repeat);
        }
        System.out.printf(
                "work %s %s, probe %s; %d runs a member count, medians; this machine: %d cores shared by the members%n",
                o.work, o.set, o.probe, o.repeat, here);
        System.out.printf(
                "%8s %14s %12s %16s %18s %14s %18s %12s %22s %s%n",
                "members",
                "barrier us/w",
                "windows",
                "events/window",
                "device us/event",
                "wall us/w",
                "lookahead ns/pair",
                "phase ms",
                "across: frames, KiB/w",
                "(probe: windows, events/window)");
        Map<Integer, Double> barrier = new LinkedHashMap<>();
        Figures one = null;
        for (int m : o.members) {
            Figures p = figures(probeRuns.get(m));
            Figures f = figures(workRuns.get(m));
            if (one == null) {
                one = f;
            }
            barrier.put(m, p.wallPerWindowUs());
            System.out.printf(
                    "%8d %14.1f %12.0f %16.1f %18.3f %14.1f %18s %12.0f %22s (%.0f, %.1f)%n",
                    m,
                    p.wallPerWindowUs(),
                    f.windows(),
                    f.eventsPerWindow(),
                    f.busyPerEventUs(),
                    f.wallPerWindowUs(),
                    pairLookahead(work, m),
                    f.phaseMs(),
                    String.format(Locale.ROOT, "%.1f, %.0f", f.crossingPerWindow(), f.crossingKiBPerWindow()),
                    p.windows(),
                    p.eventsPerWindow());
        }
        // barrier(M) = a + b * M, least squares over the measured counts
        double n = barrier.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Map.Entry<Integer, Double> e : barrier.entrySet()) {
            sx += e.getKey();
            sy += e.getValue();
            sxx += (double) e.getKey() * e.getKey();
            sxy += e.getKey() * e.getValue();
        }
        double b = n > 1 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
        double a = (sy - b * sx) / n;
        double e = one.eventsPerWindow();
        double t = one.busyPerEventUs();
        int c = o.cores;
        double t1 = a + b + e * t / c;
        System.out.printf(
                "projection: wall a window T(M) = a + b*M + E*t/(M*C), a = %.1f us, b = %.1f us a member (barrier fitted"
                        + " over the measured counts), E = %.1f events a window, t = %.3f us of device time an event"
                        + " (one member), C = %d cores a member; frames between members and their serialisation not"
                        + " counted%n",
                a, b, e, t, c);
        List<Integer> all = new ArrayList<>(o.members);
        all.addAll(o.project);
        for (int m : all) {
            double tm = a + b * m + e * t / ((double) m * c);
            System.out.printf(
                    "  M = %2d: T = %8.1f us a window, %6.2fx one member; the barrier is %3.0f %% of it%n",
                    m, tm, t1 / tm, 100 * (a + b * m) / tm);
        }
        System.out.printf(
                "  M members beat one when E*t/C*(1 - 1/M) > b*(M - 1): here from %.0f events a window at M = 8,"
                        + " %.0f at M = 32%n",
                b * 7 * c / (t * (1 - 1 / 8.0)), b * 31 * c / (t * (1 - 1 / 32.0)));
    }

    /** One run: windows, events, wall over the windows, device busy time, the phases' wall. */
    private static double[] measure(Scenario s, int members) throws Exception {
        RunProgress p = new RunProgress();
        Report r = Members.run(s, members, p);
        double phase = 0;
        for (Report.JobReport j : r.jobs()) {
            if (!j.outcome().asExpected()) {
                System.err.printf(
                        "%s %s ended %s (expected %s): figures of a wrong run are worthless%n",
                        j.name(), j.mode(), j.outcome().status(), j.outcome().expected());
                System.exit(1);
            }
            phase += j.timing().wallMillis();
        }
        // what crossed members: the frames of links whose ends are placed on two members
        double crossing = 0;
        double crossingBytes = 0;
        for (LinkReport l : r.links()) {
            String a = r.placement().get(l.from());
            if (a != null && !a.equals(r.placement().get(l.to()))) {
                crossing += l.packets();
                crossingBytes += l.bytes();
            }
        }
        return new double[] {
            p.windows(), p.windowEvents(), p.windowWallNanos(), p.deviceBusyNanos(), phase, crossing, crossingBytes
        };
    }

    private static Figures figures(List<double[]> runs) {
        return new Figures(
                median(runs, r -> r[0]),
                median(runs, r -> r[1] / Math.max(1, r[0])),
                median(runs, r -> r[2] / 1000.0 / Math.max(1, r[0])),
                median(runs, r -> r[3] / 1000.0 / Math.max(1, r[1])),
                median(runs, r -> r[4]),
                median(runs, r -> r[5] / Math.max(1, r[0])),
                median(runs, r -> r[6] / 1024.0 / Math.max(1, r[0])));
    }

    private static double median(List<double[]> runs, ToDoubleFunction<double[]> f) {
        return Spread.of(runs.stream().mapToDouble(f).toArray()).median();
    }

    /**
     * The smallest latency among links crossing each pair of members under the scenario's
     * placement, plus the nanosecond every window adds: what a per-pair lookahead would be
     * ("-" for pairs no link joins); the global lookahead is the smallest over every link.
     */
    private static String pairLookahead(Scenario s, int members) {
        if (members < 2) {
            return "-";
        }
        Map<String, Integer> where = Placements.place(s.topology(), s.cluster(), members);
        long[][] min = new long[members][members];
        for (long[] row : min) {
            Arrays.fill(row, Long.MAX_VALUE);
        }
        for (Link l : s.topology().links()) {
            int x = where.getOrDefault(l.a(), 0);
            int y = where.getOrDefault(l.b(), 0);
            if (x != y) {
                long v = l.spec().latencyNanos() + 1;
                min[x][y] = Math.min(min[x][y], v);
                min[y][x] = min[x][y];
            }
        }
        StringBuilder out = new StringBuilder();
        for (int x = 0; x < members; x++) {
            for (int y = x + 1; y < members; y++) {
                out.append(out.length() == 0 ? "" : ",")
                        .append(min[x][y] == Long.MAX_VALUE ? "-" : Long.toString(min[x][y]));
            }
        }
        return out.toString();
    }
}
