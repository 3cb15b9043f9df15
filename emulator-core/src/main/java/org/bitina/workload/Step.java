package org.bitina.workload;

import java.util.List;

/**
 * One node of an iteration's step graph: what it does ({@link Op}) and what it waits for. A
 * data dependency is a step whose output this one consumes; a control dependency only orders
 * (the previous collective on the same communicator, the previous step on a stream).
 */
public record Step(int id, String name, Op op, List<Integer> dataDeps, List<Integer> ctrlDeps) {
    public Step {
        dataDeps = List.copyOf(dataDeps);
        ctrlDeps = List.copyOf(ctrlDeps);
    }

    public StepType type() {
        return op.type();
    }

    /** Whether {@code rank} takes part in this step. */
    public boolean involves(int rank) {
        if (op instanceof Compute c) {
            return c.rank() == rank;
        }
        if (op instanceof Collective c) {
            return c.group().contains(rank);
        }
        return ((Transfer) op).rank() == rank;
    }

    /** What a step does. */
    public sealed interface Op {
        StepType type();
    }

    /** Modelled compute on one rank, taking {@code nanos}. */
    public record Compute(int rank, long nanos) implements Op {
        @Override
        public StepType type() {
            return StepType.COMPUTE;
        }
    }

    /**
     * A collective over {@code group} of {@code bytes} per rank: the buffer each rank passes in (AllReduce,
     * ReduceScatter's input, AllToAll's send buffer, Broadcast, Reduce) or gets out (AllGather's output);
     * a {@link StepType#SEND_RECV} is a matched send and receive over the pair, {@code bytes} once.
     *
     * @param root the rank a Broadcast starts from, a Reduce ends at, a send/recv is sent by; the
     *             group's first rank for the others (it means nothing to them)
     */
    public record Collective(StepType type, ProcessGroup group, long bytes, int root) implements Op {
        public Collective {
            if (!type.isCollective()) {
                throw new IllegalArgumentException(type + " is not a collective");
            }
            if (!group.contains(root)) {
                throw new IllegalArgumentException(
                        "root rank " + root + " is not in group " + group.name() + " " + group.ranks());
            }
        }

        /** A collective rooted at its group's first rank: Chakra's schema names no root. */
        public Collective(StepType type, ProcessGroup group, long bytes) {
            this(type, group, bytes, group.ranks().get(0));
        }
    }

    /** One side of a point-to-point transfer: {@code rank} sends to or receives from {@code peer}. */
    public record Transfer(StepType type, int rank, int peer, long bytes, int tag) implements Op {
        public Transfer {
            if (type != StepType.SEND && type != StepType.RECV) {
                throw new IllegalArgumentException(type + " is not a send or a receive");
            }
        }
    }
}
