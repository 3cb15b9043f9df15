package org.bitina.usecase.broadcast;

import java.util.List;
import org.bitina.job.JobCommon;
import org.bitina.usecase.multicast.MulticastSpec;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;

/**
 * A broadcast job (NCCL's broadcast): the {@code root}'s seeded array ends at every other member.
 * The members are every rank, the root among them, and hold the bits.
 *
 * @param maxRounds retransmission rounds of the in-network mode before the members still missing a window are named
 */
public record BroadcastSpec(JobCommon common, String root, DataSpec data, int maxRounds)
        implements ArrayPhases.JobSpecWithData {
    @Override
    public String source() {
        return root;
    }

    /** The members the root's array goes to. */
    public List<String> receivers() {
        return common.members().stream().filter(m -> !m.equals(root)).toList();
    }

    /** The array's bytes, what every member ends with. */
    public long bytes() {
        return (long) data.elements() * data.type().bytes();
    }

    /**
     * The reliable multicast that carries it in the network (seed 000 section 5): one chunk a packet,
     * one ACK per window and receiver, aggregated up the composed ACK tree (A-BMs for the bulk, C-BMs the
     * retransmissions install). Its receivers are the members but the root, over the job's bit space;
     * its data the block the root's seed gives, which every receiver checks word by word.
     */
    MulticastSpec multicast() {
        JobCommon receiving = common.withMembers(receivers());
        int packet = data.chunk() * data.type().bytes();
        return new MulticastSpec(
                receiving,
                root,
                new MulticastSpec.Params(bytes(), packet, data.window(), data.seed(), true, "composed", maxRounds));
    }
}
