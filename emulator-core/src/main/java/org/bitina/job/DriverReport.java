package org.bitina.job;

import java.util.List;

/**
 * What an endpoint reports at the end of a job phase.
 *
 * @param chunks          chunks (or tokens, windows) expected
 * @param received        chunks with a result
 * @param partialChunks   chunks whose result lacks contributions, with the missing endpoints
 * @param mismatches      results that failed verification (never empty silently: each named)
 * @param lastVt          modelled time of the last result, nanoseconds
 * @param verifiedChunks  chunks checked against the reference and found right
 * @param dropped         what the endpoint itself dropped by policy (MoE tokens over expert capacity)
 * @param stats           counters particular to the role (rounds, ACK packets, duplicates suppressed)
 */
public record DriverReport(String endpoint, String role, int chunks, int received, List<PartialChunk> partialChunks,
                           List<String> mismatches, long lastVt, int verifiedChunks, boolean done, List<String> dropped,
                           java.util.Map<String, Long> stats) {

    public record PartialChunk(long seq, List<String> missing) {
    }
}
