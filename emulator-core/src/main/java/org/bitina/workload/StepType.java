package org.bitina.workload;

/** What a step of an iteration does: compute on one rank, a collective over a group, or one side of a transfer. */
public enum StepType {
    COMPUTE,
    ALL_REDUCE,
    REDUCE_SCATTER,
    ALL_GATHER,
    ALL_TO_ALL,
    BROADCAST,
    REDUCE,
    SEND,
    RECV;

    public boolean isCollective() {
        return this != COMPUTE && this != SEND && this != RECV;
    }
}
