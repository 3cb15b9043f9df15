package org.bitina.topology;

/**
 * How an aggregation tree is established: a VAT configured with A-BMs (A1), or built
 * automatically for the members and root (A6, {@code vat} is then null until built).
 */
public record TreeSpec(Mode mode, String root, Vat vat) {
    public enum Mode {
        VAT,
        AUTO,
        /** BIER-INC (seed 001): one data-driven tree per participant, no configured A-BMs. */
        BIER_INC
    }
}
