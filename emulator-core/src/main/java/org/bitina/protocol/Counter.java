package org.bitina.protocol;

/**
 * What a node counts per job. The report reads {@link #TIMEOUTS}, {@link #LATE},
 * {@link #DROPS} and {@link #FRAMES_IN}; the rest describe what the node did and travel
 * with its stats.
 */
public enum Counter {
    FRAMES_IN,
    DROPS,
    DELIVERED,
    FORWARDED,
    REPLICATED,
    /** Contributions a node held (buffered or completing). */
    TERMINATED,
    COMPLETIONS,
    TIMEOUTS,
    LATE,
    /** Past the job's quota (S5), or no free entry in the pool (T2, best-effort): passed on unaggregated. */
    REFUSED,
    /** T2: best-effort chunks a root folded outside the pool, for want of a free entry. */
    ROOT_FOLDS,
    /** C-BMs installed by a self-installing multicast (M2, R2). */
    INSTALLS,
    /** BIER-INC branches created by a first forward packet (B2). */
    INC_TREES,
    /** Reductions that left a stale INC tree at a routing change (B5). */
    REROUTE_FLUSHES,
    /** Reductions sent on toward their BFIR outside a tree. */
    PASSED_ON,
    /** Reverse packets no current INC branch here could take. */
    OFF_TREE,
    /** Contributions addressed to a node whose state for them was gone, sent on up the tree. */
    PASSED_UP,
    ACKS,
    PARTIAL_ACKS,
    ROOT_COMPLETE,
    ROOT_PARTIAL,
    RESULTS_RESENT,
    RETRANSMISSIONS_PASSED_UP,
    LATE_FOLDED,
    /** H2: partition aggregates a partition root sent up to the second stage. */
    BRIDGED_UP,
    /** H2: second-stage results a partition root sent down into its partition. */
    BRIDGED_DOWN,
    /**
     * A job's frames lost on this device's outgoing links (loss, queue full, link down, MTU): the
     * links' own counts are the world's in a shared mix, this one the job's.
     */
    LINK_LOST,
    /** H2: frames a switch at the fabric's edge converted between the hosts' encoding and the fabric's, either way. */
    TRANSLATED
}
