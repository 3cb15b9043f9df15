package org.bitina.workload;

/**
 * The FLOP and parameter counts of {@link ModelSpec}, per rank (so divided by the tensor-parallel
 * degree) and per micro-batch of {@code T = micro-batch x seq} tokens. The rules, stated once:
 * <ul>
 *   <li>a matrix multiply of {@code T} tokens by a {@code p}-parameter weight takes {@code 2 p T}
 *       FLOPs forward and {@code 4 p T} backward (gradients of input and weight);
 *   <li>attention of a block: the four {@code h x h} projections ({@code 4 h^2} parameters) plus
 *       the scores {@code Q K^T} and {@code softmax x V}, {@code 2 T seq h} each forward (no causal
 *       halving), so {@code 2 T 4h^2 + 4 T seq h} forward;
 *   <li>a dense MLP is gated (gate, up, down: {@code 3 h ffn} parameters): {@code 6 T h ffn} forward;
 *   <li>an MoE block's MLP: a router of {@code h x experts} ({@code 2 T h experts}, replicated over
 *       tensor parallelism) and {@code top-k} experts per token, each a gated MLP; with uniform
 *       routing each rank's experts take {@code T top-k} tokens: {@code 6 T top-k h ffn} forward;
 *   <li>the output head ({@code vocab x h}, untied from the embedding): {@code 2 T h vocab}
 *       forward; the embedding lookup is counted as no FLOPs;
 *   <li>backward of every part is twice its forward.
 * </ul>
 * Not counted: layer norms, activations, softmax itself, the optimizer step, recomputation.
 */
public final class ModelFlops {
    private final ModelSpec m;
    private final Parallelism p;

    public ModelFlops(ModelSpec model, Parallelism parallel) {
        this.m = model;
        this.p = parallel;
    }

    private double tokens() {
        return m.tokens();
    }

    /** Attention of one block forward (with the router, for an MoE block: it runs before the dispatch). */
    public double attentionForward(int layer) {
        double t = tokens();
        double h = m.hidden();
        double attn = (2 * t * 4 * h * h + 4 * t * m.seq() * h) / p.tp();
        return m.isMoe(layer) ? attn + 2 * t * h * m.moe().orElseThrow().experts() : attn;
    }

    /** The MLP of one block forward: dense, or this rank's experts' share. */
    public double mlpForward(int layer) {
        double t = tokens();
        double mlp = 2 * t * 3.0 * m.hidden() * m.ffn() / p.tp();
        return m.isMoe(layer) ? mlp * m.moe().orElseThrow().topK() : mlp;
    }

    public double headForward() {
        return 2 * tokens() * m.hidden() * (double) m.vocab() / p.tp();
    }

    /** Backward of any part, from its forward. */
    public static double backward(double forward) {
        return 2 * forward;
    }

    // ---------------------------------------------------------------- parameters of one rank

    public long embeddingParams() {
        return (long) m.vocab() * m.hidden() / p.tp();
    }

    public long headParams() {
        return embeddingParams();
    }

    /** A block's parameters that every data-parallel replica holds: attention, and the dense MLP or the router. */
    public long blockDenseParams(int layer) {
        long h = m.hidden();
        long attn = 4 * h * h / p.tp();
        return m.isMoe(layer) ? attn + h * m.moe().orElseThrow().experts() : attn + 3 * h * m.ffn() / p.tp();
    }

    /** A block's expert parameters on this rank ({@code experts / ep} experts); 0 for a dense block. */
    public long blockExpertParams(int layer) {
        if (!m.isMoe(layer)) {
            return 0;
        }
        return (long) (m.moe().orElseThrow().experts() / p.ep()) * 3 * m.hidden() * m.ffn() / p.tp();
    }

    // ---------------------------------------------------------------- activations moved

    /** A tensor-parallel AllReduce of a block's activations: {@code T x h} elements. */
    public long activationBytes() {
        return (long) tokens() * m.hidden() * m.dtype().bytes();
    }

    /** A rank's MoE dispatch (and combine) send buffer: each token to {@code top-k} experts. */
    public long dispatchBytes() {
        return activationBytes() * m.moe().map(ModelSpec.MoeSpec::topK).orElse(0);
    }
}
