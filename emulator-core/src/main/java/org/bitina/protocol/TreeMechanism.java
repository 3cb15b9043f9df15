package org.bitina.protocol;

/**
 * One way a job's aggregations are organised on a node: pre-configured A-BM trees,
 * self-installed C-BM trees, BIER-INC data-driven trees, or a leaf's own hosts. The
 * aggregation step itself is the same for all ({@link Decision.Offer}); a mechanism says, as a
 * {@link Decision} the engine applies, where an emission goes and what happens to what its state
 * can no longer take.
 */
interface TreeMechanism {
    /** An aggregation of this mechanism completed or timed out with something in it. */
    Decision emit(JobTables t, Emission e, long now);

    /** The table has no state for the contribution and nothing registered: it is not for this node. */
    Decision unmatched(JobTables t, StateKey key, Frame f);

    /** The contribution was missing from a result that already left (already counted as late). */
    Decision late(JobTables t, StateKey key, Frame f, long now);

    /** No state could be created past the job's quota (S5; already counted): never lose the contribution. */
    Decision refused(JobTables t, StateKey key, Frame f, AggregationTable.Refused reason);

    /**
     * A duplicate flagged RETRANSMIT: somebody lost a result and asks again; {@code cached} is the
     * chunk's result when this node's result cache keeps it (L1), else null.
     */
    Decision retransmitted(JobTables t, StateKey key, Frame f, Emission cached, long now);
}
