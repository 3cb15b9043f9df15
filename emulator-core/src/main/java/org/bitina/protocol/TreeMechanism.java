package org.bitina.protocol;

import java.util.List;

/**
 * One way a job's aggregations are organised on a node: pre-configured A-BM trees,
 * self-installed C-BM trees, BIER-INC data-driven trees, or a leaf's own hosts. The
 * aggregation step itself is the same for all ({@link NodeEngine#offer}); a mechanism says
 * where an emission goes and what happens to what its state can no longer take.
 */
interface TreeMechanism {
    /** An aggregation of this mechanism completed or timed out with something in it. */
    void emit(JobTables t, Emission e, long now, List<NodeEngine.Action> out);

    /** The table has no state for the contribution and nothing registered: it is not for this node. */
    void unmatched(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out);

    /** The contribution was missing from a result that already left (already counted as late). */
    void late(JobTables t, StateKey key, Frame f, long now, List<NodeEngine.Action> out);

    /** No state could be created past the job's quota (S5; already counted): never lose the contribution. */
    void refused(JobTables t, StateKey key, Frame f, String reason, List<NodeEngine.Action> out);

    /**
     * A duplicate flagged RETRANSMIT: somebody lost a result and asks again; {@code cached} is the
     * chunk's result when this node's result cache keeps it (L1), else null.
     */
    void retransmitted(JobTables t, StateKey key, Frame f, Emission cached, long now, List<NodeEngine.Action> out);
}
