package org.bitina.usecase.moe;

import java.util.List;
import org.bitina.usecase.KindReport;

/**
 * MoE's own part of a job row: the bytes on the sources' uplinks, the figure the in-network
 * dispatch and combine save against all-to-all (000 section 4: one packet per D-BM instead of one
 * per expert).
 */
public record MoeReport(long sourceUplinkBytes) implements KindReport {
    @Override
    public List<Figure> figures() {
        return List.of(new Figure("sourceUplinkBytes", "source uplink", sourceUplinkBytes, Unit.BYTES));
    }
}
