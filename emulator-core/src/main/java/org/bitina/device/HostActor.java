package org.bitina.device;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.NodeEngine;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.References;

/**
 * An emulated server (E1): its NIC is a {@link NodeEngine} (it originates, receives and,
 * as a parameter server, aggregates), and it runs the endpoint drivers placed on it.
 */
public final class HostActor extends DeviceActor {
    /** Local timer tick: never leaves this actor. */
    enum Tick implements DeviceCommand.Local {
        INSTANCE
    }

    /** A frame a straggling driver sends after its wall-clock delay. */
    record Delayed(Frame frame) implements DeviceCommand.Local {}

    /**
     * A driver and its last asked deadline. A driver's deadline is a function of its own state, which only
     * this host's calls into it change: asked again after each such call, not of every driver on every event
     * (a host with several jobs' drivers would otherwise pay every driver's deadline, an MoE source's scan of
     * its open packets among them, on each of the other jobs' frames).
     */
    private static final class Running {
        final DriverSpec spec;
        final EndpointDriver driver;
        final ActorRef<DeviceCommand.HostEvent> reportTo;
        /** Unique on this host: orders drivers with the same deadline in {@link #byDue}. */
        final long id;

        long due = Long.MAX_VALUE;

        Running(DriverSpec spec, EndpointDriver driver, ActorRef<DeviceCommand.HostEvent> reportTo, long id) {
            this.spec = spec;
            this.driver = driver;
            this.reportTo = reportTo;
            this.id = id;
        }

        DriverSpec spec() {
            return spec;
        }

        EndpointDriver driver() {
            return driver;
        }

        ActorRef<DeviceCommand.HostEvent> reportTo() {
            return reportTo;
        }
    }

    private static final int PROGRESS_BATCH = 64;
    private static final long PROGRESS_EVERY_NANOS = 200_000_000L;
    private long lastProgress;

    private final Map<JobKey, List<Running>> drivers = new LinkedHashMap<>();
    private final Map<JobKey, Integer> unreportedProgress = new LinkedHashMap<>();
    /** The drivers that want a timer, earliest deadline first. */
    private final TreeSet<Running> byDue =
            new TreeSet<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.id, b.id));

    private long nextId;

    /** @param references what the drivers of this run share with the other hosts on this JVM */
    public static Behavior<DeviceCommand> create(
            String name, int maxEntriesPerJob, long tombstoneNanos, References references) {
        return create(name, maxEntriesPerJob, tombstoneNanos, System::nanoTime, references);
    }

    /** Under the virtual clock, adding what it does in each window to its member's {@code tally}. */
    public static Behavior<DeviceCommand> create(
            String name, int maxEntriesPerJob, long tombstoneNanos, MemberTally tally, References references) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new HostActor(
                ctx, timers, name, maxEntriesPerJob, tombstoneNanos, System::nanoTime, tally, references)));
    }

    /** Under the real clock, with the wall clock the engine reads (tests pass one that follows Pekko's ManualTime). */
    public static Behavior<DeviceCommand> create(
            String name, int maxEntriesPerJob, long tombstoneNanos, LongSupplier clock, References references) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(
                timers -> new HostActor(ctx, timers, name, maxEntriesPerJob, tombstoneNanos, clock, null, references)));
    }

    private final References references;

    private HostActor(
            ActorContext<DeviceCommand> ctx,
            TimerScheduler<DeviceCommand> timers,
            String name,
            int maxEntriesPerJob,
            long tombstoneNanos,
            LongSupplier clock,
            MemberTally tally,
            References references) {
        super(ctx, timers, Tick.INSTANCE, name, maxEntriesPerJob, tombstoneNanos, clock, tally);
        this.references = references;
    }

    @Override
    public Receive<DeviceCommand> createReceive() {
        return flushing(withControlPlane(newReceiveBuilder()
                        .onMessage(Delayed.class, this::onDelayed)
                        .onMessageEquals(Tick.INSTANCE, this::onTick)
                        .onMessage(DeviceCommand.StartDriver.class, this::onStartDriver)
                        .onMessage(DeviceCommand.BeginJob.class, this::onBeginJob))
                .build());
    }

    private Behavior<DeviceCommand> onStartDriver(DeviceCommand.StartDriver m) {
        EndpointDriver d = m.spec().create(references, m.endpointSecret());
        Running r = new Running(m.spec(), d, m.reportTo(), nextId++);
        drivers.computeIfAbsent(new JobKey(m.spec().tenant(), m.spec().job()), k -> new ArrayList<>())
                .add(r);
        asked(r);
        return this;
    }

    /** Takes the driver's deadline again after a call into it. */
    private void asked(Running r) {
        long due = r.driver.nextDeadline();
        if (due == r.due) {
            return;
        }
        if (r.due != Long.MAX_VALUE) {
            byDue.remove(r);
        }
        r.due = due;
        if (due != Long.MAX_VALUE) {
            byDue.add(r);
        }
    }

    private Behavior<DeviceCommand> onBeginJob(DeviceCommand.BeginJob m) {
        // a job that starts later than the phase (T1) starts at its modelled time
        time.advanceTo(m.vt());
        long now = clock.getAsLong();
        for (Running r : drivers.getOrDefault(new JobKey(m.tenant(), m.job()), List.of())) {
            send(r, r.driver().start(now), now);
            checkDone(r);
        }
        rearm(now);
        return this;
    }

    @Override
    protected void onFrame(DeviceCommand.FrameIn m) {
        long now = clock.getAsLong();
        deliver(ports.perform(getContext(), engine.onFrame(m.frame(), m.from(), now)), now);
        rearm(now);
    }

    private Behavior<DeviceCommand> onDelayed(Delayed m) {
        onLocalEvent(m);
        return this;
    }

    @Override
    protected void onLocalEvent(Object what) {
        if (what instanceof Delayed m) {
            long now = clock.getAsLong();
            deliver(ports.perform(getContext(), engine.originate(ports.leavingNow(m.frame()), now)), now);
            rearm(now);
        }
    }

    private Behavior<DeviceCommand> onTick() {
        time.fired();
        fireTimers();
        return this;
    }

    @Override
    protected long timerDeadline() {
        long deadline = engine.nextDeadline();
        return byDue.isEmpty() ? deadline : Math.min(deadline, byDue.first().due);
    }

    @Override
    protected void phaseReset() {
        super.phaseReset();
        // the drivers of the phase before are reported already; their timers must not run into this one
        drivers.clear();
        byDue.clear();
        unreportedProgress.clear();
    }

    @Override
    protected void fireTimers() {
        long now = clock.getAsLong();
        deliver(ports.perform(getContext(), engine.onTimer(now)), now);
        // in the drivers' order, each one's deadline as it is when its turn comes (an earlier one's sends,
        // delivered on this host, may have moved it): the walk is skipped only when none is due at all
        for (List<Running> rs :
                byDue.isEmpty() || byDue.first().due > now ? List.<List<Running>>of() : drivers.values()) {
            for (Running r : rs) {
                if (r.due <= now) {
                    boolean wasDone = r.driver().done();
                    send(r, r.driver().onTimer(now), now);
                    if (!wasDone) {
                        // a driver may end in its timer (it gave up on a result): the phase must hear it now
                        checkDone(r);
                    }
                }
            }
        }
        rearm(now);
    }

    private void deliver(List<Frame> frames, long now) {
        for (Frame f : frames) {
            List<Running> rs = drivers.get(JobKey.of(f.packet().header()));
            if (rs == null) {
                continue;
            }
            for (Running r : rs) {
                if (r.driver().accepts(f.packet())) {
                    boolean wasDone = r.driver().done();
                    send(r, r.driver().onDeliver(f, now), now);
                    progress(r);
                    if (!wasDone) {
                        checkDone(r);
                    }
                }
            }
        }
    }

    private void progress(Running r) {
        JobKey k = new JobKey(r.spec().tenant(), r.spec().job());
        int n = unreportedProgress.merge(k, 1, Integer::sum);
        long now = clock.getAsLong();
        // in batches, and at least every 200 ms while anything trickles in (a lossy, slow phase is not a stalled one)
        if (n >= PROGRESS_BATCH || now - lastProgress > PROGRESS_EVERY_NANOS) {
            lastProgress = now;
            unreportedProgress.put(k, 0);
            r.reportTo()
                    .tell(new DeviceCommand.Progress(r.spec().tenant(), r.spec().job(), n));
        }
    }

    private void checkDone(Running r) {
        if (r.driver().done()) {
            driverDone(
                    new DeviceCommand.DriverDone(
                            r.spec().tenant(), r.spec().job(), r.driver().report()),
                    r.reportTo());
        }
    }

    /** What driver {@code r} returned from a call into it goes out, its deadline taken again first ({@link #asked}). */
    private void send(Running r, List<EndpointDriver.Out> outs, long now) {
        asked(r);
        send(outs, now);
    }

    private void send(List<EndpointDriver.Out> outs, long now) {
        for (EndpointDriver.Out o : outs) {
            if (!time.defer(now, o.wallDelayNanos(), o.frame(), Delayed::new)) {
                deliver(ports.perform(getContext(), engine.originate(ports.leavingNow(o.frame()), now)), now);
            }
        }
    }

    @Override
    protected void afterActions(List<Frame> local, long now) {
        deliver(local, now);
        rearm(now);
    }

    @Override
    protected void routingChanged(long now) {
        for (List<Running> rs : drivers.values()) {
            for (Running r : rs) {
                send(r, r.driver().onRoutingChange(now), now);
            }
        }
        rearm(now);
    }

    @Override
    protected void retreed(DeviceCommand.Retree m, long now) {
        for (Running r : drivers.getOrDefault(m.tables().key(), List.of())) {
            send(r, r.driver().onRetree(m.uplinks(), m.cutOff(), now), now);
        }
    }

    private void rearm(long now) {
        time.rearm(timerDeadline(), now);
    }

    @Override
    protected List<DriverReport> driverReports(int tenant, int job) {
        List<DriverReport> reports = new ArrayList<>();
        for (Running r : drivers.getOrDefault(new JobKey(tenant, job), List.of())) {
            reports.add(r.driver().report());
        }
        return reports;
    }

    @Override
    protected boolean isSwitch() {
        return false;
    }
}
