package org.bitina.usecase.moe;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The MoE layer every node agrees on, from seeds (seed 000 section 4): token hidden
 * vectors, the router (a linear gate with softmax) and each expert's feed-forward network
 * f_e(x) = W2 relu(W1 x). Sources, experts and the source-side reference all call the same
 * code, so an expert's output is bit-for-bit what the reference computes; only the order of
 * the combine's sum differs.
 */
public final class MoeModel {

    private final long seed;
    private final int experts;
    private final int hidden;
    private final float[][] router;
    /** Seeded weights by name, shared by the drivers that pass the same map (it must then be a concurrent one). */
    private final Map<String, float[][]> weights;

    /** A model with weights of its own. */
    public MoeModel(long seed, int experts, int hidden) {
        this(seed, experts, hidden, new HashMap<>());
    }

    public MoeModel(long seed, int experts, int hidden, Map<String, float[][]> weights) {
        this.weights = weights;
        this.seed = seed;
        this.experts = experts;
        this.hidden = hidden;
        this.router = weights("router", experts, hidden, 1.0);
    }

    private float[][] weights(String what, int rows, int cols, double scale) {
        return weights.computeIfAbsent(seed + "/" + what + "/" + rows + "x" + cols, k -> {
            SplittableRandom r = new SplittableRandom(seed * 31 + k.hashCode());
            double a = scale * Math.sqrt(3.0 / cols);
            float[][] w = new float[rows][cols];
            for (float[] row : w) {
                for (int i = 0; i < cols; i++) {
                    row[i] = (float) ((r.nextDouble() * 2 - 1) * a);
                }
            }
            return w;
        });
    }

    public int hidden() {
        return hidden;
    }

    /** Token {@code token} of source {@code source}. */
    public float[] token(int source, int token) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + ((long) source << 32) + token);
        float[] x = new float[hidden];
        for (int i = 0; i < hidden; i++) {
            x[i] = (float) (r.nextDouble() * 2 - 1);
        }
        return x;
    }

    public double[] logits(float[] x) {
        double[] l = new double[experts];
        for (int e = 0; e < experts; e++) {
            double s = 0;
            for (int i = 0; i < hidden; i++) {
                s += router[e][i] * x[i];
            }
            l[e] = s;
        }
        return l;
    }

    /** The top-K experts by logit (M1), ascending expert index. */
    public int[] topK(double[] logits, int k) {
        Integer[] order = new Integer[experts];
        for (int e = 0; e < experts; e++) {
            order[e] = e;
        }
        Arrays.sort(
                order, (a, b) -> logits[a] != logits[b] ? Double.compare(logits[b], logits[a]) : Integer.compare(a, b));
        int[] top = new int[k];
        for (int i = 0; i < k; i++) {
            top[i] = order[i];
        }
        Arrays.sort(top);
        return top;
    }

    /** Softmax gating weights over the chosen experts only, normalised to sum to 1 (M5). */
    public float[] gates(double[] logits, int[] chosen) {
        double max = Double.NEGATIVE_INFINITY;
        for (int e : chosen) {
            max = Math.max(max, logits[e]);
        }
        double sum = 0;
        double[] w = new double[chosen.length];
        for (int i = 0; i < chosen.length; i++) {
            w[i] = Math.exp(logits[chosen[i]] - max);
            sum += w[i];
        }
        float[] g = new float[chosen.length];
        for (int i = 0; i < chosen.length; i++) {
            g[i] = (float) (w[i] / sum);
        }
        return g;
    }

    /** g * f_e(x): the expert's output, pre-multiplied by its gating weight (M1). */
    public float[] weightedOutput(int expert, float gate, float[] x) {
        float[][] w1 = weights("w1/" + expert, hidden, hidden, 1.0);
        float[][] w2 = weights("w2/" + expert, hidden, hidden, 1.0);
        float[] h = new float[hidden];
        for (int j = 0; j < hidden; j++) {
            float s = 0;
            for (int i = 0; i < hidden; i++) {
                s += w1[j][i] * x[i];
            }
            h[j] = Math.max(0f, s);
        }
        float[] y = new float[hidden];
        for (int j = 0; j < hidden; j++) {
            float s = 0;
            for (int i = 0; i < hidden; i++) {
                s += w2[j][i] * h[i];
            }
            y[j] = gate * s;
        }
        return y;
    }
}
