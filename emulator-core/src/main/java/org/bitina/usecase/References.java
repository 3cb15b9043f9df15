package org.bitina.usecase;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bitina.usecase.reduction.Verifier;

/**
 * What the endpoint drivers of one run on one JVM share: the AllReduce reference results
 * (every worker of a 128-way job checks a chunk against the same reference, computed once)
 * and the MoE model's seeded weights. One per run and member, handed to the hosts it
 * spawns; it goes with them, so nothing outlives the run.
 */
public final class References {
    private final Verifier verifier = new Verifier();
    /** Drivers run on several dispatcher threads at once, and look weights up per token: a concurrent map. */
    private final Map<String, float[][]> moeWeights = new ConcurrentHashMap<>();

    public Verifier verifier() {
        return verifier;
    }

    public Map<String, float[][]> moeWeights() {
        return moeWeights;
    }
}
