package org.bitina.protocol;

import java.util.Locale;

/**
 * Names one aggregation: the job (tenant and job id, so two jobs never share state, S1),
 * the tree mechanism that owns it, the origin that scopes the sequence space (the MoE
 * source, the multicast round, the BIER-INC BFIR and branch; 0 where the job has one), and
 * the sequence/chunk/token id (A4, M4, R4).
 */
public record StateKey(int tenant, int job, Tree tree, long origin, long seq) {
    /** Which mechanism holds an aggregation, and so where its emission goes. */
    public enum Tree {
        /** A-BMs installed by the control plane (A1, R2 pre-configured); also a host's own table. */
        PRECONFIGURED,
        /** C-BMs a multicast installed as it passed (M2, R2 self-installed). */
        SELF_INSTALLED,
        /** BIER-INC trees created by the first forward packet (seed 001). */
        INC,
        /** A leaf's sum of its own hosts' shares (B6). */
        EDGE
    }

    /** A pre-configured aggregation. */
    public StateKey(int tenant, int job, long origin, long seq) {
        this(tenant, job, Tree.PRECONFIGURED, origin, seq);
    }

    public JobKey jobKey() {
        return new JobKey(tenant, job);
    }

    public StateKey in(Tree t) {
        return new StateKey(tenant, job, t, origin, seq);
    }

    @Override
    public String toString() {
        return "t" + tenant + "/j" + job
                + (tree != Tree.PRECONFIGURED ? "/" + tree.name().toLowerCase(Locale.ROOT) : "")
                + (origin != 0 ? "/o" + origin : "") + "#" + seq;
    }
}
