package org.bitina.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expands a model description into one training iteration's {@link StepGraph} (docs/workloads.md
 * gives the rules with their formulas). Per rank and micro-batch: forward through the embedding,
 * the blocks and the head, backward in reverse; a block computes attention, then its MLP, with
 * the tensor-parallel AllReduces after each and, in an MoE block, the dispatch before and the
 * combine after the experts (and both again in backward). Gradients are synchronised in the last
 * micro-batch only (gradient accumulation skips the others): in buckets of the gradient stream in
 * backward order over each data-parallel group ({@link Sharding#NONE}), or per unit by
 * ReduceScatter, with an AllGather of the unit's parameters before its forward and its backward
 * ({@link Sharding#FSDP}). Expert parameters are synchronised the same way over the replicas that
 * hold the same experts.
 *
 * <p>Dependencies. Compute, the tensor-parallel AllReduces and the MoE all-to-alls are on the
 * activation path: each waits (data) for the previous step of every rank it involves. Gradient
 * collectives wait (data) for the backward step that produced their last byte, and follow the
 * previous collective of their communicator (control: one stream per communicator); an FSDP
 * AllGather is prefetched one unit ahead (control on the compute two units before). With {@code
 * overlap = false} every step also waits (control) for the step before it on each of its ranks, so
 * a rank does one thing at a time.
 */
public final class ModelExpansion {
    private final WorkloadSource.Model w;
    private final ModelSpec m;
    private final Parallelism p;
    private final ModelFlops flops;
    private final List<Step> steps = new ArrayList<>();
    /** Each rank's latest step on the activation path. */
    private final int[] lastPath;
    /** Each rank's latest step of any kind (the single stream of {@code overlap = false}). */
    private final int[] lastAny;

    private final Map<String, Integer> lastOnGroup = new HashMap<>();
    /** FSDP gathers a rank's next compute must wait for. */
    private final Map<Integer, List<Integer>> pendingGathers = new HashMap<>();

    private ModelExpansion(WorkloadSource.Model workload) {
        this.w = workload;
        this.m = workload.model();
        this.p = workload.parallel();
        this.flops = new ModelFlops(m, p);
        this.lastPath = new int[p.worldSize()];
        this.lastAny = new int[p.worldSize()];
        Arrays.fill(lastPath, -1);
        Arrays.fill(lastAny, -1);
    }

    /** One iteration of {@code workload}. */
    public static StepGraph expand(WorkloadSource.Model workload) {
        ModelExpansion e = new ModelExpansion(workload);
        e.build();
        return new StepGraph(workload.parallel().worldSize(), e.steps);
    }

    // ---------------------------------------------------------------- groups

    /** The tensor-parallel group of data-parallel index {@code d}. */
    public static ProcessGroup tpGroup(Parallelism p, int d) {
        List<Integer> r = new ArrayList<>();
        for (int t = 0; t < p.tp(); t++) {
            r.add(p.rank(d, t));
        }
        return new ProcessGroup("tp" + d, r);
    }

    /** The data-parallel group of tensor-parallel index {@code t}: every replica's rank {@code t}. */
    public static ProcessGroup dpGroup(Parallelism p, int t) {
        List<Integer> r = new ArrayList<>();
        for (int d = 0; d < p.dp(); d++) {
            r.add(p.rank(d, t));
        }
        return new ProcessGroup("dp" + t, r);
    }

    /** Expert-parallel group {@code g}: replicas {@code g ep .. g ep + ep - 1}. */
    public static ProcessGroup epGroup(Parallelism p, int g, int t) {
        List<Integer> r = new ArrayList<>();
        for (int j = 0; j < p.ep(); j++) {
            r.add(p.rank(g * p.ep() + j, t));
        }
        return new ProcessGroup("ep" + g + "." + t, r);
    }

    /** The replicas holding the same experts as position {@code j} of each expert-parallel group. */
    public static ProcessGroup expertDpGroup(Parallelism p, int j, int t) {
        List<Integer> r = new ArrayList<>();
        for (int g = 0; g < p.expertDp(); g++) {
            r.add(p.rank(g * p.ep() + j, t));
        }
        return new ProcessGroup("edp" + j + "." + t, r);
    }

    // ---------------------------------------------------------------- the iteration

    /** A unit of the model in forward order: -1 the embedding, 0..layers-1 the blocks, layers the head. */
    private int units() {
        return m.layers() + 2;
    }

    private String unitName(int u) {
        return u == 0 ? "embedding" : u == units() - 1 ? "head" : "layer " + (u - 1);
    }

    private long unitDenseParams(int u) {
        return u == 0 ? flops.embeddingParams() : u == units() - 1 ? flops.headParams() : flops.blockDenseParams(u - 1);
    }

    private long unitExpertParams(int u) {
        return u == 0 || u == units() - 1 ? 0 : flops.blockExpertParams(u - 1);
    }

    private void build() {
        boolean fsdp = w.sharding() == Sharding.FSDP;
        for (int mb = 0; mb < w.microBatches(); mb++) {
            boolean last = mb == w.microBatches() - 1;
            String suffix = w.microBatches() > 1 ? " mb" + mb : "";
            // forward: the compute of unit u on each rank, to prefetch FSDP gathers against
            List<int[]> forwardOf = new ArrayList<>();
            for (int u = 0; u < units(); u++) {
                if (fsdp) {
                    int[] prefetchAfter = u >= 2 ? forwardOf.get(u - 2) : null;
                    gatherUnit(u, "forward" + suffix, prefetchAfter);
                }
                forwardOf.add(forwardUnit(u, suffix));
            }
            // backward, in reverse; each unit's last backward step on each rank produces its gradients
            GradientBuckets dense = fsdp || !last ? null : new GradientBuckets(false);
            GradientBuckets expert = fsdp || !last ? null : new GradientBuckets(true);
            List<int[]> backwardOf = new ArrayList<>();
            for (int u = units() - 1; u >= 0; u--) {
                if (fsdp) {
                    int[] prefetchAfter = backwardOf.size() >= 2 ? backwardOf.get(backwardOf.size() - 2) : null;
                    gatherUnit(u, "backward" + suffix, prefetchAfter);
                }
                int[][] produced = backwardUnit(u, suffix);
                backwardOf.add(produced[0]);
                if (fsdp && last) {
                    shardGradients(u, produced);
                } else if (last) {
                    dense.add(unitDenseParams(u) * m.dtype().bytes(), produced[0]);
                    expert.add(unitExpertParams(u) * m.dtype().bytes(), produced[1]);
                }
            }
            if (dense != null) {
                dense.flush();
                expert.flush();
            }
        }
    }

    /** The forward of unit {@code u} on every rank; returns each rank's last step of it. */
    private int[] forwardUnit(int u, String suffix) {
        String name = unitName(u);
        int[] end = new int[p.worldSize()];
        for (int r = 0; r < p.worldSize(); r++) {
            if (u == 0) {
                end[r] = compute(r, "r" + r + " forward " + name + suffix, 0);
            } else if (u == units() - 1) {
                end[r] = compute(r, "r" + r + " forward " + name + suffix, flops.headForward());
            }
        }
        if (u == 0 || u == units() - 1) {
            return end;
        }
        int layer = u - 1;
        computeAll("forward " + name + " attention" + suffix, flops.attentionForward(layer));
        tensorAllReduce("forward " + name + " attention" + suffix);
        if (m.isMoe(layer)) {
            expertAllToAll("forward " + name + " dispatch" + suffix);
            computeAll("forward " + name + " experts" + suffix, flops.mlpForward(layer));
            expertAllToAll("forward " + name + " combine" + suffix);
        } else {
            computeAll("forward " + name + " mlp" + suffix, flops.mlpForward(layer));
        }
        tensorAllReduce("forward " + name + " mlp" + suffix);
        return lastPath.clone();
    }

    /**
     * The backward of unit {@code u} on every rank; returns per rank the step that produces its dense
     * gradients ([0], the unit's last backward compute) and its expert gradients ([1]).
     */
    private int[][] backwardUnit(int u, String suffix) {
        String name = unitName(u);
        int[][] out = new int[2][p.worldSize()];
        if (u == 0 || u == units() - 1) {
            double f = u == 0 ? 0 : ModelFlops.backward(flops.headForward());
            for (int r = 0; r < p.worldSize(); r++) {
                out[0][r] = compute(r, "r" + r + " backward " + name + suffix, f);
            }
            out[1] = out[0];
            return out;
        }
        int layer = u - 1;
        if (m.isMoe(layer)) {
            expertAllToAll("backward " + name + " combine" + suffix);
            out[1] = computeAll("backward " + name + " experts" + suffix, ModelFlops.backward(flops.mlpForward(layer)));
            expertAllToAll("backward " + name + " dispatch" + suffix);
        } else {
            computeAll("backward " + name + " mlp" + suffix, ModelFlops.backward(flops.mlpForward(layer)));
        }
        tensorAllReduce("backward " + name + " mlp" + suffix);
        out[0] = computeAll(
                "backward " + name + " attention" + suffix, ModelFlops.backward(flops.attentionForward(layer)));
        tensorAllReduce("backward " + name + " attention" + suffix);
        if (!m.isMoe(layer)) {
            out[1] = out[0];
        }
        return out;
    }

    // ---------------------------------------------------------------- steps

    private int compute(int rank, String name, double f) {
        List<Integer> data = lastPath[rank] < 0 ? List.of() : List.of(lastPath[rank]);
        int id = add(name, new Step.Compute(rank, w.gpu().nanos(f)), data, List.of(), List.of(rank));
        lastPath[rank] = id;
        return id;
    }

    private int[] computeAll(String name, double f) {
        int[] ids = new int[p.worldSize()];
        for (int r = 0; r < p.worldSize(); r++) {
            ids[r] = compute(r, "r" + r + " " + name, f);
        }
        return ids;
    }

    /** A collective on the activation path of its ranks: it waits for them, their next step waits for it. */
    private void pathCollective(StepType type, ProcessGroup g, long bytes, String name) {
        Set<Integer> data = new LinkedHashSet<>();
        for (int r : g.ranks()) {
            if (lastPath[r] >= 0) {
                data.add(lastPath[r]);
            }
        }
        int id = add(name, new Step.Collective(type, g, bytes), List.copyOf(data), groupOrder(g), g.ranks());
        lastOnGroup.put(g.name(), id);
        for (int r : g.ranks()) {
            lastPath[r] = id;
        }
    }

    private void tensorAllReduce(String name) {
        if (p.tp() == 1) {
            return;
        }
        for (int d = 0; d < p.dp(); d++) {
            ProcessGroup g = tpGroup(p, d);
            pathCollective(StepType.ALL_REDUCE, g, flops.activationBytes(), name + " " + g.name());
        }
    }

    private void expertAllToAll(String name) {
        if (p.ep() == 1) {
            return;
        }
        for (int t = 0; t < p.tp(); t++) {
            for (int g = 0; g < p.expertDp(); g++) {
                ProcessGroup group = epGroup(p, g, t);
                pathCollective(StepType.ALL_TO_ALL, group, flops.dispatchBytes(), name + " " + group.name());
            }
        }
    }

    /** A gradient or parameter collective: off the activation path, in order on its communicator. */
    private int sideCollective(
            StepType type, ProcessGroup g, long bytes, String name, int[] after, List<Integer> ctrl) {
        Set<Integer> data = new LinkedHashSet<>();
        if (after != null) {
            for (int r : g.ranks()) {
                data.add(after[r]);
            }
        }
        List<Integer> c = new ArrayList<>(groupOrder(g));
        c.addAll(ctrl);
        int id = add(name, new Step.Collective(type, g, bytes), List.copyOf(data), c, g.ranks());
        lastOnGroup.put(g.name(), id);
        return id;
    }

    private List<Integer> groupOrder(ProcessGroup g) {
        Integer prev = lastOnGroup.get(g.name());
        return prev == null ? List.of() : List.of(prev);
    }

    /** FSDP: gather unit {@code u}'s parameters before it runs; its compute waits for the gather. */
    private void gatherUnit(int u, String phase, int[] prefetchAfter) {
        List<ProcessGroup> groups = new ArrayList<>();
        List<Integer> gathers = new ArrayList<>();
        forEachShardGroup(u, (g, bytes) -> {
            List<Integer> c = new ArrayList<>();
            if (prefetchAfter != null) {
                for (int r : g.ranks()) {
                    c.add(prefetchAfter[r]);
                }
            }
            gathers.add(sideCollective(
                    StepType.ALL_GATHER,
                    g,
                    bytes,
                    "all-gather " + unitName(u) + " " + phase + " " + g.name(),
                    null,
                    c));
            groups.add(g);
        });
        // the unit's first compute on a rank needs every gather the rank is in
        for (int i = 0; i < groups.size(); i++) {
            for (int r : groups.get(i).ranks()) {
                pendingGathers.computeIfAbsent(r, k -> new ArrayList<>()).add(gathers.get(i));
            }
        }
    }

    /** FSDP: reduce-scatter unit {@code u}'s gradients once its backward produced them. */
    private void shardGradients(int u, int[][] produced) {
        forEachShardGroup(u, (g, bytes) -> {
            boolean expertGroup = g.name().startsWith("edp");
            sideCollective(
                    StepType.REDUCE_SCATTER,
                    g,
                    bytes,
                    "reduce-scatter " + unitName(u) + " " + g.name(),
                    expertGroup ? produced[1] : produced[0],
                    List.of());
        });
    }

    private interface GroupBytes {
        void accept(ProcessGroup g, long bytes);
    }

    /** The groups unit {@code u}'s parameters are sharded over, with the bytes of the whole unit on each. */
    private void forEachShardGroup(int u, GroupBytes f) {
        long dense = unitDenseParams(u) * m.dtype().bytes();
        long expert = unitExpertParams(u) * m.dtype().bytes();
        for (int t = 0; t < p.tp(); t++) {
            if (p.dp() > 1 && dense > 0) {
                f.accept(dpGroup(p, t), dense);
            }
            if (p.expertDp() > 1 && expert > 0) {
                for (int j = 0; j < p.ep(); j++) {
                    f.accept(expertDpGroup(p, j, t), expert);
                }
            }
        }
    }

    private int add(String name, Step.Op op, List<Integer> data, List<Integer> ctrl, List<Integer> ranks) {
        int id = steps.size();
        List<Integer> d = new ArrayList<>(data);
        if (op instanceof Step.Compute c) {
            List<Integer> gathers = pendingGathers.remove(c.rank());
            if (gathers != null) {
                d.addAll(gathers);
            }
        }
        Set<Integer> c = new LinkedHashSet<>(ctrl);
        if (!w.overlap()) {
            for (int r : ranks) {
                if (lastAny[r] >= 0) {
                    c.add(lastAny[r]);
                }
            }
        }
        c.removeAll(d);
        steps.add(new Step(id, name, op, List.copyOf(new LinkedHashSet<>(d)), List.copyOf(c)));
        for (int r : ranks) {
            lastAny[r] = id;
        }
        return id;
    }

    /**
     * DDP's buckets: the gradient stream of one kind (dense over each data-parallel group, expert
     * over each expert-replica group) in backward order, cut every {@code bucket} bytes; a bucket
     * is AllReduced once the step that produced its last byte has run.
     */
    private final class GradientBuckets {
        private final boolean experts;
        private long filled;
        private int[] producer;
        private int index;

        GradientBuckets(boolean experts) {
            this.experts = experts;
        }

        void add(long bytes, int[] producedBy) {
            if (bytes == 0) {
                return;
            }
            long left = bytes;
            while (left > 0) {
                long take = Math.min(left, w.bucketBytes() - filled);
                filled += take;
                left -= take;
                producer = producedBy;
                if (filled == w.bucketBytes()) {
                    emit();
                }
            }
        }

        void flush() {
            if (filled > 0) {
                emit();
            }
        }

        private void emit() {
            for (int t = 0; t < p.tp(); t++) {
                if (experts) {
                    if (p.expertDp() > 1) {
                        for (int j = 0; j < p.ep(); j++) {
                            ProcessGroup g = expertDpGroup(p, j, t);
                            sideCollective(
                                    StepType.ALL_REDUCE,
                                    g,
                                    filled,
                                    "all-reduce experts bucket " + index + " " + g.name(),
                                    producer,
                                    List.of());
                        }
                    }
                } else if (p.dp() > 1) {
                    ProcessGroup g = dpGroup(p, t);
                    sideCollective(
                            StepType.ALL_REDUCE,
                            g,
                            filled,
                            "all-reduce bucket " + index + " " + g.name(),
                            producer,
                            List.of());
                }
            }
            filled = 0;
            index++;
        }
    }
}
