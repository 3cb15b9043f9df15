package org.bitina.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The expansion against counts worked out here by hand from the formulas of docs/workloads.md
 * (the test does not call {@link ModelFlops}): bytes and number of collectives, compute time of a
 * layer, and which steps the gradient communication may overlap.
 */
class ModelExpansionTest {
    // a small dense model: h = 64, f = 256, V = 1000, s = 128, b = 2 (T = 256 tokens), bf16
    static final ModelSpec DENSE = new ModelSpec(4, 64, 256, 1000, 128, 2, Dtype.BF16, Optional.empty());
    // the same with MoE in blocks 2 and 4 (0-based 1 and 3): 8 experts, top-2
    static final ModelSpec MOE =
            new ModelSpec(4, 64, 256, 1000, 128, 2, Dtype.BF16, Optional.of(new ModelSpec.MoeSpec(8, 2, 2)));
    static final GpuSpec GPU = new GpuSpec(100, 0.5);
    static final long T = 256;
    static final long H = 64;
    static final long F = 256;
    static final long V = 1000;
    static final long S = 128;

    static WorkloadSource.Model workload(
            ModelSpec m, Parallelism p, int microBatches, long bucket, boolean overlap, Sharding sh) {
        return new WorkloadSource.Model(m, p, GPU, microBatches, bucket, overlap, sh);
    }

    static long nanos(double flops) {
        return Math.round(flops / (100e12 * 0.5) * 1e9);
    }

    static List<Step> collectives(StepGraph g, StepType type) {
        return g.ofType(type);
    }

    static Step named(StepGraph g, String name) {
        return g.steps().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name));
    }

    static long bytes(Step s) {
        return ((Step.Collective) s.op()).bytes();
    }

    static ProcessGroup group(Step s) {
        return ((Step.Collective) s.op()).group();
    }

    /** The ids {@code s} waits for, directly or not. */
    static Set<Integer> ancestors(StepGraph g, Step s) {
        Map<Integer, Step> byId = new HashMap<>();
        g.steps().forEach(x -> byId.put(x.id(), x));
        Set<Integer> seen = new HashSet<>();
        Deque<Integer> todo = new ArrayDeque<>();
        todo.add(s.id());
        while (!todo.isEmpty()) {
            Step x = byId.get(todo.poll());
            List<Integer> deps = new ArrayList<>(x.dataDeps());
            deps.addAll(x.ctrlDeps());
            for (int d : deps) {
                if (seen.add(d)) {
                    todo.add(d);
                }
            }
        }
        return seen;
    }

    @Test
    void denseLayerComputeIsItsFlopsOverTheGpu() {
        StepGraph g = ModelExpansion.expand(workload(DENSE, new Parallelism(4, 1, 1), 1, 100_000, true, Sharding.NONE));
        double attention = 2.0 * T * 4 * H * H + 4.0 * T * S * H;
        double mlp = 2.0 * T * 3 * H * F;
        assertEquals(
                nanos(attention),
                ((Step.Compute) named(g, "r0 forward layer 1 attention").op()).nanos());
        assertEquals(
                nanos(mlp), ((Step.Compute) named(g, "r0 forward layer 1 mlp").op()).nanos());
        assertEquals(
                nanos(2 * attention),
                ((Step.Compute) named(g, "r3 backward layer 1 attention").op()).nanos());
        assertEquals(
                nanos(2.0 * T * H * V),
                ((Step.Compute) named(g, "r2 forward head").op()).nanos());
        // per rank: embedding, 2 steps per block and the head, forward and backward
        assertEquals(4 * 2 * (2 + 2 * 4), g.ofType(StepType.COMPUTE).size());
    }

    @Test
    void denseGradientsAreAllReducedInBucketsOverTheDataParallelGroup() {
        long bucket = 100_000;
        StepGraph g = ModelExpansion.expand(workload(DENSE, new Parallelism(4, 1, 1), 1, bucket, true, Sharding.NONE));
        long block = 4 * H * H + 3 * H * F;
        long gradient = 2 * (V * H + 4 * block + V * H);
        int buckets = (int) ((gradient + bucket - 1) / bucket);
        List<Step> ar = collectives(g, StepType.ALL_REDUCE);
        assertEquals(buckets, ar.size());
        for (int i = 0; i < buckets; i++) {
            assertEquals(i < buckets - 1 ? bucket : gradient - (buckets - 1) * bucket, bytes(ar.get(i)));
            assertEquals(List.of(0, 1, 2, 3), group(ar.get(i)).ranks());
        }
        assertEquals(gradient, ar.stream().mapToLong(ModelExpansionTest::bytes).sum());
        assertEquals(0, g.ofType(StepType.ALL_TO_ALL).size());
        assertEquals(0, g.ofType(StepType.ALL_GATHER).size());
    }

    @Test
    void overlapLetsBucketsRunBesideTheRestOfBackward() {
        long bucket = 100_000;
        long block = 2 * (4 * H * H + 3 * H * F);
        long emb = 2 * V * H;
        long total = 2 * emb + 4 * block;
        // buckets whose last byte is an embedding gradient wait for the last backward step; the others need not
        long beforeEmbedding = total - emb;
        int buckets = (int) ((total + bucket - 1) / bucket);
        int early = 0;
        for (int i = 0; i < buckets; i++) {
            if (Math.min((i + 1) * bucket, total) <= beforeEmbedding) {
                early++;
            }
        }
        StepGraph overlapped =
                ModelExpansion.expand(workload(DENSE, new Parallelism(4, 1, 1), 1, bucket, true, Sharding.NONE));
        StepGraph serial =
                ModelExpansion.expand(workload(DENSE, new Parallelism(4, 1, 1), 1, bucket, false, Sharding.NONE));
        assertEquals(0, countAllReducesBefore(overlapped, "r0 backward embedding"));
        assertEquals(early, countAllReducesBefore(serial, "r0 backward embedding"));
        assertTrue(early > 0 && early < buckets);
    }

    private static long countAllReducesBefore(StepGraph g, String name) {
        Set<Integer> before = ancestors(g, named(g, name));
        return g.ofType(StepType.ALL_REDUCE).stream()
                .filter(s -> before.contains(s.id()))
                .count();
    }

    @Test
    void moeDispatchAndCombinePerMoeLayerAndMicroBatchOverTheExpertGroups() {
        int microBatches = 2;
        StepGraph g = ModelExpansion.expand(
                workload(MOE, new Parallelism(4, 2, 1), microBatches, 1 << 20, true, Sharding.NONE));
        int moeLayers = 2;
        int epGroups = 4 / 2;
        List<Step> a2a = g.ofType(StepType.ALL_TO_ALL);
        // dispatch and combine forward, and both again in backward
        assertEquals(moeLayers * microBatches * 4 * epGroups, a2a.size());
        for (Step s : a2a) {
            assertEquals(T * 2 * H * 2, bytes(s));
            assertTrue(List.of(List.of(0, 1), List.of(2, 3)).contains(group(s).ranks()), s::toString);
        }
        double attentionAndRouter = 2.0 * T * 4 * H * H + 4.0 * T * S * H + 2.0 * T * H * 8;
        assertEquals(
                nanos(attentionAndRouter),
                ((Step.Compute) named(g, "r1 forward layer 1 attention mb1").op()).nanos());
        assertEquals(
                nanos(2.0 * T * 2 * 3 * H * F),
                ((Step.Compute) named(g, "r1 forward layer 1 experts mb0").op()).nanos());
        // the experts wait for the dispatch, the combine for the experts
        Step dispatch = named(g, "forward layer 3 dispatch mb0 ep1.0");
        Step experts = named(g, "r2 forward layer 3 experts mb0");
        assertTrue(experts.dataDeps().contains(dispatch.id()));
    }

    @Test
    void moeGradientsDenseOverEveryReplicaExpertsOverTheReplicasWithTheSameExperts() {
        long bucket = 100_000;
        StepGraph g = ModelExpansion.expand(workload(MOE, new Parallelism(4, 2, 1), 2, bucket, true, Sharding.NONE));
        long dense = 2 * (2 * V * H + 2 * (4 * H * H + 3 * H * F) + 2 * (4 * H * H + H * 8));
        long expert = 2 * (2 * (8 / 2) * 3 * H * F);
        List<Step> ar = g.ofType(StepType.ALL_REDUCE);
        List<Step> denseAr =
                ar.stream().filter(s -> group(s).name().startsWith("dp")).toList();
        List<Step> expertAr =
                ar.stream().filter(s -> group(s).name().startsWith("edp")).toList();
        assertEquals(ar.size(), denseAr.size() + expertAr.size());
        assertEquals((dense + bucket - 1) / bucket, denseAr.size());
        assertEquals(
                dense, denseAr.stream().mapToLong(ModelExpansionTest::bytes).sum());
        // two groups of replicas with the same experts: {0, 2} and {1, 3}
        assertEquals(2 * ((expert + bucket - 1) / bucket), expertAr.size());
        for (List<Integer> members : List.of(List.of(0, 2), List.of(1, 3))) {
            assertEquals(
                    expert,
                    expertAr.stream()
                            .filter(s -> group(s).ranks().equals(members))
                            .mapToLong(ModelExpansionTest::bytes)
                            .sum());
        }
        // gradients are synchronised once, in the last micro-batch
        assertTrue(ar.stream()
                .allMatch(s -> ancestors(g, s)
                        .contains(named(g, "r0 backward head mb1").id())));
    }

    @Test
    void fsdpGathersEachUnitTwiceAndReduceScattersItsGradientsOnce() {
        int microBatches = 2;
        StepGraph g = ModelExpansion.expand(
                workload(DENSE, new Parallelism(4, 1, 1), microBatches, 100_000, true, Sharding.FSDP));
        int units = 4 + 2;
        List<Step> ag = g.ofType(StepType.ALL_GATHER);
        List<Step> rs = g.ofType(StepType.REDUCE_SCATTER);
        assertEquals(units * 2 * microBatches, ag.size());
        assertEquals(units, rs.size());
        assertEquals(0, g.ofType(StepType.ALL_REDUCE).size());
        assertEquals(2 * (4 * H * H + 3 * H * F), bytes(named(g, "all-gather layer 2 forward mb1 dp0")));
        assertEquals(2 * V * H, bytes(named(g, "reduce-scatter head dp0")));
        long total = 2 * (2 * V * H + 4 * (4 * H * H + 3 * H * F));
        assertEquals(total, rs.stream().mapToLong(ModelExpansionTest::bytes).sum());
        // a block's forward waits for its parameters
        assertTrue(named(g, "r1 forward layer 2 attention mb0")
                .dataDeps()
                .contains(named(g, "all-gather layer 2 forward mb0 dp0").id()));
    }

    @Test
    void tensorParallelismAllReducesActivationsTwicePerBlockEachWay() {
        StepGraph g = ModelExpansion.expand(workload(DENSE, new Parallelism(2, 1, 2), 1, 1 << 30, true, Sharding.NONE));
        List<Step> ar = g.ofType(StepType.ALL_REDUCE);
        List<Step> tp =
                ar.stream().filter(s -> group(s).name().startsWith("tp")).toList();
        assertEquals(4 * 4 * 2, tp.size());
        tp.forEach(s -> assertEquals(T * H * 2, bytes(s)));
        assertEquals(
                Set.of(List.of(0, 1), List.of(2, 3)),
                Set.copyOf(tp.stream().map(s -> group(s).ranks()).toList()));
        // each rank holds half of every matrix: one bucket per data-parallel group of half the gradient
        List<Step> dp =
                ar.stream().filter(s -> group(s).name().startsWith("dp")).toList();
        assertEquals(2, dp.size());
        long half = 2 * (2 * V * H + 4 * (4 * H * H + 3 * H * F)) / 2;
        dp.forEach(s -> assertEquals(half, bytes(s)));
        assertEquals(
                Set.of(List.of(0, 2), List.of(1, 3)),
                Set.copyOf(dp.stream().map(s -> group(s).ranks()).toList()));
        double attention = (2.0 * T * 4 * H * H + 4.0 * T * S * H) / 2;
        assertEquals(
                nanos(attention),
                ((Step.Compute) named(g, "r3 forward layer 0 attention").op()).nanos());
    }

    @Test
    void theSameDescriptionGivesTheSameGraph() {
        WorkloadSource.Model w = workload(MOE, new Parallelism(4, 2, 1), 2, 100_000, false, Sharding.FSDP);
        assertEquals(ModelExpansion.expand(w), ModelExpansion.expand(w));
    }
}
