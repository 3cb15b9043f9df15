package org.bitina.usecase.moe;

import java.util.Arrays;

/**
 * Layout of MoE payloads (float32). A dispatch carries its experts, then per token the
 * gating weight of each of those experts and the hidden vector (M1: weights travel with
 * the token; a replicated copy's bitmap names only the receiver, so the packet lists the
 * experts whose weights it carries):
 * <pre>
 *   [K'] [e_1 .. e_K'] { [g_1 .. g_K'] [x_1 .. x_H] } x tokens
 * </pre>
 * Expert indices are small integers, exact in float32. A combine carries per token the
 * weighted output vector: { [y_1 .. y_H] } x tokens.
 */
public final class MoePayload {
    private MoePayload() {}

    public static float[] dispatch(int[] experts, float[][] gates, float[][] hidden) {
        int k = experts.length;
        int h = hidden.length == 0 ? 0 : hidden[0].length;
        float[] p = new float[1 + k + hidden.length * (k + h)];
        p[0] = k;
        for (int i = 0; i < k; i++) {
            p[1 + i] = experts[i];
        }
        int at = 1 + k;
        for (int t = 0; t < hidden.length; t++) {
            System.arraycopy(gates[t], 0, p, at, k);
            System.arraycopy(hidden[t], 0, p, at + k, h);
            at += k + h;
        }
        return p;
    }

    /** A parsed dispatch; null fields never: a malformed payload throws IllegalArgumentException. */
    public record Dispatch(int[] experts, float[][] gates, float[][] hidden) {}

    public static Dispatch parseDispatch(float[] p, int hiddenSize) {
        if (p.length < 1) {
            throw new IllegalArgumentException("empty dispatch payload");
        }
        int k = (int) p[0];
        if (k < 1 || p[0] != k || 1 + k > p.length || (p.length - 1 - k) % (k + hiddenSize) != 0) {
            throw new IllegalArgumentException("dispatch payload of " + p.length + " floats does not fit " + p[0]
                    + " experts and hidden " + hiddenSize);
        }
        int[] experts = new int[k];
        for (int i = 0; i < k; i++) {
            experts[i] = (int) p[1 + i];
        }
        int tokens = (p.length - 1 - k) / (k + hiddenSize);
        float[][] gates = new float[tokens][];
        float[][] hidden = new float[tokens][];
        int at = 1 + k;
        for (int t = 0; t < tokens; t++) {
            gates[t] = Arrays.copyOfRange(p, at, at + k);
            hidden[t] = Arrays.copyOfRange(p, at + k, at + k + hiddenSize);
            at += k + hiddenSize;
        }
        return new Dispatch(experts, gates, hidden);
    }

    /** Tokens per dispatch packet that fit {@code budgetBytes} of payload. */
    private static int tokensPerPacket(int budgetBytes, int experts, int hidden) {
        return Math.max(0, (budgetBytes / 4 - 1 - experts) / (experts + hidden));
    }

    /** Tokens a source puts in one dispatch to {@code experts} experts: as many as fit the budget, at least one. */
    public static int tokensIn(int budgetBytes, int experts, int hidden) {
        return Math.max(1, tokensPerPacket(budgetBytes, experts, hidden));
    }

    /** Payload bytes of a dispatch of {@code tokens} tokens to {@code experts} experts. */
    public static long dispatchBytes(int experts, int tokens, int hidden) {
        return 4L * (1 + experts + (long) tokens * (experts + hidden));
    }

    /** Payload bytes of a combine of {@code tokens} tokens: one weighted output vector each. */
    public static long combineBytes(int tokens, int hidden) {
        return 4L * tokens * hidden;
    }
}
