package org.bitina.workload;

import java.util.Optional;

/**
 * A decoder-only transformer as the workload section describes it: {@code layers} blocks of
 * attention (Q, K, V and output projections of {@code hidden x hidden}) and a gated MLP (gate, up
 * and down projections of {@code hidden x ffn}), an embedding and an untied output head of
 * {@code vocab x hidden}; every {@code moe.every}-th block's MLP is a set of experts.
 */
public record ModelSpec(
        int layers, int hidden, int ffn, int vocab, int seq, int microBatch, Dtype dtype, Optional<MoeSpec> moe) {

    /**
     * {@code experts} experts per MoE block (each a gated MLP of {@code ffn}), {@code topK} per token.
     *
     * @param zipf the exponent of a Zipf law of expert popularity its all-to-alls route by (as a moe
     *             job's {@code routing { zipf = S }}), or null for the seeded router's choice
     */
    public record MoeSpec(int experts, int topK, int every, Double zipf) {
        /** Routed by the seeded router. */
        public MoeSpec(int experts, int topK, int every) {
            this(experts, topK, every, null);
        }
    }

    /** Tokens one rank processes per micro-batch. */
    public long tokens() {
        return (long) microBatch * seq;
    }

    /** Whether block {@code layer} (0-based) is an MoE block: blocks every, 2 every, ... counted from 1. */
    public boolean isMoe(int layer) {
        return moe.isPresent() && (layer + 1) % moe.get().every() == 0;
    }

    public int moeLayers() {
        return moe.map(m -> layers / m.every()).orElse(0);
    }
}
