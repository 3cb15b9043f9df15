package org.bitina.device;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.bitina.capture.BierFrame;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.LinkModel;
import org.bitina.protocol.NodeEngine;
import org.bitina.protocol.PacketCapture;
import org.bitina.protocol.SwitchTiming;
import org.bitina.protocol.TimeCurve;
import org.bitina.protocol.TraceEvent;
import org.bitina.topology.LinkSpec;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.PacketCodec;

/**
 * The link ports of one device (docs/architecture.md "Two clocks"): a {@link LinkModel} per
 * outgoing link inside the sending actor, not an actor of its own. Also carries out a
 * {@link NodeEngine}'s actions, so switch and host send alike.
 */
final class Ports {
    private final String node;
    private final Map<String, ActorRef<DeviceCommand>> neighbors = new LinkedHashMap<>();
    private final Map<String, LinkModel> links = new LinkedHashMap<>();
    /** Frames the links lost, per job (the links' own counts are every job's). */
    private final Map<JobKey, Long> lostByJob = new HashMap<>();

    private Recorder trace;
    /** What the device's clock asks of its links: the real clock's until {@link #virtual} chooses the virtual one. */
    private Timing timing = REAL_TIME;

    private int member;
    private Map<String, Integer> neighborMembers = Map.of();
    /** Frames to send when the message being handled is done, per neighbour in order (see {@link #flush}). */
    private final Map<String, List<DeviceCommand.FrameIn>> outbox = new LinkedHashMap<>();

    private Function<JobKey, JobTables> tables = k -> null;
    /** The run's phase, counted as every device counts it: each begins with its links reset. */
    private int phase;
    /** A switch's optional processing delay and adder (null: a free switch, as by default). */
    private SwitchTiming speed;
    /** While a frame is handled: when the adder is done with it; what the switch sends in reply leaves no earlier. */
    private long readyAt = Long.MIN_VALUE;

    Ports(String node) {
        this.node = node;
    }

    void wire(DeviceCommand.Wire w) {
        wire(w, true);
    }

    /**
     * Wires the ports; {@code finiteBuffers} false (a host's NIC) leaves every egress queue
     * unlimited: a host's stack waits for its NIC rather than losing its own packets, so the
     * drop-tail buffers are the switches' (T3).
     */
    void wire(DeviceCommand.Wire w, boolean finiteBuffers) {
        neighbors.clear();
        links.clear();
        neighbors.putAll(w.neighbors());
        long i = 0;
        for (Map.Entry<String, ActorRef<DeviceCommand>> e : w.neighbors().entrySet()) {
            // one seeded generator per link direction: runs repeat loss patterns exactly
            LinkSpec spec = w.links().get(e.getKey());
            links.put(
                    e.getKey(),
                    new LinkModel(
                            finiteBuffers ? spec : spec.unbuffered(),
                            w.seed() * 1_000_003L + node.hashCode() * 31L + i++));
        }
        trace = w.trace();
        member = w.member();
        neighborMembers = w.neighborMembers();
        if (timing.modelsDelays()) {
            links.values().forEach(l -> l.modelDelays(true));
        }
    }

    /** What differs between the two clocks on a device's links. */
    private interface Timing {
        /** When a frame of modelled time {@code vt} leaves. */
        long departs(long vt);

        /** Whether the links model their delays in modelled time. */
        boolean modelsDelays();

        /**
         * Frames for {@code neighbor} on member {@code m}, the earliest due at {@code vt}: whether
         * the clock took them to send itself (the virtual clock's member agent sends another member's
         * with the window's end); else they are told now.
         */
        boolean held(int m, String neighbor, List<DeviceCommand.FrameIn> frames, long vt);
    }

    /** The real clock: a frame leaves at its time, nothing is counted for a barrier. */
    private static final Timing REAL_TIME = new Timing() {
        @Override
        public long departs(long vt) {
            return vt;
        }

        @Override
        public boolean modelsDelays() {
            return false;
        }

        @Override
        public boolean held(int m, String neighbor, List<DeviceCommand.FrameIn> frames, long vt) {
            return false;
        }
    };

    /** Under the virtual clock: frames depart no earlier than the device's modelled time, and delays are modelled. */
    void virtual(LongSupplier now, MemberTally tally) {
        this.timing = new Timing() {
            @Override
            public long departs(long vt) {
                return Math.max(vt, now.getAsLong());
            }

            @Override
            public boolean modelsDelays() {
                return true;
            }

            @Override
            public boolean held(int m, String neighbor, List<DeviceCommand.FrameIn> frames, long vt) {
                if (m != member) {
                    tally.mail(m, neighbor, frames, vt);
                    return true;
                }
                // the agent runs a window only on devices with something due in it: this one has
                tally.arriving(neighbor, vt);
                return false;
            }
        };
        links.values().forEach(l -> l.modelDelays(true));
    }

    boolean tracing() {
        return trace != null && trace.events();
    }

    private boolean capturing() {
        return trace != null && trace.packets();
    }

    /** Records frame {@code f} going onto the link to {@code neighbor} (or refused by it, with the reason). */
    private void capture(String neighbor, Frame f, long startVt, String dropped) {
        TraceEvent e = TraceEvent.of(
                node,
                tables.apply(JobKey.of(f.packet().header())),
                f.packet(),
                dropped == null ? TraceEvent.Kind.SEND : TraceEvent.Kind.DROP,
                f.packet().endpoints(),
                List.of(neighbor),
                startVt,
                dropped);
        byte[] frame = BierFrame.of(node, neighbor, f.packet(), PacketCodec.encode(f.packet()));
        trace.to().tell(new PacketCapture(phase, e, frame));
    }

    /** The job's tables here, so that a capture names its job as the trace does (null where it is not installed). */
    void tables(Function<JobKey, JobTables> lookup) {
        this.tables = lookup;
    }

    LinkModel link(String neighbor) {
        return links.get(neighbor);
    }

    /** The frames of job {@code (tenant, job)} this device's links lost since the phase began. */
    long lostOf(int tenant, int job) {
        return lostByJob.getOrDefault(new JobKey(tenant, job), 0L);
    }

    void resetLinks() {
        phase++;
        lostByJob.clear();
        links.values().forEach(LinkModel::reset);
        if (speed != null) {
            speed.reset();
        }
    }

    /** A switch's processing delay and adder rate; a free spec leaves every time as it is. */
    void speed(SwitchTiming.Spec spec) {
        speed = spec.free() ? null : new SwitchTiming(spec);
    }

    /** Frame {@code f} arrived and is being handled: its aggregation takes the adder (see {@link #handled}). */
    void arrived(Frame f) {
        if (speed != null) {
            readyAt = speed.added(f.vt(), f.packet());
        }
    }

    /** The frame taken by {@link #arrived} is handled: what is sent from now on does not wait for its sum. */
    void handled() {
        readyAt = Long.MIN_VALUE;
    }

    /** When a frame of modelled time {@code vt} leaves: the clock's rule, then the switch's adder and processing. */
    private long departure(long vt) {
        long departs = timing.departs(vt);
        return speed == null ? departs : speed.egress(Math.max(departs, readyAt));
    }

    /**
     * A frame a driver sends now, stamped no earlier than now (virtual clock): a resend keeps its
     * first send's time, and what the engine traces of it (a drop for want of a route after a
     * failure) would be placed before it happened.
     */
    Frame leavingNow(Frame f) {
        long departs = timing.departs(f.vt());
        return departs == f.vt() ? f : f.withVt(departs);
    }

    /**
     * Whether frame {@code m} was on the wire when its link went down: the routing no longer puts
     * the sender's endpoints behind that port, so the ingress policy would call an honest frame
     * spoofed bits; it is dropped as {@code link down} instead.
     */
    boolean lostWithItsLink(DeviceCommand.FrameIn m) {
        LinkModel link = m.from() == null ? null : links.get(m.from());
        return link != null && link.lostInFlight(m.frame().vt());
    }

    /** Sends a frame over the link to {@code neighbor}, modelling time, loss and duplication. */
    void send(ActorContext<?> ctx, String neighbor, Frame f) {
        LinkModel link = links.get(neighbor);
        ActorRef<DeviceCommand> to = neighbors.get(neighbor);
        if (link == null || to == null) {
            trace(TraceEvent.of(
                    node,
                    null,
                    f.packet(),
                    TraceEvent.Kind.DROP,
                    f.packet().endpoints(),
                    List.of(neighbor),
                    f.vt(),
                    "no link to " + neighbor));
            return;
        }
        long departs = departure(f.vt());
        InaHeader h = f.packet().header();
        LinkModel.Transmission t = link.transmit(
                PacketCodec.encodedSize(f.packet()),
                PacketCodec.headerBytes(f.packet()),
                departs,
                Flags.ecnCapable(h.type()));
        if (t.marked() && !h.has(Flags.CE)) {
            f = f.withPacket(f.packet().flagged(Flags.CE));
        }
        if (capturing()) {
            // a duplicated packet is on the link once: its copy is the far end's
            capture(neighbor, f, t.startVt(), t.copies() == 0 ? t.dropReason() : null);
        }
        if (t.copies() == 0) {
            lostByJob.merge(JobKey.of(f.packet().header()), 1L, Long::sum);
            // the link knows no job's tables: the wire's tenant and job name it (the same key as NodeContext's drops)
            trace(TraceEvent.of(
                    node,
                    null,
                    f.packet(),
                    TraceEvent.Kind.DROP,
                    f.packet().endpoints(),
                    List.of(neighbor),
                    departs,
                    t.dropReason()));
            return;
        }
        DeviceCommand.FrameIn msg = new DeviceCommand.FrameIn(f.withVt(t.arrivalVt()), node);
        for (int c = 0; c < t.copies(); c++) {
            if (t.wallDelayNanos() > 0) {
                ctx.scheduleOnce(Duration.ofNanos(t.wallDelayNanos()), to, msg);
            } else {
                outbox.computeIfAbsent(neighbor, k -> new ArrayList<>(4)).add(msg);
            }
        }
    }

    private static final int MAX_BATCH_BYTES = 128 * 1024;

    private static void send(ActorRef<DeviceCommand> to, List<DeviceCommand.FrameIn> frames) {
        to.tell(frames.size() == 1 ? frames.get(0) : new DeviceCommand.FrameBatch(List.copyOf(frames)));
    }

    /** Sends what the message just handled put in the outbox: one message per neighbour (or the clock holds them). */
    void flush() {
        if (outbox.isEmpty()) {
            return;
        }
        outbox.forEach((n, frames) -> {
            long earliest = Long.MAX_VALUE;
            for (DeviceCommand.FrameIn f : frames) {
                earliest = Math.min(earliest, f.frame().vt());
            }
            if (timing.held(neighborMembers.getOrDefault(n, member), n, frames, earliest)) {
                return;
            }
            ActorRef<DeviceCommand> to = neighbors.get(n);
            if (frames.size() == 1) {
                to.tell(frames.get(0));
                return;
            }
            // well inside Artery's largest frame (256 KiB by default)
            int from = 0;
            int bytes = 0;
            for (int i = 0; i < frames.size(); i++) {
                bytes += FrameSerializer.size(frames.get(i));
                if (bytes > MAX_BATCH_BYTES && i > from) {
                    send(to, frames.subList(from, i));
                    from = i;
                    bytes = FrameSerializer.size(frames.get(i));
                }
            }
            send(to, frames.subList(from, frames.size()));
        });
        outbox.clear();
    }

    /** Carries out an engine's actions; returns the frames to deliver locally. */
    List<Frame> perform(ActorContext<?> ctx, List<NodeEngine.Action> actions) {
        List<Frame> local = null;
        for (NodeEngine.Action a : actions) {
            if (a instanceof NodeEngine.Send s) {
                send(ctx, s.neighbor(), s.frame());
            } else if (a instanceof NodeEngine.Deliver d) {
                if (local == null) {
                    local = new ArrayList<>(1);
                }
                local.add(d.frame());
            } else if (a instanceof NodeEngine.Traced t) {
                trace(t.event());
            }
        }
        return local == null ? List.of() : local;
    }

    void trace(TraceEvent e) {
        if (tracing()) {
            trace.to().tell(e);
        }
    }

    List<DeviceCommand.LinkStats> stats() {
        List<DeviceCommand.LinkStats> out = new ArrayList<>();
        links.forEach((n, l) -> {
            TimeCurve c = l.queueCurve();
            out.add(new DeviceCommand.LinkStats(
                    node,
                    n,
                    l.packets(),
                    l.bytes(),
                    l.headerBytes(),
                    l.lost(),
                    l.maxQueueBytes(),
                    l.queueDrops(),
                    c == null ? 0 : c.bucketNanos(),
                    c == null ? null : c.points(),
                    l.spec().ecnMarking() ? l.ecnMarks() : null));
        });
        return out;
    }

    void fault(DeviceCommand.LinkFault f) {
        LinkModel l = links.get(f.neighbor());
        if (l == null) {
            return;
        }
        if (f.up() != null) {
            l.setUp(f.up(), f.vt());
        }
        if (f.loss() != null) {
            l.setLoss(f.loss());
        }
        if (f.duplicate() != null) {
            l.setDuplicate(f.duplicate());
        }
        if (f.reorder() != null) {
            l.setReorder(f.reorder());
        }
        if (f.wallDelayNanos() != null) {
            l.setWallDelayNanos(f.wallDelayNanos());
        }
    }
}
