package org.bitina.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * bitina against the limits, in one command (issue 17 item 4): P1, INA packet-hops per
 * CPU-second against a plain Pekko typed tree of the same shape and packet size
 * ({@link PlainTree}), alternating in this JVM; P3, an aggregation through the table
 * against a plain loop ({@link AggregationLimitBench}, JMH); and the cross-JVM codec
 * against Jackson CBOR, each batched and unbatched ({@link RemoteBench}). Warm-up runs are
 * left out; median, min and max of the rest.
 *
 * <pre>./bench limits [--repeat 3] [--elements 1048576] [--only p1|p3|codec]</pre>
 */
public final class LimitsBench {
    private LimitsBench() {}

    public static void main(String[] args) throws Exception {
        int repeat = 3;
        int elements = 1_048_576;
        String only = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--repeat" -> repeat = Integer.parseInt(args[i + 1]);
                case "--elements" -> elements = Integer.parseInt(args[i + 1]);
                case "--only" -> only = args[i + 1];
                default -> {
                    System.err.println("usage: LimitsBench [--repeat N] [--elements N] [--only p1|p3|codec]");
                    System.exit(2);
                }
            }
        }
        if (only == null || only.equals("p1")) {
            p1(repeat, elements);
        }
        if (only == null || only.equals("p3")) {
            p3();
        }
        if (only == null || only.equals("codec")) {
            System.out.println();
            System.out.println(
                    "## Cross-JVM: binary codec against Jackson CBOR, unbatched and batched by 16 (./bench remote)");
            RemoteBench.main(new String[] {"--rounds", String.valueOf(Math.max(3, repeat))});
        }
        System.exit(0);
    }

    private static void p1(int repeat, int elements) throws Exception {
        int k = 8;
        int chunk = 1000;
        int window = 64;
        Path file = Files.createTempFile("bitina-limits-", ".conf");
        Files.writeString(file, """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096, loss = 0 }
                  generator { kind = fat-tree, k = %d }
                }
                jobs = [{
                  name = ft8, kind = allreduce, tenant = 1
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = %d, type = float32, op = sum, chunk = %d, window = %d, seed = 8 }
                  completion-timeout = 1s
                }]
                cluster { jvms = 1, placement = by-pod }
                """.formatted(k, elements, chunk, window));
        Scenario macOn = ScenarioLoader.load(file);
        Files.deleteIfExists(file);
        Scenario macOff = macOn.withSecurity(new Scenario.Security(false));
        Topology t = Topologies.fatTree(k, LinkSpec.DEFAULT);
        List<String> hosts = t.hosts().stream().map(Node::name).toList();
        InaPacket sample = new InaPacket(
                InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM),
                FlatBitmap.of(hosts.size(), 0),
                Payload.of(new float[chunk]));
        int packetBytes = PacketCodec.encodedSize(sample);
        int chunks = (elements + chunk - 1) / chunk;
        System.out.printf(
                "## P1: packet-hops per CPU-second, fat tree k=%d, %d workers, %d float32 per worker in %d chunks of %d,"
                        + " window %d; the plain tree moves %d-byte arrays (bitina's packet without its tag)%n",
                k, hosts.size(), elements, chunks, chunk, window, packetBytes);
        System.out.println(
                "CPU: the process's CPU time over the whole run (set-up included, both sides); wall: the INA phase"
                        + " (bitina's wallMillis) or the plain tree from its start to its last delivery");
        Map<String, List<double[]>> rates = new LinkedHashMap<>();
        for (int r = 0; r <= repeat; r++) {
            double[] on = bitina(macOn);
            double[] off = bitina(macOff);
            PlainTree.Result p = PlainTree.run(t, hosts, "core-1", chunks, window, packetBytes);
            double[] plain = {p.hops() / (p.cpuNanos() / 1e9), p.hops() / (p.wallNanos() / 1e9), p.hops()};
            if (r == 0) {
                continue; // warm-up
            }
            rates.computeIfAbsent("bitina INA, MACs on (default)", x -> new ArrayList<>())
                    .add(on);
            rates.computeIfAbsent("bitina INA, MACs off", x -> new ArrayList<>())
                    .add(off);
            rates.computeIfAbsent("plain Pekko typed tree", x -> new ArrayList<>())
                    .add(plain);
        }
        System.out.println(
                "| what | packet-hops per run | packet-hops per CPU-s | per wall-s | ratio to the plain tree (CPU) | (wall) |");
        System.out.println("|---|---|---|---|---|---|");
        double plainCpu = median(col(rates.get("plain Pekko typed tree"), 0));
        double plainWall = median(col(rates.get("plain Pekko typed tree"), 1));
        for (Map.Entry<String, List<double[]>> e : rates.entrySet()) {
            List<double[]> xs = e.getValue();
            System.out.printf(
                    "| %s | %.0f | %s | %s | %.2f | %.2f |%n",
                    e.getKey(),
                    median(col(xs, 2)),
                    stat(col(xs, 0)),
                    stat(col(xs, 1)),
                    median(col(xs, 0)) / plainCpu,
                    median(col(xs, 1)) / plainWall);
        }
    }

    /** {packet-hops per CPU-second, per wall-second of the phase, packet-hops}; fails the benchmark when the run did not verify. */
    private static double[] bitina(Scenario s) throws Exception {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        Report r = Members.run(s, 1, new RunProgress());
        long cpu = os.getProcessCpuTime() - cpu0;
        Report.JobReport ina = r.jobs().get(0);
        if (!ina.outcome().verified() || !ina.outcome().status().equals("complete")) {
            System.out.println("bitina's run did not verify: " + ina.outcome().status() + " "
                    + ina.problems().mismatches());
            System.exit(1);
        }
        return new double[] {
            ina.traffic().packets() / (cpu / 1e9),
            ina.traffic().packets() / (ina.timing().wallMillis() / 1e3),
            ina.traffic().packets()
        };
    }

    private static void p3() throws Exception {
        System.out.println();
        System.out.println("## P3: aggregations per second (fan-in contributions reduced into one result), JMH,"
                + " AggregationTable.offer against a plain acc[i] += x[i] loop over the same arrays");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include(AggregationLimitBench.class.getName())
                        .build())
                .run();
        Map<String, double[]> byParams = new LinkedHashMap<>();
        for (RunResult rr : results) {
            String fanIn = rr.getParams().getParam("fanIn");
            String elements = rr.getParams().getParam("elements");
            boolean plain = rr.getParams().getBenchmark().endsWith("plainLoop");
            double[] v = byParams.computeIfAbsent(fanIn + " " + elements, x -> new double[2]);
            v[plain ? 1 : 0] = rr.getPrimaryResult().getScore();
        }
        System.out.println("| fan-in | elements | bitina aggregations/s | plain loop aggregations/s | ratio |");
        System.out.println("|---|---|---|---|---|");
        byParams.forEach((k, v) -> {
            String[] p = k.split(" ");
            System.out.printf("| %s | %s | %,.0f | %,.0f | %.3f |%n", p[0], p[1], v[0], v[1], v[0] / v[1]);
        });
    }

    private static double[] col(List<double[]> xs, int i) {
        return xs.stream().mapToDouble(x -> x[i]).toArray();
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String stat(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return String.format("%,.0f [%,.0f, %,.0f]", median(s), s[0], s[s.length - 1]);
    }
}
