package org.bitina.device;

import org.bitina.usecase.DriverSpec;

import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.usecase.DriverReport;
import org.bitina.protocol.Frame;
import org.bitina.protocol.Counter;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.Bift;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;

/**
 * The protocol every device (switch or host) speaks: the data plane ({@link FrameIn}) and
 * the control plane that wires, installs, starts, faults and measures it.
 */
public interface DeviceCommand extends ControlMessage {

    /** A frame arriving over the link from {@code from}. */
    record FrameIn(Frame frame, String from) implements DeviceCommand {
    }

    /**
     * The frames one device sent one neighbour while handling one message, in order: one
     * message instead of many (across JVMs each message has its own envelope and costs).
     */
    record FrameBatch(List<FrameIn> frames) implements DeviceCommand {
    }

    /** The device's neighbours and links, and where trace events go (null: no trace). */
    record Wire(Map<String, ActorRef<DeviceCommand>> neighbors, Map<String, LinkSpec> links, Routing routing, long seed,
                ActorRef<TraceEvent> trace) implements DeviceCommand {
    }

    /** Control-plane state for one job on this device (BIFT, A-BM, VAT parent). */
    record InstallJob(JobTables tables) implements DeviceCommand {
    }

    /**
     * Hosts: set up a driver for a job phase, reporting to {@code reportTo}. It starts sending
     * only on {@link BeginJob}, once every host has its drivers: a packet never reaches a host
     * that does not know its job yet.
     */
    record StartDriver(DriverSpec spec, ActorRef<HostEvent> reportTo) implements DeviceCommand {
    }

    /** Hosts: start the drivers set up for this job. */
    record BeginJob(int tenant, int job) implements DeviceCommand {
    }

    /** Replies once every message sent to the device before it has been processed. */
    record Sync(ActorRef<String> replyTo) implements DeviceCommand {
    }

    /** Zero the link counters and modelled queues before a phase. */
    enum ResetLinks implements DeviceCommand {
        INSTANCE
    }

    /** Link fault on the link to {@code neighbor}: up/down, loss, duplication, reordering, delay. */
    record LinkFault(String neighbor, Boolean up, Double loss, Double duplicate, Double reorder, Long wallDelayNanos)
            implements DeviceCommand {
    }

    /** The switch fails: from now on it drops everything and keeps no state. */
    enum Crash implements DeviceCommand {
        INSTANCE
    }

    /** A crashed switch comes back, empty, between the phases of a run. */
    enum Recover implements DeviceCommand {
        INSTANCE
    }

    /** New routing and BIFTs after a failure (F7: the bitmaps stay as they are). */
    record Reroute(Routing routing, Map<JobKey, Bift> bifts) implements DeviceCommand {
    }

    /** Ask for the device's counters for one job phase. */
    record CollectStats(int tenant, int job, ActorRef<DeviceStats> replyTo) implements DeviceCommand {
    }

    /** Counters of one device for one job phase. */
    record DeviceStats(String node, boolean isSwitch, Map<Counter, Long> counters, List<LinkStats> links, int peakStateEntries,
                       long peakBufferedBytes, List<DriverReport> drivers, long unknownJobDrops, int incTrees) implements ControlMessage {
    }

    /** One direction of a link, as counted by its sender. */
    record LinkStats(String from, String to, long packets, long bytes, long headerBytes, long lost) {
    }

    /** What hosts tell the coordinator while a phase runs. */
    interface HostEvent extends ControlMessage {
    }

    /** A driver has everything it waits for. */
    record DriverDone(int tenant, int job, DriverReport report) implements HostEvent {
    }

    /** Results received since the last progress message. */
    record Progress(int tenant, int job, int results) implements HostEvent {
    }
}
