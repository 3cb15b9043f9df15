package org.bitina.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.ObservedTrees;
import org.bitina.protocol.SwitchTiming;
import org.bitina.security.ChecksumAudit;
import org.bitina.topology.Bift;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.PacketType;

/**
 * The protocol every device (switch or host) speaks: the data plane ({@link FrameIn}), the
 * control plane every device takes (wiring, installs, faults, counters), what only a host
 * takes (its drivers) and only a switch (crash and recovery), and each actor's own timer
 * messages. The replies devices send are below it, not part of it.
 */
public sealed interface DeviceCommand extends ControlMessage
        permits DeviceCommand.DataPlane,
                DeviceCommand.ControlPlane,
                DeviceCommand.HostOnly,
                DeviceCommand.SwitchOnly,
                DeviceCommand.Local {

    /** Frames between neighbours. */
    sealed interface DataPlane extends DeviceCommand permits FrameIn, FrameBatch {}

    /** What the coordinator tells every device. */
    sealed interface ControlPlane extends DeviceCommand
            permits Wire,
                    InstallJob,
                    Sync,
                    ResetLinks,
                    LinkFault,
                    Reroute,
                    CollectStats,
                    Advance,
                    Retree,
                    SwitchSpeed,
                    ReleasePool {}

    /** What only a host takes: its endpoint drivers. */
    sealed interface HostOnly extends DeviceCommand permits StartDriver, BeginJob {}

    /** What only a switch takes: failing and coming back (E4). */
    sealed interface SwitchOnly extends DeviceCommand permits Crash, Recover, Rejoin, Tamper {}

    /** A device's own timer messages: they never leave its JVM. */
    sealed interface Local extends DeviceCommand, NoSerializationVerificationNeeded
            permits SwitchActor.Tick, HostActor.Tick, HostActor.Delayed {}

    /** A frame arriving over the link from {@code from}. */
    record FrameIn(Frame frame, String from) implements DataPlane {}

    /**
     * The frames one device sent one neighbour while handling one message, in order: one
     * message instead of many (across JVMs each message has its own envelope and costs).
     */
    record FrameBatch(List<FrameIn> frames) implements DataPlane {}

    /**
     * The device's neighbours and links, and where trace events and captured packets go (null: neither).
     *
     * @param member          the cluster member running this device (0..members-1)
     * @param neighborMembers the member running each neighbour: frames to and from other
     *                        members are counted, so the virtual clock knows none is in flight
     */
    record Wire(
            Map<String, ActorRef<DeviceCommand>> neighbors,
            Map<String, LinkSpec> links,
            Routing routing,
            long seed,
            Recorder trace,
            int member,
            int members,
            Map<String, Integer> neighborMembers)
            implements ControlPlane {
        /** A device whose neighbours all run on its own member. */
        public Wire(
                Map<String, ActorRef<DeviceCommand>> neighbors,
                Map<String, LinkSpec> links,
                Routing routing,
                long seed,
                Recorder trace) {
            this(neighbors, links, routing, seed, trace, 0, 1, Map.of());
        }
    }

    /** Control-plane state for one job on this device (BIFT, A-BM, VAT parent). */
    record InstallJob(JobTables tables) implements ControlPlane {}

    /**
     * A job has completed (T2): its grants of the switches' pools of aggregation entries go back,
     * between two windows of modelled time, so best-effort jobs may use them.
     */
    record ReleasePool(int tenant, List<Integer> jobs) implements ControlPlane {
        public ReleasePool {
            jobs = List.copyOf(jobs);
        }
    }

    /**
     * Hosts: set up a driver for a job phase, reporting to {@code reportTo}. It starts sending
     * only on {@link BeginJob}, once every host has its drivers: a packet never reaches a host
     * that does not know its job yet. {@code endpointSecret}: what the job's endpoints share for
     * S6 (masks, checksum), from the run's secret; it goes to hosts only, never into a switch's tables.
     */
    record StartDriver(DriverSpec spec, ActorRef<HostEvent> reportTo, byte[] endpointSecret) implements HostOnly {
        public StartDriver(DriverSpec spec, ActorRef<HostEvent> reportTo) {
            this(spec, reportTo, null);
        }
    }

    /** Hosts: start the drivers set up for this job. */
    record BeginJob(int tenant, int job, long vt) implements HostOnly {
        /** At the phase's start (modelled time 0, or now under the real clock). */
        public BeginJob(int tenant, int job) {
            this(tenant, job, 0);
        }
    }

    /** Replies once every message sent to the device before it has been processed. */
    record Sync(ActorRef<String> replyTo) implements ControlPlane {}

    /** Switches: the optional processing delay and adder rate (sent only when the scenario sets them). */
    record SwitchSpeed(SwitchTiming.Spec spec) implements ControlPlane {}

    /** Zero the link counters and modelled queues before a phase. */
    enum ResetLinks implements ControlPlane {
        INSTANCE
    }

    /**
     * Link fault on the link to {@code neighbor}: up/down, loss, duplication, reordering, delay; at
     * modelled time {@code vt} (virtual clock; it arrives before the window that reaches it, so a
     * link going down takes with it only the frames arriving from then on).
     */
    record LinkFault(
            String neighbor, Boolean up, Double loss, Double duplicate, Double reorder, Long wallDelayNanos, long vt)
            implements ControlPlane {
        /** At once: the real clock, or between phases. */
        public LinkFault(
                String neighbor, Boolean up, Double loss, Double duplicate, Double reorder, Long wallDelayNanos) {
            this(neighbor, up, loss, duplicate, reorder, wallDelayNanos, 0);
        }
    }

    /** The switch fails: from now on it drops everything and keeps no state. */
    enum Crash implements SwitchOnly {
        INSTANCE
    }

    /** The malicious-switch fault (S6): from now on the switch corrupts the sums it emits; {@code tamper} null: honest again. */
    record Tamper(org.bitina.protocol.Tamper tamper) implements SwitchOnly {}

    /** A crashed switch comes back, empty, between the phases of a run. */
    enum Recover implements SwitchOnly {
        INSTANCE
    }

    /**
     * A crashed switch comes back within a phase (the switch-recover fault), at modelled time
     * {@code vt}: empty, no tables and no soft state; the controller's reconfiguration that follows
     * installs its tables.
     */
    record Rejoin(long vt) implements SwitchOnly {}

    /**
     * New routing and BIFTs after a failure (F7: the bitmaps stay as they are), at modelled time
     * {@code vt} (virtual clock); {@code quiet}: the network healed between phases, send nothing.
     */
    record Reroute(Routing routing, Map<JobKey, Bift> bifts, long vt, boolean quiet) implements ControlPlane {
        public Reroute(Routing routing, Map<JobKey, Bift> bifts) {
            this(routing, bifts, 0, false);
        }

        public Reroute(Routing routing, Map<JobKey, Bift> bifts, long vt) {
            this(routing, bifts, vt, false);
        }

        /** Between phases: the routes change, and nothing is sent (quiet). */
        public static Reroute healed(Routing routing) {
            return new Reroute(routing, Map.of(), 0, true);
        }
    }

    /**
     * A job's tree rebuilt around a crashed switch, at modelled time {@code vt}: this device's new
     * tables for it (its open aggregations go), and for the job's workers on a host, where each
     * sends now and who is cut off.
     */
    record Retree(JobTables tables, Map<String, String> uplinks, List<String> cutOff, long vt) implements ControlPlane {
        /** A contribution of the job sent under the old tree: not flagged RETRANSMIT, as the workers' resends are. */
        static boolean stale(Frame f, JobTables t) {
            InaHeader h = f.packet().header();
            return h.type() == PacketType.CONTRIBUTION
                    && h.tenant() == t.tenant()
                    && h.job() == t.job()
                    && !h.has(Flags.RETRANSMIT);
        }
    }

    /**
     * Virtual clock: process every event before {@code end} (from {@code start} on), then say
     * so to {@code replyTo}, the member agent.
     */
    record Advance(long window, long start, long end, ActorRef<Advanced> replyTo) implements ControlPlane {}

    /** To the member agent: the last of its devices is done with {@code window} (what they did is in the member's {@link MemberTally}). */
    record Advanced(String node, long window) implements ControlMessage {}

    /**
     * Ask for the device's counters for one job phase: its wire job {@code job}, and {@code more}
     * wire jobs of the same phase (H2: its trees over partitions), whose counters are added in and
     * also given one by one.
     */
    record CollectStats(int tenant, int job, List<Integer> more, ActorRef<DeviceStats> replyTo)
            implements ControlPlane {
        public CollectStats(int tenant, int job, ActorRef<DeviceStats> replyTo) {
            this(tenant, job, List.of(), replyTo);
        }

        /** Every wire job asked for, the phase's own first. */
        public List<Integer> jobs() {
            List<Integer> all = new ArrayList<>(1 + more.size());
            all.add(job);
            all.addAll(more);
            return all;
        }
    }

    /**
     * What one device did in one job phase, in named parts; the flat accessors read them.
     * Built from its parts, or with {@link #builder} (every part but the device's name empty).
     *
     * @param traffic          its counters and the traffic of its links
     * @param state            the aggregation state and trees it held
     * @param dropped          the frames it dropped, by reason
     * @param health           messages it could not handle (it went on) in this phase
     * @param drivers          the reports of the drivers it runs (none on a switch)
     * @param checksumFailures the packets of this phase that failed the S6 checksum audit at the device's ports
     */
    record DeviceStats(
            String node,
            boolean isSwitch,
            Traffic traffic,
            State state,
            Dropped dropped,
            Health health,
            List<DriverReport> drivers,
            List<ChecksumAudit.Failure> checksumFailures)
            implements ControlMessage {

        /**
         * @param counters     the phase's counters (every tree of it)
         * @param treeCounters per wire job of the phase, when it has several (H2), that job's counters (already in {@code counters})
         * @param links        the traffic of the device's links
         */
        public record Traffic(
                Map<Counter, Long> counters, Map<Integer, Map<Counter, Long>> treeCounters, List<LinkStats> links) {
            public static final Traffic NONE = new Traffic(Map.of(), Map.of(), List.of());
        }

        /**
         * @param peakEntries       the most aggregation entries it held at once
         * @param peakBufferedBytes the most bytes those entries buffered at once
         * @param entriesOverTime   the phase's live aggregation entries here (every tree of it) over modelled time: steps {ns, entries}
         * @param incTrees          the BIER-INC tree branches it holds for the phase
         * @param observedTrees     the C-BM and INC tree branches the phase's packets installed here (every tree of it), by upstream node
         */
        public record State(
                int peakEntries,
                long peakBufferedBytes,
                List<long[]> entriesOverTime,
                int incTrees,
                List<ObservedTrees.Branch> observedTrees) {
            public static final State NONE = new State(0, 0, List.of(), 0, List.of());
        }

        /**
         * @param byReason           this phase's frames the device dropped, by reason
         * @param unknownJob         frames of no job installed here, since the run began
         * @param unknownJobByReason those, by reason
         */
        public record Dropped(Map<String, Long> byReason, long unknownJob, Map<String, Long> unknownJobByReason) {
            public static final Dropped NONE = new Dropped(Map.of(), 0, Map.of());
        }

        /**
         * @param failures messages the device could not handle (it went on) in this phase
         * @param named    the first of them, with what went wrong
         */
        public record Health(long failures, List<String> named) {
            public static final Health NONE = new Health(0, List.of());
        }

        public static Builder builder(String node, boolean isSwitch) {
            return new Builder(node, isSwitch);
        }

        public Map<Counter, Long> counters() {
            return traffic.counters();
        }

        public Map<Integer, Map<Counter, Long>> treeCounters() {
            return traffic.treeCounters();
        }

        public List<LinkStats> links() {
            return traffic.links();
        }

        public int peakStateEntries() {
            return state.peakEntries();
        }

        public long peakBufferedBytes() {
            return state.peakBufferedBytes();
        }

        public List<long[]> entriesOverTime() {
            return state.entriesOverTime();
        }

        public int incTrees() {
            return state.incTrees();
        }

        public List<ObservedTrees.Branch> observedTrees() {
            return state.observedTrees();
        }

        public Map<String, Long> drops() {
            return dropped.byReason();
        }

        public long unknownJobDrops() {
            return dropped.unknownJob();
        }

        public Map<String, Long> unknownJobDropReasons() {
            return dropped.unknownJobByReason();
        }

        public long failures() {
            return health.failures();
        }

        public List<String> failuresNamed() {
            return health.named();
        }

        /** Collects a device's stats part by part. */
        public static final class Builder {
            private final String node;
            private final boolean isSwitch;
            private Traffic traffic = Traffic.NONE;
            private State state = State.NONE;
            private Dropped dropped = Dropped.NONE;
            private Health health = Health.NONE;
            private List<DriverReport> drivers = List.of();
            private List<ChecksumAudit.Failure> checksumFailures = List.of();

            private Builder(String node, boolean isSwitch) {
                this.node = node;
                this.isSwitch = isSwitch;
            }

            public Builder traffic(Traffic t) {
                this.traffic = t;
                return this;
            }

            public Builder state(State s) {
                this.state = s;
                return this;
            }

            public Builder dropped(Dropped d) {
                this.dropped = d;
                return this;
            }

            public Builder health(Health h) {
                this.health = h;
                return this;
            }

            public Builder drivers(List<DriverReport> d) {
                this.drivers = d;
                return this;
            }

            public Builder checksumFailures(List<ChecksumAudit.Failure> f) {
                this.checksumFailures = f;
                return this;
            }

            public DeviceStats build() {
                return new DeviceStats(node, isSwitch, traffic, state, dropped, health, drivers, checksumFailures);
            }
        }
    }

    /**
     * One direction of a link, as counted by its sender.
     *
     * @param queueBucketNanos the interval of {@code queue}
     * @param queue            the egress queue's depth over modelled time, {start ns, most bytes waiting} per
     *                         interval ({@code TimeCurve}); null where the buffer is unlimited
     * @param ecnMarks         packets ECN-marked as they joined the queue; null where the link does not mark
     */
    record LinkStats(
            String from,
            String to,
            long packets,
            long bytes,
            long headerBytes,
            long lost,
            long maxQueueBytes,
            long queueDrops,
            long queueBucketNanos,
            List<long[]> queue,
            Long ecnMarks) {
        /** A link without a queue curve (an unlimited buffer). */
        public LinkStats(
                String from,
                String to,
                long packets,
                long bytes,
                long headerBytes,
                long lost,
                long maxQueueBytes,
                long queueDrops) {
            this(from, to, packets, bytes, headerBytes, lost, maxQueueBytes, queueDrops, 0, null, null);
        }
    }

    /** What hosts tell the coordinator while a phase runs. */
    sealed interface HostEvent extends ControlMessage permits DriverDone, Progress {}

    /** A driver has everything it waits for. */
    record DriverDone(int tenant, int job, DriverReport report) implements HostEvent {}

    /** Results received since the last progress message. */
    record Progress(int tenant, int job, int results) implements HostEvent {}
}
