package org.bitina.usecase.bierinc;

import java.util.List;
import org.bitina.usecase.KindReport;

/**
 * BIER-INC's own part of an INA row (seed 001): the INC tree entries the forward packets built
 * (B2), summed over the switches as they held them at the end of the phase, and the results the
 * members asked their owners for again.
 *
 * @param treeEntries INC tree branches (upstream, incoming bitstring, downstream BFRs) held at the phase's end
 * @param requests    result requests the members sent (recovery of a lost reverse result)
 */
public record BierIncReport(long treeEntries, long requests) implements KindReport {
    @Override
    public List<Figure> figures() {
        return List.of(
                new Figure("incTreeEntries", "INC tree entries", treeEntries, Unit.COUNT, "over the switches"),
                new Figure("resultRequests", "result requests", requests, Unit.COUNT));
    }

    @Override
    public String treeState() {
        return "INC tree branch";
    }
}
