package org.bitina.protocol;

/**
 * Names one aggregation: the job (tenant and job id, so two jobs never share state, S1),
 * the origin that scopes the sequence space (the MoE source, the multicast flow, the
 * BIER-INC BFIR; 0 where the job has one), and the sequence/chunk/token id (A4, M4, R4).
 */
public record StateKey(int tenant, int job, long origin, long seq) {
    @Override
    public String toString() {
        return "t" + tenant + "/j" + job + (origin != 0 ? "/o" + origin : "") + "#" + seq;
    }
}
