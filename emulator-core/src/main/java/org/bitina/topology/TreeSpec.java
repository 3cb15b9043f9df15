package org.bitina.topology;

/**
 * How an aggregation tree is established: a VAT configured with A-BMs (A1), or built
 * automatically for the members and root (A6, {@code vat} is then null until built), or
 * data-driven by BIER-INC (seed 001) with its collective, root, and whether the leaf
 * switches rather than the hosts are the edge BFRs (B6).
 */
public record TreeSpec(Mode mode, String root, Vat vat, Collective collective, boolean leafEdge) {
    public TreeSpec(Mode mode, String root, Vat vat) {
        this(mode, root, vat, Collective.ALLREDUCE, false);
    }

    /** What a BIER-INC job computes (seed 001); VAT trees always run AllReduce. */
    public enum Collective {
        ALLREDUCE, REDUCE, BROADCAST
    }

    public enum Mode {
        VAT,
        AUTO,
        /** BIER-INC (seed 001): one data-driven tree per participant, no configured A-BMs. */
        BIER_INC
    }
}
