package org.bitina.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bitina.protocol.TrafficFlows;
import org.bitina.usecase.UseCase;
import org.bitina.usecases.UseCases;

/**
 * Random small scenarios for the chaos suite (issue: never silently wrong, never hung): from
 * one seed, a topology (a star, or a two-spine leaf-spine whose ECMP splits traffic), one
 * job of any of the four kinds with or without its baselines, and a fault plan of zero to
 * three faults (loss, duplication, reordering, a link flap, a switch crash, a straggler, a
 * silent endpoint). The same seed always gives the same text, so a failure is replayed by
 * its seed alone.
 */
public final class ChaosPlans {
    /**
     * One generated scenario: its HOCON text and what its faults can do.
     *
     * @param lossless nothing can be lost (no fault, or only duplication and reordering)
     * @param recoverable besides those, only loss of at most {@value #RECOVERABLE_LOSS} % (L1: every mode
     *     recovers it and ends complete)
     */
    public record Plan(long seed, String text, boolean lossless, boolean recoverable) {
        public Plan(long seed, String text, boolean lossless) {
            this(seed, text, lossless, lossless);
        }
    }

    /** The loss rate, in percent, up to which a plan without other faults must end complete (L1). */
    public static final int RECOVERABLE_LOSS = 5;

    private ChaosPlans() {}

    public static Plan generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 17);
        boolean star = r.nextBoolean();
        List<String> hosts = new ArrayList<>();
        List<String> switches = new ArrayList<>();
        List<String[]> links = new ArrayList<>();
        StringBuilder t = new StringBuilder("# chaos seed " + seed + "\n");
        if (star) {
            int n = 3 + r.nextInt(4);
            switches.add("s1");
            for (int i = 1; i <= n; i++) {
                hosts.add("h" + i);
                links.add(new String[] {"s1", "h" + i});
            }
            t.append(
                            "topology {\n  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096 }\n  switches = [s1]\n  hosts = [")
                    .append(String.join(", ", hosts))
                    .append("]\n  links = [");
            List<String> ls = new ArrayList<>();
            for (String[] l : links) {
                ls.add("[" + l[0] + ", " + l[1] + "]");
            }
            t.append(String.join(", ", ls)).append("]\n}\n");
        } else {
            t.append("topology {\n  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096 }\n"
                    + "  generator { kind = leaf-spine, spines = 2, leaves = 2, hosts-per-leaf = 2 }\n}\n");
            for (int i = 1; i <= 4; i++) {
                hosts.add("h" + i);
            }
            switches.addAll(List.of("spine-1", "spine-2", "leaf-1", "leaf-2"));
            for (String s : List.of("spine-1", "spine-2")) {
                for (String l : List.of("leaf-1", "leaf-2")) {
                    links.add(new String[] {s, l});
                }
            }
            links.add(new String[] {"leaf-1", "h1"});
            links.add(new String[] {"leaf-1", "h2"});
            links.add(new String[] {"leaf-2", "h3"});
            links.add(new String[] {"leaf-2", "h4"});
        }
        String top = switches.get(0);
        String timeout = pick(r, "20us", "50us", "200us", "1ms");
        // the kinds in the order of the one list of kinds: the same draw picks the same kind
        List<UseCase<?>> kinds = UseCases.chaosKinds();
        UseCase<?> kind = kinds.get(r.nextInt(kinds.size()));
        t.append("jobs = [{\n  name = chaos, kind = ").append(kind.kind()).append(", tenant = 1\n");
        t.append(kind.chaos().lines(r, hosts, top, star));
        t.append("  completion-timeout = ").append(timeout).append("\n}]\n");
        int faults = r.nextInt(4);
        boolean lossless = true;
        boolean recoverable = true;
        List<String> fs = new ArrayList<>();
        for (int i = 0; i < faults; i++) {
            String[] link = links.get(r.nextInt(links.size()));
            String l = "[" + link[0] + ", " + link[1] + "]";
            String at = r.nextInt(3) == 0 ? "0us" : (1 + r.nextInt(60)) + "us";
            String host = hosts.get(r.nextInt(hosts.size()));
            switch (r.nextInt(7)) {
                case 0 -> {
                    // half of the losses within what must be recovered, the other half up to 20 %
                    int rate = 1 + r.nextInt(r.nextBoolean() ? RECOVERABLE_LOSS : 20);
                    fs.add("{ at = " + at + ", kind = loss, rate = " + rate + "%"
                            + (r.nextBoolean() ? ", link = " + l : "") + " }");
                    lossless = false;
                    recoverable &= rate <= RECOVERABLE_LOSS;
                }
                case 1 ->
                    fs.add("{ at = " + at + ", kind = duplicate, rate = " + (1 + r.nextInt(30)) + "%"
                            + (r.nextBoolean() ? ", link = " + l : "") + " }");
                case 2 ->
                    fs.add("{ at = " + at + ", kind = reorder, rate = " + (1 + r.nextInt(30)) + "%"
                            + (r.nextBoolean() ? ", link = " + l : "") + " }");
                case 3 -> {
                    int down = 1 + r.nextInt(40);
                    fs.add("{ at = " + down + "us, kind = link-down, link = " + l + " }");
                    fs.add("{ at = " + (down + 1 + r.nextInt(200)) + "us, kind = link-up, link = " + l + " }");
                    lossless = false;
                    recoverable = false;
                }
                case 4 -> {
                    String node = switches.get(r.nextInt(switches.size()));
                    // VAT repair is built for one tree: over partitions the switch goes down as its links do
                    fs.add(
                            t.indexOf("partitions = ") >= 0
                                    ? "{ at = " + at + ", kind = link-down, link = " + l + " }"
                                    : "{ at = " + at + ", kind = switch-crash, node = " + node + " }");
                    lossless = false;
                    recoverable = false;
                }
                case 5 -> {
                    fs.add("{ at = 0us, kind = straggler, node = " + host + ", delay = "
                            + pick(r, "5us", "50us", "500us", "3ms") + " }");
                    lossless = false;
                    recoverable = false;
                }
                default -> {
                    fs.add("{ at = 0us, kind = silent, node = " + host + " }");
                    lossless = false;
                    recoverable = false;
                }
            }
        }
        if (!fs.isEmpty()) {
            t.append("faults = [\n  ").append(String.join(",\n  ", fs)).append("\n]\n");
        }
        return new Plan(seed, t.toString(), lossless, lossless || recoverable);
    }

    /**
     * A shared-fabric plan (T1-T3; {@code ./bench chaos --shared}): on the two-spine leaf-spine, two
     * tenants' AllReduce jobs over the same hosts and bit positions under {@code schedule = shared},
     * the second from 0, a few microseconds later or after the first; strict or best-effort each;
     * a tight pool of switch entries, small drop-tail buffers or none, seeded loss on every link or
     * none, maybe a straggler, maybe a spine crash or a link down ({@link #fabricFaults}); one or both
     * worlds, with or without the alone runs. Queue drops, loss and faults make such a plan neither
     * lossless nor held to complete: it must keep the other invariants
     * (verified or naming what is missing, never wrong, never hung). Background traffic beside them ({@link
     * #traffic}) must add up (see {@code run.ChaosCheck}). The same seed gives the same text.
     */
    public static Plan generateShared(long seed) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 29);
        String buffer = pick(r, "8KiB", "16KiB", "64KiB", "");
        int loss = r.nextInt(3) == 0 ? 1 + r.nextInt(3) : 0;
        StringBuilder t = new StringBuilder("# chaos shared seed " + seed + "\n");
        t.append("topology {\n  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096");
        if (!buffer.isEmpty()) {
            t.append(", buffer = ").append(buffer);
        }
        if (loss > 0) {
            t.append(", loss = ").append(loss).append("%");
        }
        t.append(" }\n  generator { kind = leaf-spine, spines = 2, leaves = 2, hosts-per-leaf = 2 }\n");
        t.append("  switch-defaults { state-entries = ")
                .append(pick(r, "2", "4", "8", "16"))
                .append(" }\n}\n");
        t.append("schedule = shared\nworlds = ")
                .append(pick(r, "[ina, baseline]", "[ina]"))
                .append("\nalone = ")
                .append(r.nextBoolean())
                .append("\n");
        String timeout = pick(r, "50us", "200us", "1ms");
        t.append("jobs = [");
        for (int job = 1; job <= 2; job++) {
            t.append(job == 1 ? "{\n" : ", {\n");
            t.append("  name = t")
                    .append(job)
                    .append(", kind = allreduce, tenant = ")
                    .append(job)
                    .append("\n");
            t.append("  admission = ").append(pick(r, "strict", "best-effort")).append("\n");
            if (job == 2) {
                t.append(pick(r, "", "  start = 5us\n", "  start = 20us\n", "  after = [t1]\n"));
            }
            t.append("  members = all\n  tree { mode = auto, root = spine-1 }\n");
            t.append("  data { elements = ")
                    .append(256 * (4 + r.nextInt(13)))
                    .append(", type = ")
                    .append(pick(r, "float32", "int32"))
                    .append(", op = sum, chunk = 256, window = ")
                    .append(1 + r.nextInt(8))
                    .append(", seed = ")
                    .append(r.nextInt(1000))
                    .append(" }\n");
            t.append(pick(r, "", "  baselines = [ring]\n", "  baselines = [ps]\n"));
            t.append("  completion-timeout = ").append(timeout).append("\n}");
        }
        t.append("]\n");
        List<String> faults = new ArrayList<>();
        boolean straggler = r.nextInt(3) == 0;
        if (straggler) {
            faults.add("{ at = 0us, kind = straggler, node = h" + (1 + r.nextInt(4)) + ", delay = "
                    + pick(r, "5us", "50us") + " }");
        }
        // drawn after the rest, so the draws above (and each seed's topology and jobs) are what they were before
        t.append(traffic(r));
        faults.addAll(fabricFaults(r));
        if (!faults.isEmpty()) {
            t.append("faults = [\n  ").append(String.join("\n  ", faults)).append("\n]\n");
        }
        t.append(congestion(r));
        boolean lossless = buffer.isEmpty() && loss == 0 && faults.isEmpty();
        return new Plan(seed, t.toString(), lossless, lossless);
    }

    /**
     * Network faults on the shared fabric (issue 45 item 3), in a third of the plans: a spine that
     * crashes (the jobs' root or the other), maybe to recover later, or a leaf's uplink that goes
     * down and maybe up again; every job and flow on the fabric meets it.
     */
    private static List<String> fabricFaults(SplittableRandom r) {
        if (r.nextInt(3) != 0) {
            return List.of();
        }
        int at = pick(r, 2, 5, 10);
        boolean back = r.nextBoolean();
        int later = at + pick(r, 10, 30);
        boolean crash = r.nextBoolean();
        String what = crash
                ? "node = spine-" + (1 + r.nextInt(2))
                : "link = [leaf-" + (1 + r.nextInt(2)) + ", spine-" + (1 + r.nextInt(2)) + "]";
        List<String> out = new ArrayList<>();
        out.add("{ at = " + at + "us, kind = " + (crash ? "switch-crash" : "link-down") + ", " + what + " }");
        if (back) {
            out.add("{ at = " + later + "us, kind = " + (crash ? "switch-recover" : "link-up") + ", " + what + " }");
        }
        return out;
    }

    /**
     * DCQCN in a third of the plans (issue 45 item 2): RED marking at every queue, the traffic paced by
     * its reaction points, the INA workers' windows cut by marked results; thresholds small enough for
     * the plans' buffers to mark.
     */
    private static String congestion(SplittableRandom r) {
        if (r.nextInt(3) != 0) {
            return "";
        }
        return "congestion { control = dcqcn, kmin = " + pick(r, "1KiB", "4KiB") + ", kmax = "
                + pick(r, "8KiB", "32KiB") + ", pmax = " + pick(r, "5%", "50%") + ", increase-timer = "
                + pick(r, "10us", "55us") + " }\n";
    }

    /**
     * Background traffic for a shared plan (T3): none in a third of the plans, else one or two entries
     * of any kind over all four hosts, at 10-50 % load, with small or large flows, from 0 or a few
     * microseconds on, each with its own seed. Through the same buffers and lossy links as the jobs'.
     */
    private static String traffic(SplittableRandom r) {
        int entries = r.nextInt(3);
        if (entries == 0) {
            return "";
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            TrafficFlows.Kind kind = TrafficFlows.Kind.values()[r.nextInt(TrafficFlows.Kind.values().length)];
            int start = pick(r, 0, 0, 5);
            out.add("{ kind = " + kind.configName() + ", hosts = \"all\""
                    + (kind == TrafficFlows.Kind.INCAST ? ", to = h" + (1 + r.nextInt(4)) : "")
                    + ", load = " + (10 * (1 + r.nextInt(5))) + "%"
                    + ", flow-size = " + pick(r, "4KiB", "16KiB", "64KiB")
                    + ", start = " + start + "us, stop = " + (start + pick(r, 20, 50, 100)) + "us"
                    + ", seed = " + r.nextInt(1000) + " }");
        }
        return "traffic = [\n  " + String.join(",\n  ", out) + "\n]\n";
    }

    private static int pick(SplittableRandom r, int... options) {
        return options[r.nextInt(options.length)];
    }

    private static String pick(SplittableRandom r, String... options) {
        return options[r.nextInt(options.length)];
    }
}
