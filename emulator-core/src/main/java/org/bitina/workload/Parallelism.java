package org.bitina.workload;

/**
 * How the ranks split the model: {@code tp} ranks share each block (Megatron tensor parallelism,
 * the innermost dimension), {@code dp} replicas of that, and within the data-parallel dimension
 * groups of {@code ep} consecutive replicas share out the experts (DeepSpeed-MoE expert
 * parallelism: {@code ep} divides {@code dp}).
 */
public record Parallelism(int dp, int ep, int tp) {
    public int worldSize() {
        return dp * tp;
    }

    /** The rank of data-parallel index {@code d} and tensor-parallel index {@code t}. */
    public int rank(int d, int t) {
        return d * tp + t;
    }

    /** Replicas that hold the same experts: one per expert-parallel group. */
    public int expertDp() {
        return dp / ep;
    }
}
