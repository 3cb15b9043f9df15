package org.bitina.usecase;

import java.util.List;
import java.util.Map;
import org.bitina.protocol.Frame;
import org.bitina.wire.InaPacket;

/**
 * An endpoint's part of a job (a worker, a parameter server, an expert, a receiver), as a
 * pure state machine driven by its host actor: it emits frames, consumes delivered
 * packets and may ask for timer ticks. Wall time and modelled time are arguments.
 */
public interface EndpointDriver {

    /** A frame to send, after {@code wallDelayNanos} of wall-clock delay (a straggler). */
    record Out(Frame frame, long wallDelayNanos) {}

    List<Out> start(long now);

    /** Whether a packet delivered to this host for the driver's job is for this driver. */
    default boolean accepts(InaPacket packet) {
        return true;
    }

    /** A frame delivered to this host for the driver's job ({@code frame.vt()} is its modelled arrival). */
    List<Out> onDeliver(Frame frame, long now);

    /** The network's routes changed (a failure or repair was routed around, F7). */
    default List<Out> onRoutingChange(long now) {
        return List.of();
    }

    /**
     * The job's tree was rebuilt around a crashed switch: {@code uplinks} says where each
     * joined worker sends now, {@code cutOff} who has no path left. Returns what to send again.
     */
    default List<Out> onRetree(Map<String, String> uplinks, List<String> cutOff, long now) {
        return List.of();
    }

    default List<Out> onTimer(long now) {
        return List.of();
    }

    /** Earliest wall time this driver wants {@link #onTimer} called, or Long.MAX_VALUE. */
    default long nextDeadline() {
        return Long.MAX_VALUE;
    }

    /** True when this endpoint has everything it waits for. */
    boolean done();

    DriverReport report();
}
