package org.bitina.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Labels;
import org.bitina.job.Mode;
import org.bitina.wire.Direction;
import org.bitina.wire.InaPacket;

/**
 * One line of the per-event trace (docs/reference.md): node, job, mode ({@code ina} or the
 * baseline's name), sequence id, event ({@code send, forward, replicate, terminate, complete,
 * install, timeout, deliver, drop}), direction ({@code agg | mcast}), bitmap in the seeds' form,
 * next hops, modelled time {@code vt} in nanoseconds ({@link #VT_UNIT}); {@code detail} says why
 * for drops and timeouts, and which copy a {@code replicate} event is.
 *
 * <p>Every event is built by {@link #of} (an event about a frame) or {@link #about} (one that is
 * not: a timeout, an install), so the job's name, its mode and the direction are spelled once.
 */
public record TraceEvent(
        String node,
        String job,
        Mode mode,
        long seq,
        Kind event,
        String dir,
        String bitmap,
        List<String> to,
        long vt,
        String detail)
        implements Recorded {

    /** What happened, as the trace names it ({@code forward}): the trace contract's events, in its order. */
    public enum Kind {
        SEND,
        FORWARD,
        REPLICATE,
        TERMINATE,
        COMPLETE,
        INSTALL,
        TIMEOUT,
        DELIVER,
        DROP;

        /** As the trace writes it. */
        @JsonValue
        public String label() {
            return Labels.of(this);
        }

        /** The kind a trace names ({@code replicate}). */
        @JsonCreator
        public static Kind of(String label) {
            return Labels.parse(Kind.class, label, "trace event");
        }

        @Override
        public String toString() {
            return label();
        }
    }

    /** The unit of {@code vt}, declared on the trace's first line. */
    public static final String VT_UNIT = "ns";

    /** What the trace writes as the mode of an event whose job is installed nowhere on the node (mode null): there is no phase to name. */
    public static final String NO_MODE = "-";

    /** The mode as the trace writes it: its name, or {@link #NO_MODE}. */
    public String modeName() {
        return mode == null ? NO_MODE : mode.name();
    }

    /**
     * An event about a frame at {@code node}: the job and mode from its tables, or, when the job
     * is not installed there ({@code t} null), the wire's tenant and job ({@code t1/j7}).
     */
    public static TraceEvent of(
            String node,
            JobTables t,
            InaPacket p,
            Kind event,
            EndpointSet bitmap,
            List<String> to,
            long vt,
            String detail) {
        String dir = p.header().direction() == Direction.AGGREGATION ? "agg" : "mcast";
        return new TraceEvent(
                node,
                t != null ? t.name() : JobKey.of(p.header()).toString(),
                t != null ? t.mode() : null,
                p.header().seq(),
                event,
                dir,
                bitmap.toString(),
                to,
                vt,
                detail);
    }

    /** An event that is not about one frame (a timeout, an install) of the job {@code t}. */
    public static TraceEvent about(
            String node,
            JobTables t,
            long seq,
            Kind event,
            String dir,
            EndpointSet bitmap,
            List<String> to,
            long vt,
            String detail) {
        return new TraceEvent(node, t.name(), t.mode(), seq, event, dir, bitmap.toString(), to, vt, detail);
    }
}
