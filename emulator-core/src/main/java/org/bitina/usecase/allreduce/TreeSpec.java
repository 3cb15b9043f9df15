package org.bitina.usecase.allreduce;

import org.bitina.topology.Vat;

/**
 * How an AllReduce's aggregation tree is established: a VAT configured with A-BMs (A1), or
 * built automatically for the members and root (A6, {@code vat} is then null until built).
 */
public record TreeSpec(Mode mode, String root, Vat vat) {
    public enum Mode {
        VAT,
        AUTO
    }
}
