package org.bitina.protocol;

import java.util.List;

/**
 * One line of the per-event trace (DESIGN.md contract): node, job, sequence id, event
 * ({@code send, forward, replicate, terminate, complete, install, timeout, deliver, drop}),
 * direction ({@code agg | mcast}), bitmap in the seeds' form, next hops, modelled time in
 * nanoseconds; {@code detail} says why for drops and timeouts.
 */
public record TraceEvent(String node, String job, long seq, String event, String dir, String bitmap, List<String> to,
                         long vt, String detail) {
}
