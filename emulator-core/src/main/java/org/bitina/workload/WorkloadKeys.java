package org.bitina.workload;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/**
 * The keys of the {@code workload} section and its parts, in the form {@code ConfigSchema} keeps
 * every other section's, so that the loader can list them (and {@code docs/configuration.md} can
 * show them) once it reads the section.
 */
public final class WorkloadKeys {
    private WorkloadKeys() {}

    public static final Section WORKLOAD = new Section(
            "workload",
            "A training iteration: from a model description (`model`, `parallel`, `gpu`) or from Chakra"
                    + " execution traces (`chakra`); see docs/workloads.md.",
            List.of(
                    key(
                            "model",
                            "object",
                            "",
                            "",
                            "model { layers = 32, hidden = 4096, ... }",
                            "the model; see `workload.model`"),
                    key(
                            "parallel",
                            "object",
                            "dp = 1, ep = 1, tp = 1",
                            "",
                            "parallel { dp = 16, ep = 8 }",
                            "how the ranks split the model; see `workload.parallel`"),
                    key(
                            "gpu",
                            "object",
                            "",
                            "",
                            "gpu { tflops = 400, efficiency = 0.5 }",
                            "the compute model; see `workload.gpu`"),
                    key(
                            "chakra",
                            "string",
                            "",
                            "",
                            "\"traces/\"",
                            "a directory of Chakra traces, one `*.et` file per rank (instead of `model`)"),
                    key("iterations", "integer", "1", "", "2", "training iterations to run"),
                    key(
                            "micro-batches",
                            "integer",
                            "1",
                            "",
                            "4",
                            "micro-batches per iteration (gradient accumulation)"),
                    key("bucket", "size", "25MiB", "bytes", "25MiB", "gradient bucket of the data-parallel AllReduce"),
                    key("overlap", "boolean", "true", "", "true", "gradient communication overlaps backward compute"),
                    key(
                            "sharding",
                            "none | fsdp",
                            "none",
                            "",
                            "fsdp",
                            "fsdp: parameters sharded, AllGather before use, ReduceScatter of gradients"),
                    key(
                            "ranks",
                            "list of host names",
                            "hosts in order",
                            "",
                            "[h1, h2, h3, h4]",
                            "the host of each rank")));

    public static final Section MODEL = new Section(
            "workload.model",
            "A decoder-only transformer: `layers` blocks of attention and a gated MLP (or MoE).",
            List.of(
                    key("layers", "integer", "required", "", "32", "transformer blocks"),
                    key("hidden", "integer", "required", "", "4096", "hidden size"),
                    key("ffn", "integer", "required", "", "14336", "MLP (and expert) inner size"),
                    key("vocab", "integer", "required", "", "32000", "vocabulary size"),
                    key("seq", "integer", "required", "", "4096", "sequence length"),
                    key("micro-batch", "integer", "1", "sequences", "1", "sequences per micro-batch and rank"),
                    key("dtype", "bf16 | fp16 | fp32 | fp8", "bf16", "", "bf16", "size of activations and gradients"),
                    key(
                            "moe",
                            "object",
                            "none",
                            "",
                            "moe { experts = 64, top-k = 2, every = 2 }",
                            "MoE layers; see `workload.model.moe`")));

    public static final Section MOE = new Section(
            "workload.model.moe",
            "Mixture-of-Experts layers: every `every`-th block's MLP is `experts` experts, each token to `top-k`.",
            List.of(
                    key("experts", "integer", "required", "", "64", "experts per MoE layer"),
                    key("top-k", "integer", "required", "", "2", "experts per token"),
                    key("every", "integer", "1", "", "2", "every n-th block is MoE (blocks n, 2n, ...)"),
                    key(
                            "routing",
                            "uniform | { zipf = S }",
                            "uniform",
                            "",
                            "routing { zipf = 1.2 }",
                            "how the all-to-alls' tokens choose experts, as a moe job's `jobs[].moe.routing`")));

    public static final Section PARALLEL = new Section(
            "workload.parallel",
            "Data, expert and tensor parallelism; the world is dp x tp ranks.",
            List.of(
                    key("dp", "integer", "1", "", "16", "data-parallel degree"),
                    key("ep", "integer", "1", "", "8", "expert-parallel degree (divides dp)"),
                    key("tp", "integer", "1", "", "1", "tensor-parallel degree")));

    public static final Section GPU = new Section(
            "workload.gpu",
            "The compute model: time = FLOPs / (tflops x efficiency).",
            List.of(
                    key("tflops", "number", "required", "TFLOP/s", "400", "peak dense throughput of one rank"),
                    key("efficiency", "number in (0, 1]", "0.5", "", "0.5", "fraction of the peak a layer reaches")));

    public static List<Section> all() {
        return List.of(WORKLOAD, MODEL, MOE, PARALLEL, GPU);
    }

    private static Key key(String name, String type, String def, String unit, String example, String doc) {
        return new Key(name, type, def, unit, "", example, doc);
    }
}
