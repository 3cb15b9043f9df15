package org.bitina.usecase.bierinc;

import org.bitina.job.JobCommon;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.usecase.reduction.Elastic;

/**
 * BIER-INC (seed 001): no configured tree; each owner's first forward packet builds its
 * own. AllReduce over one tree per owner, or Reduce to and Broadcast from {@code root}.
 *
 * @param leafEdge the leaf switches rather than the hosts are the edge BFRs (B6)
 * @param elastic  A8: iterations and membership changes (AllReduce collective only)
 */
public record BierIncSpec(
        JobCommon common, IncPlan.Collective collective, String root, boolean leafEdge, DataSpec data, Elastic elastic)
        implements ArrayPhases.JobSpecWithData {
    public BierIncSpec(JobCommon common, IncPlan.Collective collective, String root, boolean leafEdge, DataSpec data) {
        this(common, collective, root, leafEdge, data, Elastic.ONCE);
    }
}
