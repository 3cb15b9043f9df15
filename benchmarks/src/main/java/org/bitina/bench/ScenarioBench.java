package org.bitina.bench;

import org.bitina.usecase.moe.MoeSpec;
import org.bitina.usecase.multicast.MulticastSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.Clock;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.usecase.JobSpec;
import org.bitina.scenario.Scenario;

/**
 * Runs a whole scenario several times in one JVM and prints, per job and mode, the median
 * wall time, packet-hops per second (link transmissions / wall time), and the INA/baseline
 * ratio of max link bytes beside its theoretical value. A run that does not verify is
 * reported as such and fails the benchmark: figures of a wrong run are worthless.
 *
 * <pre>./bench scenario topology-configs/fat-tree-k8-allreduce.conf --repeat 3 [--clock virtual|real|both] [--members 3]</pre>
 *
 * With {@code --clock both} the two clocks alternate run by run and their packet-hops per
 * second are set side by side; under the virtual clock the windows are counted and timed.
 */
public final class ScenarioBench {
    private ScenarioBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ScenarioBench FILE [--repeat N] [--warmup N] [--clock virtual|real|both] [--members 1|N]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int repeat = 3;
        String clocks = null;
        int members = 1;
        int warmup = 1;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--repeat" -> repeat = Integer.parseInt(args[i + 1]);
                case "--clock" -> clocks = args[i + 1];
                case "--members" -> members = Integer.parseInt(args[i + 1]);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        Scenario s = ScenarioLoader.load(file);
        if (clocks != null && !clocks.equals("both") && Clock.fromConfig(clocks) == null) {
            System.err.println("--clock must be virtual, real or both");
            System.exit(2);
        }
        List<Clock> order = clocks == null ? List.of(s.clock()) : clocks.equals("both") ? List.of(Clock.VIRTUAL, Clock.REAL)
                : List.of(Clock.fromConfig(clocks));
        Map<String, List<Report.JobReport>> runs = new LinkedHashMap<>();
        Map<Clock, List<RunProgress>> progress = new java.util.EnumMap<>(Clock.class);
        for (int w = 0; w < warmup; w++) {
            // the JIT warms up on whole runs first; their figures are not kept
            for (Clock c : order) {
                Members.run(s.withClock(c), members, new RunProgress());
            }
            System.err.printf("warm-up run %d of %d done%n", w + 1, warmup);
        }
        for (int i = 0; i < repeat; i++) {
            // the clocks alternate, so that both meet the same machine load
            for (Clock c : order) {
                RunProgress p = new RunProgress();
                Report r = Members.run(s.withClock(c), members, p);
                progress.computeIfAbsent(c, k -> new ArrayList<>()).add(p);
                for (Report.JobReport j : r.jobs()) {
                    runs.computeIfAbsent(key(order, c, j), k -> new ArrayList<>()).add(j);
                    if (!j.asExpected()) {
                        System.err.printf("run %d (%s clock): %s %s ended %s (expected %s): %s%n", i + 1, c.configName(), j.name(), j.mode(),
                                j.status(), j.expected(), j.mismatches().isEmpty() ? j.unfinished() : j.mismatches().get(0));
                        System.exit(1);
                    }
                }
            }
            System.err.printf("run %d of %d done%n", i + 1, repeat);
        }
        if (order.size() > 1) {
            clockComparison(runs, order);
        }
        List<RunProgress> virtual = progress.get(Clock.VIRTUAL);
        if (virtual != null) {
            windowFigures(virtual, members);
        }
        if (order.size() > 1) {
            // the per-mode tables below are the first clock's
            runs.keySet().removeIf(k -> !k.startsWith(order.get(0).configName() + " "));
            Map<String, List<Report.JobReport>> plain = new LinkedHashMap<>();
            runs.forEach((k, v) -> plain.put(k.substring(k.indexOf(' ') + 1), v));
            runs = plain;
        }
        System.out.printf("%s, %d runs, medians%n", file, repeat);
        System.out.printf("%-16s %10s %14s %14s %14s %12s %9s%n", "job mode", "wall ms", "packet-hops/s", "max link B", "total link B",
                "modelled us", "timeouts");
        Map<String, Long> maxLink = new LinkedHashMap<>();
        for (Map.Entry<String, List<Report.JobReport>> e : runs.entrySet()) {
            List<Report.JobReport> js = e.getValue();
            double wall = median(js.stream().mapToDouble(Report.JobReport::wallMillis).toArray());
            double rate = median(js.stream().mapToDouble(j -> j.packets() / Math.max(1e-3, j.wallMillis() / 1000.0)).toArray());
            long max = (long) median(js.stream().mapToDouble(Report.JobReport::maxLinkBytes).toArray());
            maxLink.put(e.getKey(), max);
            System.out.printf("%-16s %10.0f %14.0f %14d %14.0f %12.1f %9.0f%n", e.getKey(), wall, rate, max,
                    median(js.stream().mapToDouble(Report.JobReport::totalLinkBytes).toArray()),
                    median(js.stream().mapToDouble(Report.JobReport::modeledMicros).toArray()),
                    median(js.stream().mapToDouble(Report.JobReport::timeouts).toArray()));
        }
        for (JobSpec job : s.jobs()) {
            if (job instanceof MulticastSpec mc) {
                List<Report.JobReport> ina = runs.get(job.name() + " ina");
                List<Report.JobReport> uni = runs.get(job.name() + " unicast-ack");
                double delivered = (double) mc.params().bytes() * mc.common().members().size();
                double acksIna = median(ina.stream().mapToDouble(j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L)).toArray());
                System.out.printf("%s: delivered bytes/s INA %.3e%s; ACK packets into the source INA %.0f%s%n", job.name(),
                        delivered / (median(ina.stream().mapToDouble(Report.JobReport::wallMillis).toArray()) / 1000.0),
                        uni == null ? "" : String.format(", unicast-ack %.3e",
                                delivered / (median(uni.stream().mapToDouble(Report.JobReport::wallMillis).toArray()) / 1000.0)),
                        acksIna, uni == null ? "" : String.format(", unicast-ack %.0f: ratio %.4f (theory 1/receivers = %.4f without loss)",
                                median(uni.stream().mapToDouble(j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L)).toArray()),
                                acksIna / median(uni.stream().mapToDouble(j -> j.stats().getOrDefault("ackPacketsIntoSource", 0L)).toArray()),
                                1.0 / mc.common().members().size()));
                continue;
            }
            if (job instanceof MoeSpec moe) {
                List<Report.JobReport> ina = runs.get(job.name() + " ina");
                List<Report.JobReport> a2a = runs.get(job.name() + " all-to-all");
                int k = moe.params().topK();
                double tokens = (double) moe.params().tokensPerSource() * moe.sources().size();
                System.out.printf("%s: tokens/s INA %.0f, all-to-all %.0f; INA/all-to-all source-uplink bytes = %.4f; theory %.4f (1/K, K=%d,"
                                + " headers aside)%n", job.name(),
                        tokens / (median(ina.stream().mapToDouble(Report.JobReport::wallMillis).toArray()) / 1000.0),
                        a2a == null ? Double.NaN : tokens / (median(a2a.stream().mapToDouble(Report.JobReport::wallMillis).toArray()) / 1000.0),
                        a2a == null ? Double.NaN : median(ina.stream().mapToDouble(Report.JobReport::sourceUplinkBytes).toArray())
                                / median(a2a.stream().mapToDouble(Report.JobReport::sourceUplinkBytes).toArray()), 1.0 / k, k);
                continue;
            }
            Long ina = maxLink.get(job.name() + " ina");
            int n = job.common().members().size();
            for (String b : job.common().baselines()) {
                Long base = maxLink.get(job.name() + " " + b);
                if (ina != null && base != null) {
                    String theory = switch (b) {
                        // ring: each member sends 2(N-1)/N of its array; INA: the array once each way
                        case "ring" -> String.format("%.4f (N/(2(N-1)), N=%d)", n / (2.0 * (n - 1)), n);
                        // PS: the server's link carries N arrays; INA's busiest link carries one
                        case "ps" -> String.format("%.4f (1/N, N=%d)", 1.0 / n, n);
                        default -> "-";
                    };
                    System.out.printf("%s: INA/%s max link bytes = %.4f; theory %s%n", job.name(), b, (double) ina / base, theory);
                }
            }
        }
    }

    private static String key(List<Clock> order, Clock c, Report.JobReport j) {
        return (order.size() > 1 ? c.configName() + " " : "") + j.name() + " " + j.mode();
    }

    /** Packet-hops per second under each clock, same runs, and virtual's over real's (issue: at least 0.7). */
    private static void clockComparison(Map<String, List<Report.JobReport>> runs, List<Clock> order) {
        System.out.printf("%-24s %16s %16s %8s%n", "job mode", "virtual hops/s", "real hops/s", "ratio");
        for (String k : runs.keySet()) {
            if (!k.startsWith("virtual ")) {
                continue;
            }
            String jm = k.substring("virtual ".length());
            double v = hopsPerSecond(runs.get(k));
            double r = hopsPerSecond(runs.getOrDefault("real " + jm, List.of()));
            System.out.printf("%-24s %16.0f %16.0f %8.2f%n", jm, v, r, v / r);
        }
    }

    private static double hopsPerSecond(List<Report.JobReport> js) {
        if (js.isEmpty()) {
            return Double.NaN;
        }
        return median(js.stream().mapToDouble(j -> j.packets() / Math.max(1e-3, j.wallMillis() / 1000.0)).toArray());
    }

    /**
     * The virtual clock's windows, per run (medians): how many, events per window, wall time
     * per window, and the barrier's share of it: wall per window less the devices' busy time
     * spread over this machine's cores (an estimate: what the window cost beyond the work).
     */
    private static void windowFigures(List<RunProgress> ps, int members) {
        int cores = Runtime.getRuntime().availableProcessors();
        double windows = median(ps.stream().mapToDouble(RunProgress::windows).toArray());
        double events = median(ps.stream().mapToDouble(p -> p.windowEvents() / (double) Math.max(1, p.windows())).toArray());
        double wall = median(ps.stream().mapToDouble(p -> p.windowWallNanos() / 1000.0 / Math.max(1, p.windows())).toArray());
        double barrier = median(ps.stream().mapToDouble(p -> Math.max(0, p.windowWallNanos() - p.deviceBusyNanos() / (double) cores)
                / 1000.0 / Math.max(1, p.windows())).toArray());
        System.out.printf("virtual clock on %d member%s: %.0f windows a run, %.1f events a window, %.1f us wall a window, barrier about"
                + " %.1f us a window (wall less device busy time / %d cores)%n", members, members == 1 ? "" : "s", windows, events, wall,
                barrier, cores);
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
