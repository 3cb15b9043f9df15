package org.bitina.device;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.ReceiveBuilder;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.NodeEngine;
import org.bitina.protocol.ObservedTrees;
import org.bitina.security.ChecksumAudit;
import org.bitina.time.LocalEvents;
import org.bitina.usecase.DriverReport;

/**
 * What a switch and a host have in common: one {@link NodeEngine}, the link ports, the
 * soft-state alarm, and the control-plane handlers (wiring, installs, reroutes, link
 * faults, counters, sync). Each device adds its own data-plane handlers.
 */
abstract class DeviceActor extends AbstractBehavior<DeviceCommand> {
    protected final String name;
    /** The device's time: the wall clock (real) or its own events' modelled time (virtual). */
    protected final LongSupplier clock;
    /** How this device keeps time, chosen once at setup: a {@link RealClock} or a {@link VirtualClock}. */
    protected final Clock time;

    protected final Ports ports;
    private final int maxEntriesPerJob;
    private final long tombstoneNanos;
    protected NodeEngine engine;

    /**
     * @param clock the wall clock (real clock; ignored under the virtual clock)
     * @param tally the member's window tally: the virtual clock (modelled time from the device's own events); null: the real clock
     */
    protected DeviceActor(
            ActorContext<DeviceCommand> ctx,
            TimerScheduler<DeviceCommand> timers,
            DeviceCommand tick,
            String name,
            int maxEntriesPerJob,
            long tombstoneNanos,
            LongSupplier clock,
            MemberTally tally) {
        super(ctx);
        this.name = name;
        this.maxEntriesPerJob = maxEntriesPerJob;
        this.tombstoneNanos = tombstoneNanos;
        this.ports = new Ports(name);
        // read when a packet is captured: the engine of the moment (a crash or restart replaces it)
        this.ports.tables(k -> engine == null ? null : engine.tables(k));
        if (tally != null) {
            VirtualClock v = new VirtualClock(tally);
            this.time = v;
            this.clock = v.events::now;
            this.ports.virtual(v.events::now, tally);
        } else {
            this.time = new RealClock(new Alarm<>(timers, tick));
            this.clock = clock;
        }
    }

    protected AggregationTable freshTable() {
        return new AggregationTable(maxEntriesPerJob, tombstoneNanos);
    }

    /** The handlers every device shares, added to a device's own. */
    protected ReceiveBuilder<DeviceCommand> withControlPlane(ReceiveBuilder<DeviceCommand> b) {
        return b.onMessage(DeviceCommand.FrameIn.class, m -> {
                    arrive(List.of(m));
                    return this;
                })
                .onMessage(DeviceCommand.FrameBatch.class, m -> {
                    arrive(m.frames());
                    return this;
                })
                .onMessage(DeviceCommand.Advance.class, m -> time.advance(m))
                .onMessage(DeviceCommand.Wire.class, this::onWire)
                .onMessage(DeviceCommand.InstallJob.class, this::onInstall)
                .onMessage(DeviceCommand.ReleasePool.class, this::onReleasePool)
                .onMessage(DeviceCommand.Reroute.class, this::onReroute)
                .onMessage(DeviceCommand.Retree.class, this::onRetree)
                .onMessage(DeviceCommand.LinkFault.class, this::onLinkFault)
                .onMessageEquals(DeviceCommand.ResetLinks.INSTANCE, this::onResetLinks)
                .onMessage(DeviceCommand.CollectStats.class, this::onCollectStats)
                .onMessage(DeviceCommand.Sync.class, this::onSync);
    }

    /** A device's receive: after every message, what it sent goes out, one message per neighbour. */
    protected Receive<DeviceCommand> flushing(Receive<DeviceCommand> inner) {
        return new Receive<>() {
            @Override
            public Behavior<DeviceCommand> receiveMessage(DeviceCommand msg) throws Exception {
                Behavior<DeviceCommand> next;
                try {
                    next = inner.receiveMessage(msg);
                } catch (RuntimeException e) {
                    // a device never stops on input: what it could not handle is named in the report, and it goes on
                    failed(msg, e);
                    next = DeviceActor.this;
                }
                ports.flush();
                warnOfDrops();
                return next;
            }

            @Override
            public Behavior<DeviceCommand> receiveSignal(Signal signal) throws Exception {
                return inner.receiveSignal(signal);
            }
        };
    }

    private long dropsWarned;
    private long lastDropWarning;
    private static final long DROP_WARNING_EVERY_NANOS = 1_000_000_000L;

    /**
     * Drops are counted by reason for the report, and the console sums them in one line; the log
     * hears of them at info (a scenario's own faults and attacks make them expected, so no warning
     * per device), at most once a second per device.
     */
    private void warnOfDrops() {
        if (engine != null && engine.drops() < dropsWarned) {
            dropsWarned = 0; // a new engine (rewired) counts from zero
        }
        if (engine == null || engine.drops() == dropsWarned) {
            return;
        }
        long now = System.nanoTime();
        if (dropsWarned == 0 || now - lastDropWarning > DROP_WARNING_EVERY_NANOS) {
            getContext()
                    .getLog()
                    .info(
                            "{} dropped {} frames since it last said so; the last: {}",
                            name,
                            engine.drops() - dropsWarned,
                            engine.lastDropReason());
            dropsWarned = engine.drops();
            lastDropWarning = now;
        }
    }

    /** Messages this device could not handle, named (the first few) and counted, reported with its stats. */
    private final List<String> failures = new ArrayList<>();

    private long failureCount;
    private static final int FAILURES_NAMED = 8;

    private void failed(DeviceCommand msg, RuntimeException e) {
        failed(msg.getClass().getSimpleName(), e);
    }

    private void failed(String handling, RuntimeException e) {
        failureCount++;
        if (failures.size() < FAILURES_NAMED) {
            String what = name + " could not handle " + handling + ": " + e;
            failures.add(what);
            getContext().getLog().warn(what, e);
        }
    }

    // ------------------------------------------------------------------ data plane and the two clocks

    /** A frame from a neighbour, handled now at the device's time (the real clock: as it comes; the virtual: in its window). */
    protected abstract void onFrame(DeviceCommand.FrameIn m);

    /** Another event of this device's own, due now (virtual clock: a straggler's delayed send). */
    protected void onLocalEvent(Object what) {}

    /** The earliest deadline of this device's timers (soft state, drivers), or Long.MAX_VALUE. */
    protected abstract long timerDeadline();

    /** Fires what is due at the device's time. */
    protected abstract void fireTimers();

    /** A frame at its arrival: lost with its link when that went down while it was on the wire, else handled. */
    private void arriveNow(DeviceCommand.FrameIn f) {
        if (ports.lostWithItsLink(f)) {
            ports.perform(getContext(), engine.lostWithLink(f.frame()));
        } else {
            onFrame(f);
        }
    }

    /** One sender's frames, in order: handled now (real clock) or queued for their modelled time (virtual clock). */
    private void arrive(List<DeviceCommand.FrameIn> frames) {
        time.arrive(frames);
    }

    /** A driver has all it waits for: the coordinator hears it now (real clock) or with the end of this window (virtual). */
    protected void driverDone(DeviceCommand.DriverDone d, ActorRef<DeviceCommand.HostEvent> reportTo) {
        time.driverDone(d, reportTo);
    }

    /** A new phase under the virtual clock, after the clock let go of what the last one left: fresh aggregation state. */
    protected void phaseReset() {
        if (engine != null) {
            engine = engine.restarted(freshTable());
        }
    }

    /**
     * What differs between the two clocks, in one place each: a device is given one at setup and
     * keeps it (the real clock: messages as they come and wall-clock timers; the virtual clock:
     * its own queue of events, run a window at a time).
     */
    protected abstract class Clock {
        /** One sender's frames, in order. */
        abstract void arrive(List<DeviceCommand.FrameIn> frames);

        /** A virtual-clock window to run. */
        abstract Behavior<DeviceCommand> advance(DeviceCommand.Advance m);

        /** A control message of modelled time {@code vt}: the device's time moves there first (virtual). */
        abstract void advanceTo(long vt);

        /** A driver is done: the coordinator hears it now (real) or with the window's end (virtual). */
        abstract void driverDone(DeviceCommand.DriverDone d, ActorRef<DeviceCommand.HostEvent> reportTo);

        /** The frames of the old tree still waiting here for their time, taken out (virtual; none under the real clock). */
        abstract List<Frame> takeStale(DeviceCommand.Retree m);

        /** The links were reset for a new phase. */
        abstract void newPhase();

        /** The device's earliest deadline, for a wall-clock timer (real; the virtual window loop asks instead). */
        abstract void rearm(long deadline, long now);

        /** The wall-clock timer fired. */
        abstract void fired();

        /**
         * A frame a driver sends, after {@code wallDelayNanos} (a straggler): true when it was put off,
         * as the message {@code later} makes of it, to be handled then; false: it goes now.
         */
        abstract boolean defer(long now, long wallDelayNanos, Frame frame, Function<Frame, DeviceCommand.Local> later);
    }

    /** The real clock: frames are handled as they come, timers are wall-clock timers. */
    private final class RealClock extends Clock {
        private final Alarm<DeviceCommand> alarm;

        RealClock(Alarm<DeviceCommand> alarm) {
            this.alarm = alarm;
        }

        @Override
        void arrive(List<DeviceCommand.FrameIn> frames) {
            frames.forEach(DeviceActor.this::arriveNow);
        }

        @Override
        Behavior<DeviceCommand> advance(DeviceCommand.Advance m) {
            getContext().getLog().warn("{} runs on the real clock: a virtual-clock window was ignored", name);
            return DeviceActor.this;
        }

        @Override
        void advanceTo(long vt) {}

        @Override
        void driverDone(DeviceCommand.DriverDone d, ActorRef<DeviceCommand.HostEvent> reportTo) {
            reportTo.tell(d);
        }

        @Override
        List<Frame> takeStale(DeviceCommand.Retree m) {
            return new ArrayList<>();
        }

        @Override
        void newPhase() {}

        @Override
        void rearm(long deadline, long now) {
            alarm.rearm(deadline, now);
        }

        @Override
        void fired() {
            alarm.fired();
        }

        @Override
        boolean defer(long now, long wallDelayNanos, Frame frame, Function<Frame, DeviceCommand.Local> later) {
            if (wallDelayNanos <= 0) {
                return false;
            }
            getContext()
                    .scheduleOnce(Duration.ofNanos(wallDelayNanos), getContext().getSelf(), later.apply(frame));
            return true;
        }
    }

    /** The virtual clock: this device's pending events and modelled time, run a window at a time. */
    private final class VirtualClock extends Clock {
        final LocalEvents<Object> events = new LocalEvents<>();
        /** Where this device adds what it did in a window. */
        private final MemberTally tally;
        /** Drivers that finished in the window being processed, told with the window's end. */
        private final List<DeviceCommand.DriverDone> doneInWindow = new ArrayList<>();

        private long window = -1;

        VirtualClock(MemberTally tally) {
            this.tally = tally;
        }

        @Override
        void arrive(List<DeviceCommand.FrameIn> frames) {
            // frames from another member came through this member's agent, which counted them for the barrier
            for (DeviceCommand.FrameIn f : frames) {
                events.add(f.frame().vt(), f.from(), f);
            }
        }

        private final LocalEvents.Handler<Object> handler = new LocalEvents.Handler<>() {
            @Override
            public void event(Object what, long vt) {
                // as under the real clock: what the device cannot handle is named and counted, and the window goes on
                try {
                    if (what instanceof DeviceCommand.FrameIn f) {
                        arriveNow(f);
                    } else {
                        onLocalEvent(what);
                    }
                } catch (RuntimeException e) {
                    failed(what.getClass().getSimpleName(), e);
                }
            }

            @Override
            public long nextTimer() {
                return timerDeadline();
            }

            @Override
            public void timer(long vt) {
                try {
                    fireTimers();
                } catch (RuntimeException e) {
                    failed("its timers", e);
                }
            }
        };

        /** The events of one window, then what the window's barrier needs to know. */
        @Override
        Behavior<DeviceCommand> advance(DeviceCommand.Advance m) {
            window = m.window();
            List<String> problems = new ArrayList<>(0);
            long behind = events.behind();
            long processed = events.processed();
            long began = System.nanoTime();
            long next = Long.MAX_VALUE;
            try {
                if (!events.runWindow(m.start(), m.end(), handler)) {
                    problems.add(name + ": timers kept firing at " + events.now()
                            + " ns of modelled time without moving on");
                }
                if (events.behind() > behind) {
                    problems.add(name + ": " + (events.behind() - behind)
                            + " frames arrived after their modelled time had passed here");
                }
                ports.flush();
                // what it sent is due at its receivers, which the member's tally heard of as it went
                next = events.next(handler);
            } catch (RuntimeException e) {
                problems.add(name + " failed in window " + window + ": " + e);
            } finally {
                // whatever happened, the member hears from this device: a barrier never waits for it in vain
                if (tally.deviceDone(
                        name,
                        next,
                        doneInWindow,
                        problems,
                        events.processed() - processed,
                        System.nanoTime() - began)) {
                    m.replyTo().tell(new DeviceCommand.Advanced(name, window));
                }
                doneInWindow.clear();
            }
            return DeviceActor.this;
        }

        @Override
        void advanceTo(long vt) {
            events.advanceTo(vt);
        }

        @Override
        void driverDone(DeviceCommand.DriverDone d, ActorRef<DeviceCommand.HostEvent> reportTo) {
            doneInWindow.add(d);
        }

        @Override
        List<Frame> takeStale(DeviceCommand.Retree m) {
            // the old tree's aggregation packets still on their way: they would meet the new tree's
            // aggregates of the same chunks (an epoch in the header would tell them apart); the
            // workers send those chunks again, flagged RETRANSMIT, and those are kept
            List<Frame> stale = new ArrayList<>();
            events.remove(e ->
                            e instanceof DeviceCommand.FrameIn f && DeviceCommand.Retree.stale(f.frame(), m.tables()))
                    .forEach(e -> stale.add(((DeviceCommand.FrameIn) e).frame()));
            return stale;
        }

        /** What the last phase left (queued frames, timers, drivers) goes. */
        @Override
        void newPhase() {
            events.clear();
            doneInWindow.clear();
            phaseReset();
        }

        @Override
        void rearm(long deadline, long now) {
            // the window loop asks for deadlines instead
        }

        @Override
        void fired() {}

        @Override
        boolean defer(long now, long wallDelayNanos, Frame frame, Function<Frame, DeviceCommand.Local> later) {
            // a frame leaves at its modelled time, a straggler's after its modelled delay
            long at = Math.max(now + wallDelayNanos, frame.vt());
            if (at <= now) {
                return false;
            }
            events.add(at, name, later.apply(frame));
            return true;
        }
    }

    /** Reports of the drivers this device runs for a job (none on a switch). */
    protected abstract List<DriverReport> driverReports(int tenant, int job);

    protected abstract boolean isSwitch();

    private Behavior<DeviceCommand> onWire(DeviceCommand.Wire w) {
        ports.wire(w, isSwitch());
        engine = new NodeEngine(name, w.routing(), freshTable(), ports.tracing());
        return this;
    }

    private Behavior<DeviceCommand> onInstall(DeviceCommand.InstallJob m) {
        engine.install(m.tables());
        return this;
    }

    private Behavior<DeviceCommand> onReleasePool(DeviceCommand.ReleasePool m) {
        m.jobs().forEach(j -> engine.release(m.tenant(), j));
        return this;
    }

    private Behavior<DeviceCommand> onReroute(DeviceCommand.Reroute m) {
        if (m.quiet()) {
            // the network healed between phases: new routes, and nothing sent (the phase is over, the next starts
            // clean)
            engine.setRouting(m.routing(), m.bifts(), clock.getAsLong());
            return this;
        }
        time.advanceTo(m.vt());
        long now = clock.getAsLong();
        afterActions(ports.perform(getContext(), engine.setRouting(m.routing(), m.bifts(), now)), now);
        routingChanged(now);
        return this;
    }

    /** At the repair's modelled time, after the reroute that came before it: the new tables, then the endpoints hear of it. */
    private Behavior<DeviceCommand> onRetree(DeviceCommand.Retree m) {
        time.advanceTo(m.vt());
        long now = clock.getAsLong();
        List<Frame> stale = time.takeStale(m);
        ports.perform(getContext(), engine.retree(m.tables(), stale));
        retreed(m, now);
        afterActions(List.of(), now);
        return this;
    }

    /** Tells the endpoints on this device that the job's tree was rebuilt (none on a switch). */
    protected void retreed(DeviceCommand.Retree m, long now) {}

    /** Tells the endpoints on this device that the routes changed (none on a switch). */
    protected void routingChanged(long now) {}

    /** Frames the engine delivered to this device itself, and re-arming its alarm, after it acted outside a data-plane handler. */
    protected abstract void afterActions(List<Frame> local, long now);

    private Behavior<DeviceCommand> onLinkFault(DeviceCommand.LinkFault f) {
        ports.fault(f);
        return this;
    }

    private Behavior<DeviceCommand> onResetLinks() {
        ports.resetLinks();
        if (engine != null) {
            engine.newPhase();
        }
        time.newPhase();
        failures.clear();
        failureCount = 0;
        return this;
    }

    private Behavior<DeviceCommand> onSync(DeviceCommand.Sync m) {
        m.replyTo().tell(name);
        return this;
    }

    private Behavior<DeviceCommand> onCollectStats(DeviceCommand.CollectStats m) {
        List<DriverReport> reports = new ArrayList<>();
        try {
            for (int job : m.jobs()) {
                reports.addAll(driverReports(m.tenant(), job));
            }
        } catch (RuntimeException e) {
            // the phase's collection waits for every device: it gets an answer, naming what went wrong
            failed("its drivers' reports", e);
            reports = List.of();
        }
        // a phase of several trees (H2) is counted over all of them, and tree by tree
        Map<Counter, Long> counters = new EnumMap<>(Counter.class);
        Map<Integer, Map<Counter, Long>> byTree = new TreeMap<>();
        Map<String, Long> drops = new TreeMap<>();
        List<ChecksumAudit.Failure> audit = new ArrayList<>();
        int incTrees = 0;
        List<ObservedTrees.Branch> observed = new ArrayList<>();
        for (int job : m.jobs()) {
            if (isSwitch()) {
                // an endpoint's own branch (a BFER host's) is its attachment, drawn from the bit space
                observed.addAll(engine.observedTrees(m.tenant(), job));
            }
            Map<Counter, Long> c = engine.counters(m.tenant(), job).asMap();
            c.forEach((k, v) -> counters.merge(k, v, Long::sum));
            long linkLost = ports.lostOf(m.tenant(), job);
            if (linkLost > 0) {
                counters.merge(Counter.LINK_LOST, linkLost, Long::sum);
            }
            long folds = engine.table().outsideFolds(new JobKey(m.tenant(), job));
            if (folds > 0) {
                // the table folds them outside the pool on its own (T2): counted where the others are
                counters.merge(Counter.ROOT_FOLDS, folds, Long::sum);
            }
            if (!m.more().isEmpty()) {
                byTree.put(job, c);
            }
            engine.dropsByReason(m.tenant(), job).forEach((k, v) -> drops.merge(k, v, Long::sum));
            audit.addAll(engine.auditFailures(m.tenant(), job));
            incTrees += engine.incTreeCount(m.tenant(), job);
        }
        m.replyTo()
                .tell(new DeviceCommand.DeviceStats(
                        name,
                        isSwitch(),
                        new DeviceCommand.DeviceStats.Traffic(counters, byTree, ports.stats()),
                        new DeviceCommand.DeviceStats.State(
                                engine.table().peakEntries(),
                                engine.table().peakBufferedBytes(),
                                engine.table()
                                        .entriesOverTime(m.jobs().stream()
                                                .map(j -> new JobKey(m.tenant(), j))
                                                .toList()),
                                incTrees,
                                observed),
                        new DeviceCommand.DeviceStats.Dropped(
                                drops, engine.unknownJobDrops(), engine.unknownJobDropsByReason()),
                        new DeviceCommand.DeviceStats.Health(failureCount, List.copyOf(failures)),
                        reports,
                        audit));
        return this;
    }
}
