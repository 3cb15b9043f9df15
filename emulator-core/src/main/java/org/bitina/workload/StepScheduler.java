package org.bitina.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.bitina.scenario.Schedule;
import org.bitina.scenario.StartRule;

/**
 * The modelled-time schedule of a workload's iterations (W1, W3; docs/workloads.md "Running a
 * workload"): compute steps take their nanoseconds on their rank, one at a time per rank in graph
 * order (a GPU's compute stream) and each after its dependencies; a collective is ready when all
 * its dependencies are done. The fabric runs the collectives: the runner asks when each may start
 * ({@link #startNanos}), says when it began ({@link #begun}) and when it finished ({@link
 * #finished}), and the scheduler carries the compute forward from there, exactly. Iteration {@code
 * i + 1} begins on a rank when every step of iteration {@code i} that the rank takes part in is done
 * (its optimizer step needs all its gradients), so a step of iteration {@code i + 1} also waits for
 * the end of iteration {@code i} on each of its ranks.
 *
 * <p>Each collective of each iteration is a job named by {@link #jobName}. Pure: no clock, time
 * passed in.
 */
public final class StepScheduler implements StartRule {
    private final StepGraph graph;
    private final int iterations;
    private final List<Step> steps;
    private final Map<Integer, Integer> position = new HashMap<>();
    private final Map<String, int[]> byJob = new LinkedHashMap<>();
    /** Per iteration and step position: when it may start (-1: not known yet), began and ended. */
    private final long[][] ready;

    private final long[][] start;
    private final long[][] end;
    /** Per iteration and rank: when the rank's part of the iteration ended (-1: not yet). */
    private final long[][] rankEnd;

    public StepScheduler(StepGraph graph, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("a workload runs at least one iteration, not " + iterations);
        }
        this.graph = graph;
        this.iterations = iterations;
        this.steps = graph.steps();
        for (int p = 0; p < steps.size(); p++) {
            position.put(steps.get(p).id(), p);
        }
        for (int i = 0; i < iterations; i++) {
            for (Step s : steps) {
                if (s.op() instanceof Step.Collective) {
                    byJob.put(jobName(i, s), new int[] {i, position.get(s.id())});
                }
            }
        }
        ready = filled(iterations, steps.size());
        start = filled(iterations, steps.size());
        end = filled(iterations, steps.size());
        rankEnd = filled(iterations, graph.worldSize());
        resolve();
    }

    /**
     * A workload's iterations as a scenario holds them: a fresh scheduler per world, each world running them anew.
     *
     * @param skipped the trace's nodes that run nothing on the fabric, counted by kind ({@code ChakraImport})
     */
    public record Plan(StepGraph graph, int iterations, Map<String, Integer> skipped) implements StartRule.Factory {
        public Plan {
            skipped = Map.copyOf(skipped);
        }

        public Plan(StepGraph graph, int iterations) {
            this(graph, iterations, Map.of());
        }

        @Override
        public StartRule forWorld(Schedule.World world) {
            return new StepScheduler(graph, iterations);
        }

        /** One line, for the console and validate: {@code trace nodes skipped (...): KIND n, ...}; empty when none. */
        public static Optional<String> skippedLine(Map<String, Integer> skipped) {
            if (skipped.isEmpty()) {
                return Optional.empty();
            }
            StringBuilder b = new StringBuilder();
            new TreeMap<>(skipped)
                    .forEach((k, n) -> b.append(b.length() == 0 ? "" : ", ")
                            .append(k)
                            .append(' ')
                            .append(n));
            return Optional.of(
                    "trace nodes skipped (nothing the fabric runs, or a collective this version does not know): " + b);
        }
    }

    /** The job that runs collective {@code s} of iteration {@code iteration} (0-based): {@code i1-s42}. */
    public static String jobName(int iteration, Step s) {
        return "i" + (iteration + 1) + "-s" + s.id();
    }

    /** The collectives of every iteration, in the order their jobs are listed: iteration, then graph order. */
    public List<String> jobs() {
        return List.copyOf(byJob.keySet());
    }

    /** The collective step a job runs. */
    public Step stepOf(String job) {
        return steps.get(slot(job)[1]);
    }

    public StepGraph graph() {
        return graph;
    }

    public int iterations() {
        return iterations;
    }

    @Override
    public long startNanos(String job) {
        int[] k = slot(job);
        long r = ready[k[0]][k[1]];
        return r < 0 ? NOT_YET : r;
    }

    @Override
    public void begun(String job, long nanos) {
        int[] k = slot(job);
        start[k[0]][k[1]] = nanos;
    }

    @Override
    public void finished(String job, long endNanos) {
        int[] k = slot(job);
        if (start[k[0]][k[1]] < 0) {
            throw new IllegalStateException("job " + job + " finished before it began");
        }
        end[k[0]][k[1]] = Math.max(endNanos, start[k[0]][k[1]]);
        resolve();
    }

    /** Whether every step of every iteration has ended. */
    public boolean done() {
        return Arrays.stream(rankEnd[iterations - 1]).allMatch(t -> t >= 0);
    }

    private int[] slot(String job) {
        int[] k = byJob.get(job);
        if (k == null) {
            throw new IllegalArgumentException("no collective of the workload runs as job '" + job + "'");
        }
        return k;
    }

    /**
     * Carries every time that is now known forward: a compute step's end as soon as its
     * dependencies, its rank's previous compute and its ranks' previous iteration have ended; a
     * collective's readiness likewise (its end comes from the fabric).
     */
    private void resolve() {
        for (int i = 0; i < iterations; i++) {
            // the end of each rank's latest compute so far in graph order (its compute stream), -1: unknown
            long[] stream = new long[graph.worldSize()];
            for (int r = 0; r < stream.length; r++) {
                stream[r] = i == 0 ? 0 : rankEnd[i - 1][r];
            }
            for (int p = 0; p < steps.size(); p++) {
                Step s = steps.get(p);
                long deps = depsEnd(i, s);
                if (s.op() instanceof Step.Compute c) {
                    long free = stream[c.rank()];
                    if (end[i][p] < 0 && deps >= 0 && free >= 0) {
                        start[i][p] = Math.max(deps, free);
                        end[i][p] = start[i][p] + c.nanos();
                    }
                    stream[c.rank()] = end[i][p];
                } else if (ready[i][p] < 0 && deps >= 0) {
                    ready[i][p] = deps;
                }
            }
            for (int r = 0; r < graph.worldSize(); r++) {
                if (rankEnd[i][r] < 0) {
                    rankEnd[i][r] = rankEndOf(i, r);
                }
            }
        }
    }

    /** The latest end of {@code s}'s dependencies and of its ranks' previous iteration, or -1 when one is unknown. */
    private long depsEnd(int i, Step s) {
        long t = 0;
        for (List<Integer> deps : List.of(s.dataDeps(), s.ctrlDeps())) {
            for (int d : deps) {
                long e = end[i][position.get(d)];
                if (e < 0) {
                    return -1;
                }
                t = Math.max(t, e);
            }
        }
        if (i > 0) {
            for (int r : ranksOf(s)) {
                long e = rankEnd[i - 1][r];
                if (e < 0) {
                    return -1;
                }
                t = Math.max(t, e);
            }
        }
        return t;
    }

    private long rankEndOf(int i, int rank) {
        long t = i == 0 ? 0 : rankEnd[i - 1][rank];
        if (t < 0) {
            return -1;
        }
        for (int p = 0; p < steps.size(); p++) {
            if (steps.get(p).involves(rank)) {
                if (end[i][p] < 0) {
                    return -1;
                }
                t = Math.max(t, end[i][p]);
            }
        }
        return t;
    }

    private static List<Integer> ranksOf(Step s) {
        if (s.op() instanceof Step.Compute c) {
            return List.of(c.rank());
        }
        if (s.op() instanceof Step.Collective c) {
            return c.group().ranks();
        }
        return List.of(((Step.Transfer) s.op()).rank());
    }

    private static long[][] filled(int rows, int cols) {
        long[][] a = new long[rows][cols];
        for (long[] row : a) {
            Arrays.fill(row, -1);
        }
        return a;
    }

    // ---------------------------------------------------------------- what the iterations took

    /**
     * One step as it ran on the modelled time axis.
     *
     * @param iteration 1 for the first
     * @param job       the job that ran it (a collective), or null (compute)
     */
    public record Span(int iteration, String label, StepType type, String job, long startNanos, long endNanos) {}

    /**
     * One iteration as it ran (W3), over the ranks: its time (the latest rank's end minus the
     * previous iteration's latest end), the longest rank's compute and exposed communication, and
     * per collective type the bytes (per rank, summed over the type's collectives) and the time
     * (the collectives' start-to-end, summed).
     *
     * @param exposedByType the longest-exposed rank's waiting, by the collective it waited for
     */
    public record Iteration(
            int index,
            long startNanos,
            long endNanos,
            long computeNanos,
            long exposedCommNanos,
            Map<StepType, Long> bytesByType,
            Map<StepType, Long> nanosByType,
            Map<StepType, Long> exposedByType) {
        public long iterationNanos() {
            return endNanos - startNanos;
        }
    }

    /** The iterations, once {@link #done()}: index 1 is the first. */
    public List<Iteration> iterationsRun() {
        if (!done()) {
            throw new IllegalStateException("the workload's iterations have not all ended");
        }
        List<Iteration> out = new ArrayList<>();
        long before = 0;
        for (int i = 0; i < iterations; i++) {
            long last = Arrays.stream(rankEnd[i]).max().orElse(0);
            long compute = 0;
            long exposed = -1;
            int worst = 0;
            for (int r = 0; r < graph.worldSize(); r++) {
                long c = computeOf(i, r);
                compute = Math.max(compute, c);
                long e = (rankEnd[i][r] - rankStart(i, r)) - c;
                if (e > exposed) {
                    exposed = e;
                    worst = r;
                }
            }
            Map<StepType, Long> bytes = new EnumMap<>(StepType.class);
            Map<StepType, Long> nanos = new EnumMap<>(StepType.class);
            for (int p = 0; p < steps.size(); p++) {
                if (steps.get(p).op() instanceof Step.Collective c) {
                    bytes.merge(c.type(), c.bytes(), Long::sum);
                    nanos.merge(c.type(), end[i][p] - start[i][p], Long::sum);
                }
            }
            out.add(new Iteration(
                    i + 1, before, last, compute, Math.max(0, exposed), bytes, nanos, exposedByType(i, worst)));
            before = last;
        }
        return List.copyOf(out);
    }

    /** Rank {@code r}'s steps of every iteration in start order: its timeline. */
    public List<Span> timeline(int rank) {
        if (!done()) {
            throw new IllegalStateException("the workload's iterations have not all ended");
        }
        List<Span> out = new ArrayList<>();
        for (int i = 0; i < iterations; i++) {
            for (int p = 0; p < steps.size(); p++) {
                Step s = steps.get(p);
                if (s.involves(rank)) {
                    String job = s.op() instanceof Step.Collective ? jobName(i, s) : null;
                    out.add(new Span(i + 1, s.name(), s.type(), job, start[i][p], end[i][p]));
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return List.copyOf(out);
    }

    private long rankStart(int i, int r) {
        return i == 0 ? 0 : rankEnd[i - 1][r];
    }

    private long computeOf(int i, int r) {
        long c = 0;
        for (int p = 0; p < steps.size(); p++) {
            if (steps.get(p).op() instanceof Step.Compute k && k.rank() == r) {
                c += k.nanos();
            }
        }
        return c;
    }

    /**
     * Rank {@code r}'s idle time in iteration {@code i}, each idle moment given to the collective
     * of the rank that ends first after it (the one the rank is waiting for), by that one's type.
     */
    private Map<StepType, Long> exposedByType(int i, int r) {
        List<long[]> busy = new ArrayList<>();
        List<long[]> colls = new ArrayList<>();
        for (int p = 0; p < steps.size(); p++) {
            Step s = steps.get(p);
            if (s.op() instanceof Step.Compute c && c.rank() == r) {
                busy.add(new long[] {start[i][p], end[i][p]});
            } else if (s.op() instanceof Step.Collective c && c.group().contains(r)) {
                colls.add(new long[] {end[i][p], c.type().ordinal()});
            }
        }
        busy.sort((a, b) -> Long.compare(a[0], b[0]));
        colls.sort((a, b) -> Long.compare(a[0], b[0]));
        Map<StepType, Long> out = new EnumMap<>(StepType.class);
        long t = rankStart(i, r);
        List<long[]> idle = new ArrayList<>();
        for (long[] b : busy) {
            if (b[0] > t) {
                idle.add(new long[] {t, b[0]});
            }
            t = Math.max(t, b[1]);
        }
        if (rankEnd[i][r] > t) {
            idle.add(new long[] {t, rankEnd[i][r]});
        }
        for (long[] gap : idle) {
            long from = gap[0];
            for (long[] c : colls) {
                if (from >= gap[1]) {
                    break;
                }
                if (c[0] <= from) {
                    continue;
                }
                long to = Math.min(gap[1], c[0]);
                out.merge(StepType.values()[(int) c[1]], to - from, Long::sum);
                from = to;
            }
        }
        return out;
    }
}
