package org.bitina.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;

/**
 * AllReduce over every host of a fat tree, k by k (issue 17 item 4d): setup time (routing and
 * planning, from the report's {@code setup}), the whole run's wall time, the INA phase's wall
 * time, wall and CPU microseconds per packet-hop, peak heap in use and whether it verified.
 * Each k runs {@code --warmup} times unmeasured, then {@code --repeat} times; median, min and
 * max of the measured runs. A run that does not verify is printed as such.
 *
 * <pre>./bench scale [--k 4,8,16,32] [--elements 4096] [--chunk 512] [--encoding flat|hierarchical] [--repeat 3] [--warmup 1]
 *              [--mtu BYTES] [--plan-only]</pre>
 *
 * {@code --plan-only} sets up without running (routing and every phase's plan, as the
 * coordinator does), for sizes whose run does not fit here: it prints the setup time and the
 * heap the plan holds after a full collection.
 */
public final class ScaleBench {
    private ScaleBench() {
    }

    /** One measured run. */
    private record Run(double setupMillis, double runSeconds, double phaseMillis, double wallMicrosPerHop, double cpuMicrosPerHop,
                       double peakHeapMiB, long hops, boolean verified) {
    }

    static String scenario(int k, int elements, int chunk, String encoding, int mtu) {
        return """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = %d, loss = 0 }
                  generator { kind = fat-tree, k = %d }
                }
                jobs = [{
                  name = ar, kind = allreduce, tenant = 1
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = %d, type = float32, op = sum, chunk = %d, window = 8, seed = 8 }
                  %s
                  completion-timeout = 1s
                }]
                cluster { jvms = 1, placement = by-pod }
                """.formatted(mtu, k, elements, chunk, encoding.equals("flat") ? "" : "encoding = " + encoding);
    }

    public static void main(String[] args) throws Exception {
        int[] ks = {4, 8, 16, 32};
        int elements = 4096;
        int chunk = 512;
        String encoding = "flat";
        int repeat = 3;
        int warmup = 1;
        int mtu = 4096;
        boolean planOnly = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--k" -> ks = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--elements" -> elements = Integer.parseInt(args[i + 1]);
                case "--chunk" -> chunk = Integer.parseInt(args[i + 1]);
                case "--encoding" -> encoding = args[i + 1];
                case "--repeat" -> repeat = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--mtu" -> mtu = Integer.parseInt(args[i + 1]);
                case "--plan-only" -> {
                    planOnly = true;
                    i--;
                }
                default -> {
                    System.err.println("usage: ScaleBench [--k 4,8,16,32] [--elements N] [--chunk N] [--encoding flat|hierarchical]"
                            + " [--repeat N] [--warmup N]");
                    System.exit(2);
                }
            }
        }
        if (planOnly) {
            planOnly(ks, elements, chunk, encoding, mtu);
            return;
        }
        System.out.printf("AllReduce, every host, auto VAT rooted at core-1, %d float32 per worker, chunks of %d, %s encoding;"
                + " %d warm-up run(s) excluded, %d measured: median [min, max]; max heap %d MiB%n", elements, chunk, encoding, warmup,
                repeat, Runtime.getRuntime().maxMemory() >> 20);
        System.out.println("| k | hosts | switches | setup ms (routing + planning) | run s (whole) | INA phase ms | wall us/hop | CPU us/hop"
                + " | peak heap MiB | packet-hops | verified |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        boolean allVerified = true;
        for (int k : ks) {
            Path file = Files.createTempFile("bitina-scale-k" + k + "-", ".conf");
            Files.writeString(file, scenario(k, elements, chunk, encoding, mtu));
            Scenario s = ScenarioLoader.load(file);
            List<Run> runs = new ArrayList<>();
            for (int r = 0; r < warmup + repeat; r++) {
                Run run = once(s);
                if (r >= warmup) {
                    runs.add(run);
                }
                allVerified &= run.verified();
            }
            Files.deleteIfExists(file);
            System.out.printf("| %d | %d | %d | %s | %s | %s | %s | %s | %s | %d | %s |%n", k, k * k * k / 4, 5 * k * k / 4,
                    stat(runs, Run::setupMillis, "%.0f"), stat(runs, Run::runSeconds, "%.1f"), stat(runs, Run::phaseMillis, "%.0f"),
                    stat(runs, Run::wallMicrosPerHop, "%.2f"), stat(runs, Run::cpuMicrosPerHop, "%.2f"), stat(runs, Run::peakHeapMiB, "%.0f"),
                    runs.get(0).hops(), runs.stream().allMatch(Run::verified) ? "yes" : "NO");
        }
        System.exit(allVerified ? 0 : 1);
    }

    /** Routing and planning only, as the coordinator sets a run up: times, and the heap the plan holds. */
    private static void planOnly(int[] ks, int elements, int chunk, String encoding, int mtu) throws Exception {
        System.out.printf("set-up only (routing for every host's switch, then every phase's plan), %s encoding, MTU %d; max heap %d MiB%n",
                encoding, mtu, Runtime.getRuntime().maxMemory() >> 20);
        System.out.println("| k | hosts | switches | nodes with tables | routing ms | planning ms | heap held after GC MiB |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int k : ks) {
            Path file = Files.createTempFile("bitina-scale-k" + k + "-", ".conf");
            Files.writeString(file, scenario(k, elements, chunk, encoding, mtu));
            Scenario s = ScenarioLoader.load(file);
            Files.deleteIfExists(file);
            System.gc();
            long t0 = System.nanoTime();
            org.bitina.topology.Routing routing = org.bitina.topology.Routing.compute(s.topology())
                    .prepare(s.topology().hosts().stream().map(org.bitina.topology.Node::name).toList());
            long t1 = System.nanoTime();
            List<org.bitina.usecase.Phase> phases = org.bitina.usecase.UseCases.plan(s, routing);
            long t2 = System.nanoTime();
            System.gc();
            long held = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf("| %d | %d | %d | %d | %d | %d | %d |%n", k, s.topology().hosts().size(), s.topology().switches().size(),
                    phases.get(0).tables().size(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, held >> 20);
        }
    }

    private static Run once(Scenario s) throws Exception {
        System.gc();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long[] peak = {memory.getHeapMemoryUsage().getUsed()};
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak[0] = Math.max(peak[0], memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Report r = Members.run(s, 1, new RunProgress());
        long t1 = System.nanoTime();
        long cpu1 = os.getProcessCpuTime();
        sampler.interrupt();
        sampler.join();
        Report.JobReport ina = r.jobs().stream().filter(j -> j.mode().equals("ina")).findFirst().orElseThrow();
        long hops = ina.packets();
        Report.Setup setup = r.setup();
        return new Run(setup == null ? Double.NaN : setup.routingMillis() + setup.planningMillis(), (t1 - t0) / 1e9, ina.wallMillis(),
                ina.wallMillis() * 1000.0 / hops, (cpu1 - cpu0) / 1000.0 / hops, peak[0] / (1024.0 * 1024.0), hops,
                ina.verified() && ina.status().equals("complete"));
    }

    private static String stat(List<Run> runs, java.util.function.ToDoubleFunction<Run> f, String format) {
        double[] xs = runs.stream().mapToDouble(f).sorted().toArray();
        double median = xs.length % 2 == 1 ? xs[xs.length / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
        return String.format(format + " [" + format + ", " + format + "]", median, xs[0], xs[xs.length - 1]);
    }
}
