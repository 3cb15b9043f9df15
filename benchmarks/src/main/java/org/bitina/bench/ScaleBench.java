package org.bitina.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import org.bitina.job.Mode;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecases.PhasePlanner;

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
    private ScaleBench() {}

    /** One measured run. */
    private record Run(
            double setupMillis,
            double runSeconds,
            double phaseMillis,
            double wallMicrosPerHop,
            double cpuMicrosPerHop,
            double peakHeapMiB,
            long hops,
            boolean verified,
            double windows,
            double wallMicrosPerWindow,
            long headerBytes,
            long linkBytes) {}

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

    /**
     * MoE dispatch and combine at k (issue 17 item 3): {@code experts} experts spread evenly over
     * the pods (on the last hosts of each, several a host where a pod has too few), one token source on the first host of each pod,
     * {@code tokens} tokens each, top-{@code topK}, hidden size 64.
     */
    static String moeScenario(int k, int experts, int topK, int tokens, String encoding, int mtu) {
        int hostsPerPod = k * k / 4;
        StringBuilder ex = new StringBuilder();
        int perPod = Math.max(1, experts / k);
        for (int e = 0; e < experts; e++) {
            int pod = e / perPod % k;
            // the pod's last hosts, several experts a host when a pod has fewer hosts than experts (its first host is
            // the source)
            int host = pod * hostsPerPod + hostsPerPod - (e % perPod) % (hostsPerPod - 1);
            ex.append("{ name = e")
                    .append(e + 1)
                    .append(", host = h")
                    .append(host)
                    .append(" }, ");
        }
        StringBuilder sources = new StringBuilder();
        for (int pod = 0; pod < k; pod++) {
            sources.append(pod == 0 ? "" : ", ").append("h").append(pod * hostsPerPod + 1);
        }
        return """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = %d, loss = 0 }
                  generator { kind = fat-tree, k = %d }
                }
                jobs = [{
                  name = moe, kind = moe, tenant = 1
                  sources = [%s]
                  experts = [%s]
                  moe { top-k = %d, hidden = 64, tokens-per-source = %d, capacity-factor = 2.0, seed = 12, granularity = group }
                  %s
                  completion-timeout = 1s
                }]
                cluster { jvms = 1, placement = by-pod }
                """.formatted(
                        mtu, k, sources, ex, topK, tokens, encoding.equals("flat") ? "" : "encoding = " + encoding);
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
        String kind = "allreduce";
        int experts = 256;
        int topK = 8;
        int tokens = 64;
        for (int i = 0; i + 1 < args.length || (i < args.length && args[i].equals("--plan-only")); i += 2) {
            switch (args[i]) {
                case "--kind" -> kind = args[i + 1];
                case "--experts" -> experts = Integer.parseInt(args[i + 1]);
                case "--top-k" -> topK = Integer.parseInt(args[i + 1]);
                case "--tokens" -> tokens = Integer.parseInt(args[i + 1]);
                case "--k" ->
                    ks = Arrays.stream(args[i + 1].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
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
                    System.err.println(
                            "usage: ScaleBench [--k 4,8,16,32] [--elements N] [--chunk N] [--encoding flat|hierarchical|node-list]"
                                    + " [--repeat N] [--warmup N] [--mtu B] [--plan-only] [--kind allreduce|moe [--experts E] [--top-k K] [--tokens T]]");
                    System.exit(2);
                }
            }
        }
        final int ex = experts;
        final int kk = topK;
        final int tk = tokens;
        final String enc = encoding;
        final int el = elements;
        final int ch = chunk;
        final int m = mtu;
        IntFunction<String> text =
                kind.equals("moe") ? k -> moeScenario(k, ex, kk, tk, enc, m) : k -> scenario(k, el, ch, enc, m);
        if (!kind.equals("moe") && !kind.equals("allreduce")) {
            System.err.println("--kind is allreduce or moe");
            System.exit(2);
        }
        if (planOnly) {
            planOnly(ks, text, encoding, mtu);
            return;
        }
        if (kind.equals("moe")) {
            System.out.printf(
                    "MoE, %d experts spread over the pods, a source on each pod's first host, %d tokens each, top-%d, hidden 64,"
                            + " %s encoding, MTU %d; %d warm-up run(s) excluded, %d measured: median [min, max]; max heap %d MiB%n",
                    experts,
                    tokens,
                    topK,
                    encoding,
                    mtu,
                    warmup,
                    repeat,
                    Runtime.getRuntime().maxMemory() >> 20);
        } else {
            System.out.printf(
                    "AllReduce, every host, auto VAT rooted at core-1, %d float32 per worker, chunks of %d, %s encoding, MTU %d;"
                            + " %d warm-up run(s) excluded, %d measured: median [min, max]; max heap %d MiB%n",
                    elements,
                    chunk,
                    encoding,
                    mtu,
                    warmup,
                    repeat,
                    Runtime.getRuntime().maxMemory() >> 20);
        }
        System.out.println(
                "| k | hosts | switches | setup ms (routing + planning) | run s (whole) | INA phase ms | wall us/hop | CPU us/hop"
                        + " | peak heap MiB | packet-hops | verified | clock windows (all phases) | wall us/window | INA header bytes | INA link bytes |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        boolean allVerified = true;
        for (int k : ks) {
            Path file = Files.createTempFile("bitina-scale-k" + k + "-", ".conf");
            Files.writeString(file, text.apply(k));
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
            System.out.printf(
                    "| %d | %d | %d | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %,d | %,d |%n",
                    k,
                    k * k * k / 4,
                    5 * k * k / 4,
                    stat(runs, Run::setupMillis, "%.0f"),
                    stat(runs, Run::runSeconds, "%.1f"),
                    stat(runs, Run::phaseMillis, "%.0f"),
                    stat(runs, Run::wallMicrosPerHop, "%.2f"),
                    stat(runs, Run::cpuMicrosPerHop, "%.2f"),
                    stat(runs, Run::peakHeapMiB, "%.0f"),
                    runs.get(0).hops(),
                    runs.stream().allMatch(Run::verified) ? "yes" : "NO",
                    stat(runs, Run::windows, "%.0f"),
                    stat(runs, Run::wallMicrosPerWindow, "%.0f"),
                    runs.get(0).headerBytes(),
                    runs.get(0).linkBytes());
        }
        System.exit(allVerified ? 0 : 1);
    }

    /** Routing and planning only, as the coordinator sets a run up: times, and the heap the plan holds. */
    private static void planOnly(int[] ks, IntFunction<String> text, String encoding, int mtu) throws Exception {
        System.out.printf(
                "set-up only (routing for every host's switch, then every phase's plan), %s encoding, MTU %d; max heap %d MiB%n",
                encoding, mtu, Runtime.getRuntime().maxMemory() >> 20);
        System.out.println(
                "| k | hosts | switches | nodes with tables | routing ms | planning ms | heap held after GC MiB |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int k : ks) {
            Path file = Files.createTempFile("bitina-scale-k" + k + "-", ".conf");
            Files.writeString(file, text.apply(k));
            Scenario s = ScenarioLoader.load(file);
            Files.deleteIfExists(file);
            System.gc();
            long t0 = System.nanoTime();
            Routing routing = Routing.compute(s.topology())
                    .prepare(s.topology().hosts().stream().map(Node::name).toList());
            long t1 = System.nanoTime();
            List<Phase> phases = PhasePlanner.plan(s, routing);
            long t2 = System.nanoTime();
            System.gc();
            long held = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf(
                    "| %d | %d | %d | %d | %d | %d | %d |%n",
                    k,
                    s.topology().hosts().size(),
                    s.topology().switches().size(),
                    phases.get(0).tables().size(),
                    (t1 - t0) / 1_000_000,
                    (t2 - t1) / 1_000_000,
                    held >> 20);
        }
    }

    private static Run once(Scenario s) throws Exception {
        System.gc();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long[] peak = {memory.getHeapMemoryUsage().getUsed()};
        Thread sampler = new Thread(
                () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        peak[0] = Math.max(peak[0], memory.getHeapMemoryUsage().getUsed());
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        RunProgress progress = new RunProgress();
        Report r = Members.run(s, 1, progress);
        long t1 = System.nanoTime();
        long cpu1 = os.getProcessCpuTime();
        sampler.interrupt();
        sampler.join();
        Report.JobReport ina = r.jobs().stream()
                .filter(j -> j.mode().equals(Mode.INA))
                .findFirst()
                .orElseThrow();
        long hops = ina.traffic().packets();
        Report.Setup setup = r.setup();
        return new Run(
                setup == null ? Double.NaN : setup.routingMillis() + setup.planningMillis(),
                (t1 - t0) / 1e9,
                ina.timing().wallMillis(),
                ina.timing().wallMillis() * 1000.0 / hops,
                (cpu1 - cpu0) / 1000.0 / hops,
                peak[0] / (1024.0 * 1024.0),
                hops,
                ina.outcome().verified() && ina.outcome().status().equals("complete"),
                progress.windows(),
                progress.windowWallNanos() / 1000.0 / Math.max(1, progress.windows()),
                ina.traffic().headerBytes(),
                ina.traffic().totalLinkBytes());
    }

    private static String stat(List<Run> runs, ToDoubleFunction<Run> f, String format) {
        double[] xs = runs.stream().mapToDouble(f).sorted().toArray();
        double median = xs.length % 2 == 1 ? xs[xs.length / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
        return String.format(format + " [" + format + ", " + format + "]", median, xs[0], xs[xs.length - 1]);
    }
}
