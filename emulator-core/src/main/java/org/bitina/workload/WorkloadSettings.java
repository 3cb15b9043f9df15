package org.bitina.workload;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bitina.scenario.ConfigReader;

/**
 * The {@code workload} section of a scenario file, read once and validated: where the steps come
 * from, how many iterations run and which host each rank is on ({@code ranks}, empty for "the
 * first hosts in host order", see {@link RankPlacement}).
 */
public record WorkloadSettings(WorkloadSource source, int iterations, List<String> ranks) {
    private static final int MAX_DIM = 1 << 20;
    private static final int MAX_RANKS = 1 << 16;
    private static final long MAX_BUCKET = 1L << 40;

    public WorkloadSettings {
        ranks = List.copyOf(ranks);
    }

    /**
     * Reads the section {@code workload} is a reader on (the loader passes {@code
     * root.object("workload")}). Every problem goes to the reader's {@code Problems} at the
     * {@code FILE:LINE} of the value; returns null when there was any.
     */
    public static WorkloadSettings fromConfig(ConfigReader workload) {
        int before = workload.problems().count();
        workload.checkKeys(WorkloadKeys.WORKLOAD, "workload");
        int iterations = workload.intIn("iterations", 1, 100_000, 1);
        List<String> ranks = workload.has("ranks") ? workload.names("ranks") : List.of();
        WorkloadSource source;
        if (workload.has("chakra")) {
            for (String k : List.of("model", "parallel", "gpu", "micro-batches", "bucket", "overlap", "sharding")) {
                if (workload.has(k)) {
                    workload.problem(k, "workload." + k + " is for a model description, not for chakra traces");
                }
            }
            String dir = workload.name("chakra", null);
            source = dir == null ? null : new WorkloadSource.Chakra(Path.of(dir));
        } else if (workload.has("model")) {
            source = readModel(workload, ranks);
        } else {
            workload.problem(workload.origin(), "workload needs a model { ... } or chakra = \"DIR\"");
            source = null;
        }
        if (ranks != null) {
            Set<String> seen = new HashSet<>();
            for (String r : ranks) {
                if (r != null && !seen.add(r)) {
                    workload.problem("ranks", "workload.ranks names host '" + r + "' twice");
                }
            }
        }
        if (workload.problems().since(before) || source == null || ranks == null) {
            return null;
        }
        return new WorkloadSettings(source, iterations, ranks);
    }

    private static WorkloadSource.Model readModel(ConfigReader w, List<String> ranks) {
        int before = w.problems().count();
        ModelSpec model = readModelSpec(w.object("model"));
        Parallelism parallel = readParallel(w.objectOrEmpty("parallel"));
        GpuSpec gpu = readGpu(w.object("gpu"), w);
        int microBatches = w.intIn("micro-batches", 1, 4096, 1);
        long bucket = w.bytes("bucket", 1, MAX_BUCKET, "between 1 byte and 1TiB", 25L << 20);
        boolean overlap = w.bool("overlap", true);
        String sharding = w.oneOf("sharding", List.of("none", "fsdp"), "none");
        if (model != null && parallel != null) {
            checkFits(w, model, parallel, ranks);
        }
        if (w.problems().since(before) || model == null || parallel == null || gpu == null || sharding == null) {
            return null;
        }
        return new WorkloadSource.Model(
                model, parallel, gpu, microBatches, bucket, overlap, Sharding.valueOf(sharding.toUpperCase()));
    }

    private static ModelSpec readModelSpec(ConfigReader m) {
        if (m == null) {
            return null;
        }
        int before = m.problems().count();
        m.checkKeys(WorkloadKeys.MODEL, "workload.model");
        Integer layers = m.requiredInt("layers", 1, 100_000);
        Integer hidden = m.requiredInt("hidden", 1, MAX_DIM);
        Integer ffn = m.requiredInt("ffn", 1, MAX_DIM);
        Integer vocab = m.requiredInt("vocab", 1, 1 << 24);
        Integer seq = m.requiredInt("seq", 1, 1 << 24);
        int microBatch = m.intIn("micro-batch", 1, 1 << 16, 1);
        String dtype = m.oneOf("dtype", Dtype.configNames(), "bf16");
        Optional<ModelSpec.MoeSpec> moe = Optional.empty();
        if (m.has("moe")) {
            ConfigReader e = m.object("moe");
            if (e != null) {
                e.checkKeys(WorkloadKeys.MOE, "workload.model.moe");
                Integer experts = e.requiredInt("experts", 1, 1 << 16);
                Integer topK = e.requiredInt("top-k", 1, 1 << 16);
                int every = e.intIn("every", 1, 100_000, 1);
                if (experts != null && topK != null && topK > experts) {
                    e.problem("top-k", "workload.model.moe.top-k (" + topK + ") exceeds experts (" + experts + ")");
                }
                if (layers != null && every > layers) {
                    e.problem(
                            "every",
                            "workload.model.moe.every (" + every + ") exceeds layers (" + layers
                                    + "): no block would be MoE");
                }
                Double zipf = zipf(e);
                if (experts != null && topK != null) {
                    moe = Optional.of(new ModelSpec.MoeSpec(experts, topK, every, zipf));
                }
            }
        }
        if (m.problems().since(before)) {
            return null;
        }
        return new ModelSpec(layers, hidden, ffn, vocab, seq, microBatch, Dtype.of(dtype), moe);
    }

    private static Parallelism readParallel(ConfigReader p) {
        if (p == null) {
            return null;
        }
        int before = p.problems().count();
        p.checkKeys(WorkloadKeys.PARALLEL, "workload.parallel");
        int dp = p.intIn("dp", 1, MAX_RANKS, 1);
        int ep = p.intIn("ep", 1, MAX_RANKS, 1);
        int tp = p.intIn("tp", 1, MAX_RANKS, 1);
        if (dp % ep != 0) {
            p.problem("ep", "workload.parallel.ep (" + ep + ") must divide dp (" + dp + ")");
        }
        if ((long) dp * tp > MAX_RANKS) {
            p.problem(p.origin(), "workload.parallel: dp x tp = " + (long) dp * tp + " ranks, at most " + MAX_RANKS);
        }
        return p.problems().since(before) ? null : new Parallelism(dp, ep, tp);
    }

    private static GpuSpec readGpu(ConfigReader g, ConfigReader workload) {
        if (g == null) {
            workload.problem(workload.origin("model"), "missing workload.gpu { tflops = ... }");
            return null;
        }
        int before = g.problems().count();
        g.checkKeys(WorkloadKeys.GPU, "workload.gpu");
        if (!g.has("tflops")) {
            g.problem(g.origin(), "missing workload.gpu.tflops");
        }
        double tflops = g.positive("tflops", 1);
        double efficiency = g.positive("efficiency", 0.5);
        if (efficiency > 1) {
            g.problem("efficiency", "workload.gpu.efficiency must be at most 1, got " + efficiency);
        }
        return g.problems().since(before) ? null : new GpuSpec(tflops, efficiency);
    }

    /** What the dimensions must share: tensor parallelism splits every matrix, EP the experts. */
    private static void checkFits(ConfigReader w, ModelSpec m, Parallelism p, List<String> ranks) {
        ConfigReader where = w.object("model");
        int tp = p.tp();
        for (String[] dim :
                new String[][] {{"hidden", "" + m.hidden()}, {"ffn", "" + m.ffn()}, {"vocab", "" + m.vocab()}}) {
            if (Integer.parseInt(dim[1]) % tp != 0) {
                where.problem(
                        dim[0],
                        "workload.model." + dim[0] + " (" + dim[1] + ") must be a multiple of parallel.tp (" + tp
                                + ")");
            }
        }
        if (m.moe().isPresent() && m.moe().get().experts() % p.ep() != 0) {
            where.problem(
                    "moe",
                    "workload.model.moe.experts (" + m.moe().get().experts() + ") must be a multiple of parallel.ep ("
                            + p.ep() + ")");
        }
        if (m.moe().isEmpty() && p.ep() > 1) {
            w.problem("parallel", "workload.parallel.ep = " + p.ep() + " needs a model.moe { ... }");
        }
        if (ranks != null && !ranks.isEmpty() && ranks.size() != p.worldSize()) {
            w.problem(
                    "ranks",
                    "workload.ranks names " + ranks.size() + " hosts, the model has dp x tp = " + p.worldSize()
                            + " ranks");
        }
    }

    /**
     * {@code routing = uniform} or {@code routing { zipf = S }}, as a moe job takes it (the generated
     * jobs' reader checks the value again); a trace is for a moe job's own tokens, not a model's.
     */
    private static Double zipf(ConfigReader moe) {
        if (!moe.has("routing")) {
            return null;
        }
        Object v = moe.value("routing").unwrapped();
        if ("uniform".equals(v)) {
            return null;
        }
        if (v instanceof java.util.Map<?, ?> m
                && m.size() == 1
                && m.get("zipf") instanceof Number n
                && n.doubleValue() >= 0
                && n.doubleValue() <= 10) {
            return n.doubleValue();
        }
        moe.problem(
                "routing",
                "a workload's MoE routing is uniform or { zipf = S } (S from 0 to 10); a trace is for a moe job's"
                        + " own tokens");
        return null;
    }
}
