package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import org.bitina.wire.InaHeader;

/**
 * Background traffic's flows (T3), as a pure schedule: open-loop unicast flows whose starts are
 * Poisson arrivals at {@code load} of each sender's link rate, drawn from a seeded generator, to
 * destinations chosen by the pattern. The same spec gives the same flows, so every host can compute
 * what it will send and what it should receive without asking anyone.
 *
 * <p>The scenario's {@code traffic} entries; {@code usecase.traffic} runs them at the hosts.
 */
public final class TrafficFlows {
    private TrafficFlows() {}

    /** The tenant id background traffic's packets carry (S1: its own; the loader refuses a job with it). */
    public static final int TENANT = InaHeader.MAX_TENANT;

    /** Who sends to whom. */
    public enum Kind {
        /** A fixed random permutation without fixed points: each host sends to one other, and receives from one. */
        PERMUTATION("permutation"),
        /** Every host but {@code to} sends to {@code to}. */
        INCAST("incast"),
        /** Each flow to a host drawn uniformly from the others. */
        UNIFORM("uniform"),
        /** Each sender's flows go round the other hosts in turn. */
        ALL_TO_ALL("all-to-all");

        private final String configName;

        Kind(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        public static Kind fromConfig(String name) {
            for (Kind k : values()) {
                if (k.configName.equals(name)) {
                    return k;
                }
            }
            throw new IllegalArgumentException(
                    "unknown traffic kind '" + name + "' (known: permutation, incast, uniform, all-to-all)");
        }
    }

    /**
     * One traffic entry.
     *
     * @param hosts      the hosts taking part, in a fixed order (the draws depend on it)
     * @param to         incast's destination (one of {@code hosts}), else null
     * @param load       each sender's offered load as a fraction of its link rate, in (0, 1]
     * @param flowBytes  every flow's size
     * @param startNanos the first arrival is no earlier (modelled time)
     * @param stopNanos  no flow starts at or after it
     */
    public record Spec(
            Kind kind,
            List<String> hosts,
            String to,
            double load,
            long flowBytes,
            long startNanos,
            long stopNanos,
            long seed,
            Dcqcn.Settings congestion) {
        /** An entry whose senders run no congestion control. */
        public Spec(
                Kind kind,
                List<String> hosts,
                String to,
                double load,
                long flowBytes,
                long startNanos,
                long stopNanos,
                long seed) {
            this(kind, hosts, to, load, flowBytes, startNanos, stopNanos, seed, null);
        }

        public Spec {
            hosts = List.copyOf(hosts);
            if (hosts.size() < 2) {
                throw new IllegalArgumentException("traffic needs at least two hosts, got " + hosts);
            }
            if (!(load > 0 && load <= 1) || flowBytes <= 0 || startNanos < 0 || stopNanos < startNanos) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "bad traffic: load %s, flow size %d, start %d ns, stop %d ns",
                        load,
                        flowBytes,
                        startNanos,
                        stopNanos));
            }
            if ((kind == Kind.INCAST) != (to != null) || (to != null && !hosts.contains(to))) {
                throw new IllegalArgumentException(
                        kind == Kind.INCAST
                                ? "incast needs 'to', one of its hosts, got " + to
                                : "only incast has 'to', got " + to);
            }
        }
    }

    /**
     * @param index      the flow's number within its entry, in start order: what names it on the wire
     * @param startNanos when its first byte is handed to the sender's NIC (modelled time)
     */
    public record Flow(int index, String from, String to, long startNanos, long bytes) {}

    /** Every flow of {@code spec}, in (start, sender) order; {@code linkBps} gives each sender's link rate. */
    public static List<Flow> flows(Spec spec, ToLongFunction<String> linkBps) {
        List<String> hosts = spec.hosts();
        int n = hosts.size();
        SplittableRandom root = new SplittableRandom(spec.seed());
        int[] permutation = spec.kind() == Kind.PERMUTATION ? derangement(n, root.split()) : null;
        List<Flow> out = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            // one stream per sender, split in host order: a sender's flows do not depend on the others'
            SplittableRandom random = root.split();
            String from = hosts.get(s);
            if (spec.kind() == Kind.INCAST && from.equals(spec.to())) {
                continue;
            }
            double meanGapNanos = spec.flowBytes() * 8e9 / (spec.load() * linkBps.applyAsLong(from));
            long t = spec.startNanos();
            int sent = 0;
            while (true) {
                // exponential gaps: Poisson arrivals whose mean offered rate is load x the link rate
                t += Math.round(-Math.log(1 - random.nextDouble()) * meanGapNanos);
                if (t >= spec.stopNanos()) {
                    break;
                }
                String to = switch (spec.kind()) {
                    case PERMUTATION -> hosts.get(permutation[s]);
                    case INCAST -> spec.to();
                    case UNIFORM -> hosts.get(other(s, random.nextInt(n - 1)));
                    case ALL_TO_ALL -> hosts.get(other(s, sent % (n - 1)));
                };
                out.add(new Flow(0, from, to, t, spec.flowBytes()));
                sent++;
            }
        }
        out.sort(Comparator.comparingLong(Flow::startNanos).thenComparingInt(f -> hosts.indexOf(f.from())));
        List<Flow> numbered = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            Flow f = out.get(i);
            numbered.add(new Flow(i, f.from(), f.to(), f.startNanos(), f.bytes()));
        }
        return numbered;
    }

    /** The {@code k}-th host other than {@code s}, in order. */
    private static int other(int s, int k) {
        return k < s ? k : k + 1;
    }

    /** A uniformly drawn permutation of 0..n-1 without fixed points (rejection: about e draws). */
    private static int[] derangement(int n, SplittableRandom random) {
        int[] p = new int[n];
        while (true) {
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int x = p[i];
                p[i] = p[j];
                p[j] = x;
            }
            boolean fixed = false;
            for (int i = 0; i < n && !fixed; i++) {
                fixed = p[i] == i;
            }
            if (!fixed) {
                return p;
            }
        }
    }
}
