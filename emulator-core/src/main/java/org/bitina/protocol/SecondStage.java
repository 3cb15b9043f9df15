package org.bitina.protocol;

import java.util.List;
import org.bitina.bitmap.EndpointSet;

/**
 * Parallel trees over partitions (seed 000 section 7, H2): a job's endpoints split into
 * partitions, each aggregated by a tree of its own over a short bit space of its own (its own
 * wire job); the partition roots' results are combined by a second-stage aggregation whose bits
 * stand for the partitions (another wire job), and its result comes back down one copy per
 * partition. This is the control-plane part a node holds for that, beside its tables.
 *
 * <p>On every node of the second stage, {@code partitions} says what each stage bit stands for:
 * that partition's members in the job's whole bit space, so that a stage aggregation knows which
 * contributions it holds ({@link #expand}) and a result names them exactly (its provenance) when a
 * partition was partial. At a partition root, {@code bit} is its partition's bit in the stage,
 * {@code partitionJob} its partition's wire job and {@code uplink} where its stage contributions go
 * (its VAT parent in the second stage); elsewhere {@code bit} is -1.
 *
 * @param stageJob     the second stage's wire job
 * @param partitionJob the wire job of the partition this node roots, or -1
 * @param bit          that partition's bit in the stage (index), or -1
 * @param uplink       at a partition root, its VAT parent in the second stage; else null
 * @param partitions   per stage bit, the partition's members in the job's bit space
 */
public record SecondStage(int stageJob, int partitionJob, int bit, String uplink, List<EndpointSet> partitions) {

    public SecondStage {
        partitions = List.copyOf(partitions);
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a second stage combines at least one partition");
        }
        if (bit >= partitions.size()) {
            throw new IllegalArgumentException("stage bit " + bit + " outside 0.." + (partitions.size() - 1));
        }
    }

    /** What a node of the second stage (not a partition root) holds of it. */
    public static SecondStage node(int stageJob, List<EndpointSet> partitions) {
        return new SecondStage(stageJob, -1, -1, null, partitions);
    }

    /** Whether this node roots a partition: its results cross to the stage here, and the stage's result back. */
    public boolean bridges() {
        return bit >= 0;
    }

    /** How many bits the stage has: one per partition. */
    public int capacity() {
        return partitions.size();
    }

    /** How many bits the job's whole space has. */
    public int jobCapacity() {
        return partitions.get(0).capacity();
    }

    /** The job's endpoints a stage P-BM stands for: the union of the partitions it names. */
    public EndpointSet expand(EndpointSet stagePbm) {
        EndpointSet all = partitions.get(0).andNot(partitions.get(0));
        for (int i = stagePbm.nextSetBit(0); i >= 0; i = stagePbm.nextSetBit(i + 1)) {
            all = all.or(partitions.get(i));
        }
        return all;
    }
}
