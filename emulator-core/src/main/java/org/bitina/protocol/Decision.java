package org.bitina.protocol;

import java.util.List;
import org.bitina.bitmap.EndpointSet;

/**
 * What a tree mechanism tells its switch to do, as a value: the mechanism decides, {@link
 * NodeEngine#apply} does it, once, in order (counting, tracing and putting frames on links
 * happen only there). A mechanism never calls back into the node; it reads its own state and
 * the node's tables and returns one of these (several in a {@link All}).
 *
 * <p>To send one frame out of one port (a result a root remembers, back down to the child that
 * asked for it again), a mechanism returns {@link Forward}: {@code new Forward(job, port, frame)}
 * is traced as a {@code forward} to that port and put on that link in the job's encoding.
 */
sealed interface Decision {

    /** Nothing to do. */
    Decision NOTHING = new All(List.of());

    /** Several decisions, applied in this order. */
    static Decision all(Decision... steps) {
        return new All(List.of(steps));
    }

    /** Several decisions, applied in this order. */
    record All(List<Decision> steps) implements Decision {}

    /**
     * Toward the frame's underlay destination by unicast routing, counted and traced as a
     * forward; to this node's endpoint when the destination is this node; dropped, counted, when
     * there is no such node or no route.
     */
    record Route(JobTables job, Frame frame) implements Decision {}

    /**
     * An aggregation packet with no state here: when it was addressed to this node, whose state
     * for it is gone, on up the tree to {@code parent} (counted as passed up); else {@link Route}.
     */
    record PassUp(JobTables job, Frame frame, String parent) implements Decision {}

    /** Onto the link to one neighbour ({@code port}), traced as a {@code forward} to it. */
    record Forward(JobTables job, String port, Frame frame) implements Decision {}

    /** Onto the link to one neighbour, untraced (a {@link Trace} that names all the copies goes with it). */
    record Send(JobTables job, String port, Frame frame) implements Decision {}

    /** F3: the BIER forwarding step ({@link Replicator}) for a multicast frame, at time {@code now}. */
    record Replicate(JobTables job, Frame frame, long now) implements Decision {}

    /**
     * Copies a BIER step already computed (an INC tree's installed downstream copies): each onto its
     * link with its own bitmap and {@code via} as its upstream, counted and traced as one step.
     */
    record Copies(JobTables job, Frame frame, List<Replicator.Copy> copies, String via) implements Decision {}

    /** To the endpoint drivers on this node. */
    record Deliver(JobTables job, Frame frame) implements Decision {}

    /** Dropped, counted by {@code reason} (the text of {@code why}), traced. */
    record Drop(JobTables job, Frame frame, DropReason why, String reason) implements Decision {}

    /** A drop for {@code why}, its text made from {@code args}. */
    static Drop drop(JobTables job, Frame frame, DropReason why, Object... args) {
        return new Drop(job, frame, why, why.text(args));
    }

    /** One more of a job's counters. */
    record Count(JobTables job, Counter counter) implements Decision {}

    /** A trace event about a frame. */
    record Trace(JobTables job, Frame frame, TraceEvent.Kind event, List<String> to, String detail)
            implements Decision {}

    /** A trace event not about one frame (an install, a bridge crossing). */
    record Note(
            JobTables job,
            long seq,
            TraceEvent.Kind event,
            String dir,
            EndpointSet bitmap,
            List<String> to,
            long vt,
            String detail)
            implements Decision {}

    /**
     * The aggregation step (F2, F4, F5, S5) for a contribution to state {@code key}: the table
     * says what became of it, and mechanism {@code by} what follows ({@code what} names the
     * contribution in a duplicate's drop reason).
     */
    record Offer(
            TreeMechanism by,
            JobTables job,
            Frame frame,
            StateKey key,
            EndpointSet registered,
            Contribution contribution,
            String what,
            long now)
            implements Decision {}

    /** Into this node's data plane again, as a frame of another job here (H2: a partition root into its second stage). */
    record Enter(JobTables job, Frame frame, long now) implements Decision {}

    /** Into this node's BIER-INC trees (B6: a leaf's hosts' packets, a leaf's sum of their shares). */
    record Inc(JobTables job, Frame frame, long now) implements Decision {}
}
