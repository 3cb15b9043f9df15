package org.bitina.usecase.moe;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Which experts a token goes to (M1), before capacity (M5) drops any: the seeded router's top-K
 * ({@code uniform}: its logits are alike for every expert, so each is as likely in expectation),
 * experts drawn by a Zipf law of popularity, or the choices a trace file lists per token. The
 * gating weights stay the router's softmax over the experts kept, so the combine is checked the
 * same way under every routing. A plan carries it to every member (CBOR, by its name).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "routing")
@JsonSubTypes({
    @JsonSubTypes.Type(ExpertRouting.Uniform.class),
    @JsonSubTypes.Type(ExpertRouting.Zipf.class),
    @JsonSubTypes.Type(ExpertRouting.Trace.class)
})
public sealed interface ExpertRouting {

    /**
     * The experts of token {@code token} of source {@code source} (at {@code sourceIndex} in the
     * job's sources), ascending expert index.
     */
    int[] choose(MoeModel model, double[] logits, String source, int sourceIndex, int token, int topK);

    /** The name the config and the report give it. */
    String describe();

    /** The seeded router's top-K by logit, as before any routing key existed. */
    record Uniform() implements ExpertRouting {
        @Override
        public int[] choose(MoeModel model, double[] logits, String source, int sourceIndex, int token, int topK) {
            return model.topK(logits, topK);
        }

        @Override
        public String describe() {
            return "uniform";
        }
    }

    /**
     * Expert {@code i} (0-based, in the job's order: the first listed is the most popular) has
     * popularity {@code 1 / (i + 1)^s}; a token draws its K experts one after the other, each in
     * proportion to the popularity of those not drawn yet (sampling without replacement, as a
     * router's top-K over noisy scores does), from a generator seeded by the job's seed, the source
     * and the token, so a token's choice does not depend on any other's.
     *
     * @param s the law's exponent (0: every expert alike; 1.2: the hottest expert of 8 takes about 37 %)
     */
    record Zipf(double s, long seed) implements ExpertRouting {
        /** Popularity of each of {@code experts} experts, summing to 1. */
        public double[] popularity(int experts) {
            double[] p = new double[experts];
            double sum = 0;
            for (int i = 0; i < experts; i++) {
                p[i] = Math.pow(i + 1, -s);
                sum += p[i];
            }
            for (int i = 0; i < experts; i++) {
                p[i] /= sum;
            }
            return p;
        }

        @Override
        public int[] choose(MoeModel model, double[] logits, String source, int sourceIndex, int token, int topK) {
            double[] p = popularity(logits.length);
            SplittableRandom r = new SplittableRandom(seed * 0x2545F4914F6CDD1DL + ((long) sourceIndex << 32) + token);
            int[] out = new int[topK];
            double left = 1.0;
            for (int k = 0; k < topK; k++) {
                double u = r.nextDouble() * left;
                int pick = -1;
                for (int e = 0; e < p.length; e++) {
                    if (p[e] == 0) {
                        continue;
                    }
                    pick = e; // the last expert still in play, if rounding leaves u past the end
                    u -= p[e];
                    if (u < 0) {
                        break;
                    }
                }
                out[k] = pick;
                left -= p[pick];
                p[pick] = 0;
            }
            Arrays.sort(out);
            return out;
        }

        @Override
        public String describe() {
            return "zipf(s = " + s + ")";
        }
    }

    /**
     * The experts each token chose in a trace (for example captured from a real model's router),
     * read and checked when the scenario loads.
     *
     * @param file    the file as the scenario names it
     * @param choices per source host, per token, the expert indices (ascending)
     */
    record Trace(String file, Map<String, List<List<Integer>>> choices) implements ExpertRouting {
        public Trace {
            choices = Map.copyOf(choices);
        }

        @Override
        public int[] choose(MoeModel model, double[] logits, String source, int sourceIndex, int token, int topK) {
            return choices.get(source).get(token).stream()
                    .mapToInt(Integer::intValue)
                    .toArray();
        }

        @Override
        public String describe() {
            return "trace " + file;
        }
    }
}
