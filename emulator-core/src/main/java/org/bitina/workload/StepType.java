package org.bitina.workload;

/**
 * What a step of an iteration does: compute on one rank, a collective over a group, one side of a
 * transfer, or a matched transfer as one step over its two ranks.
 */
public enum StepType {
    COMPUTE,
    ALL_REDUCE,
    REDUCE_SCATTER,
    ALL_GATHER,
    ALL_TO_ALL,
    BROADCAST,
    REDUCE,
    SEND,
    RECV,
    /** A matched SEND and RECV run as one point-to-point transfer over the pair ({@link TransferPairs}). */
    SEND_RECV;

    public boolean isCollective() {
        return this != COMPUTE && this != SEND && this != RECV;
    }
}
