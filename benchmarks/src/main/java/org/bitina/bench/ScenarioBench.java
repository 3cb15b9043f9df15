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
import org.bitina.scenario.ScenarioLoader;
import org.bitina.usecase.JobSpec;
import org.bitina.scenario.Scenario;

/**
 * Runs a whole scenario several times in one JVM and prints, per job and mode, the median
 * wall time, packet-hops per second (link transmissions / wall time), and the INA/baseline
 * ratio of max link bytes beside its theoretical value. A run that does not verify is
 * reported as such and fails the benchmark: figures of a wrong run are worthless.
 *
 * <pre>./bench scenario topology-configs/fat-tree-k8-allreduce.conf --repeat 3</pre>
 */
public final class ScenarioBench {
    private ScenarioBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ScenarioBench FILE [--repeat N]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int repeat = args.length >= 3 && args[1].equals("--repeat") ? Integer.parseInt(args[2]) : 3;
        Scenario s = ScenarioLoader.load(file);
        Map<String, List<Report.JobReport>> runs = new LinkedHashMap<>();
        for (int i = 0; i < repeat; i++) {
            Report r = ScenarioRunner.run(s, ScenarioRunner.Options.defaults(), new RunProgress());
            for (Report.JobReport j : r.jobs()) {
                runs.computeIfAbsent(j.name() + " " + j.mode(), k -> new ArrayList<>()).add(j);
                if (!j.asExpected()) {
                    System.err.printf("run %d: %s %s ended %s (expected %s): %s%n", i + 1, j.name(), j.mode(), j.status(), j.expected(),
                            j.mismatches().isEmpty() ? j.unfinished() : j.mismatches().get(0));
                    System.exit(1);
                }
            }
            System.err.printf("run %d of %d done%n", i + 1, repeat);
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

    private static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
