package org.bitina.workload;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
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
                    key("model")
                            .type("object")
                            .byDefault("")
                            .example("model { layers = 32, hidden = 4096, ... }")
                            .means("the model; see `workload.model`"),
                    key("parallel")
                            .type("object")
                            .byDefault("dp = 1, ep = 1, tp = 1")
                            .example("parallel { dp = 16, ep = 8 }")
                            .means("how the ranks split the model; see `workload.parallel`"),
                    key("gpu")
                            .type("object")
                            .byDefault("")
                            .example("gpu { tflops = 400, efficiency = 0.5 }")
                            .means("the compute model; see `workload.gpu`"),
                    key("chakra")
                            .type("string")
                            .byDefault("")
                            .example("\"traces/\"")
                            .means("a directory of Chakra traces, one `*.et` file per rank (instead of `model`)"),
                    key("iterations")
                            .type("integer")
                            .byDefault("1")
                            .example("2")
                            .means("training iterations to run"),
                    key("micro-batches")
                            .type("integer")
                            .byDefault("1")
                            .example("4")
                            .means("micro-batches per iteration (gradient accumulation)"),
                    key("bucket")
                            .type("size")
                            .byDefault("25MiB")
                            .unit("bytes")
                            .example("25MiB")
                            .means("gradient bucket of the data-parallel AllReduce"),
                    key("overlap")
                            .type("boolean")
                            .byDefault("true")
                            .example("true")
                            .means("gradient communication overlaps backward compute"),
                    key("sharding")
                            .type("none | fsdp")
                            .byDefault("none")
                            .example("fsdp")
                            .means("fsdp: parameters sharded, AllGather before use, ReduceScatter of gradients"),
                    key("ranks")
                            .type("list of host names")
                            .byDefault("hosts in order")
                            .example("[h1, h2, h3, h4]")
                            .means("the host of each rank")));

    public static final Section MODEL = new Section(
            "workload.model",
            "A decoder-only transformer: `layers` blocks of attention and a gated MLP (or MoE).",
            List.of(
                    key("layers")
                            .type("integer")
                            .byDefault("required")
                            .example("32")
                            .means("transformer blocks"),
                    key("hidden")
                            .type("integer")
                            .byDefault("required")
                            .example("4096")
                            .means("hidden size"),
                    key("ffn")
                            .type("integer")
                            .byDefault("required")
                            .example("14336")
                            .means("MLP (and expert) inner size"),
                    key("vocab")
                            .type("integer")
                            .byDefault("required")
                            .example("32000")
                            .means("vocabulary size"),
                    key("seq")
                            .type("integer")
                            .byDefault("required")
                            .example("4096")
                            .means("sequence length"),
                    key("micro-batch")
                            .type("integer")
                            .byDefault("1")
                            .unit("sequences")
                            .example("1")
                            .means("sequences per micro-batch and rank"),
                    key("dtype")
                            .type("bf16 | fp16 | fp32 | fp8")
                            .byDefault("bf16")
                            .example("bf16")
                            .means("size of activations and gradients"),
                    key("moe")
                            .type("object")
                            .byDefault("none")
                            .example("moe { experts = 64, top-k = 2, every = 2 }")
                            .means("MoE layers; see `workload.model.moe`")));

    public static final Section MOE = new Section(
            "workload.model.moe",
            "Mixture-of-Experts layers: every `every`-th block's MLP is `experts` experts, each token to `top-k`.",
            List.of(
                    key("experts")
                            .type("integer")
                            .byDefault("required")
                            .example("64")
                            .means("experts per MoE layer"),
                    key("top-k")
                            .type("integer")
                            .byDefault("required")
                            .example("2")
                            .means("experts per token"),
                    key("every")
                            .type("integer")
                            .byDefault("1")
                            .example("2")
                            .means("every n-th block is MoE (blocks n, 2n, ...)"),
                    key("routing")
                            .type("uniform | { zipf = S }")
                            .byDefault("uniform")
                            .example("routing { zipf = 1.2 }")
                            .means("how the all-to-alls' tokens choose experts, as a moe job's `jobs[].moe.routing`")));

    public static final Section PARALLEL = new Section(
            "workload.parallel",
            "Data, expert and tensor parallelism; the world is dp x tp ranks.",
            List.of(
                    key("dp").type("integer").byDefault("1").example("16").means("data-parallel degree"),
                    key("ep").type("integer").byDefault("1").example("8").means("expert-parallel degree (divides dp)"),
                    key("tp").type("integer").byDefault("1").example("1").means("tensor-parallel degree")));

    public static final Section GPU = new Section(
            "workload.gpu",
            "The compute model: time = FLOPs / (tflops x efficiency).",
            List.of(
                    key("tflops")
                            .type("number")
                            .byDefault("required")
                            .unit("TFLOP/s")
                            .example("400")
                            .means("peak dense throughput of one rank"),
                    key("efficiency")
                            .type("number in (0, 1]")
                            .byDefault("0.5")
                            .example("0.5")
                            .means("fraction of the peak a layer reaches")));

    public static List<Section> all() {
        return List.of(WORKLOAD, MODEL, MOE, PARALLEL, GPU);
    }
}
