package org.bitina.device;

import java.util.List;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.protocol.Frame;
import org.bitina.protocol.NodeEngine;
import org.bitina.usecase.DriverReport;

/**
 * An emulated switch (E1): a thin shell over one {@link NodeEngine}. Frames and timer
 * ticks become engine calls; the engine's actions go out through the link ports.
 */
public final class SwitchActor extends DeviceActor {
    /** Timer tick for the engine's soft-state deadlines. */
    enum Tick implements DeviceCommand.Local {
        INSTANCE
    }

    private boolean crashed;
    private long misaddressed;

    public static Behavior<DeviceCommand> create(String name, int maxEntriesPerJob, long tombstoneNanos) {
        return create(name, maxEntriesPerJob, tombstoneNanos, System::nanoTime);
    }

    /** Under the virtual clock, adding what it does in each window to its member's {@code tally}. */
    public static Behavior<DeviceCommand> create(
            String name, int maxEntriesPerJob, long tombstoneNanos, MemberTally tally) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
                new SwitchActor(ctx, timers, name, maxEntriesPerJob, tombstoneNanos, System::nanoTime, tally)));
    }

    /** Under the real clock, with the wall clock the engine reads (tests pass one that follows Pekko's ManualTime). */
    public static Behavior<DeviceCommand> create(
            String name, int maxEntriesPerJob, long tombstoneNanos, LongSupplier clock) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(
                timers -> new SwitchActor(ctx, timers, name, maxEntriesPerJob, tombstoneNanos, clock, null)));
    }

    private SwitchActor(
            ActorContext<DeviceCommand> ctx,
            TimerScheduler<DeviceCommand> timers,
            String name,
            int maxEntriesPerJob,
            long tombstoneNanos,
            LongSupplier clock,
            MemberTally tally) {
        super(ctx, timers, Tick.INSTANCE, name, maxEntriesPerJob, tombstoneNanos, clock, tally);
    }

    @Override
    public Receive<DeviceCommand> createReceive() {
        return flushing(withControlPlane(newReceiveBuilder()
                        .onMessageEquals(Tick.INSTANCE, this::onTick)
                        .onMessageEquals(DeviceCommand.Crash.INSTANCE, this::onCrash)
                        .onMessageEquals(DeviceCommand.Recover.INSTANCE, this::onRecover)
                        .onMessage(DeviceCommand.Rejoin.class, this::onRejoin)
                        .onMessage(DeviceCommand.Tamper.class, this::onTamper)
                        .onMessage(DeviceCommand.SwitchSpeed.class, this::onSwitchSpeed))
                .build());
    }

    @Override
    protected void onFrame(DeviceCommand.FrameIn m) {
        if (crashed) {
            return;
        }
        long now = clock.getAsLong();
        ports.arrived(m.frame());
        List<Frame> local = ports.perform(getContext(), engine.onFrame(m.frame(), m.from(), now));
        ports.handled();
        if (!local.isEmpty() && misaddressed++ == 0) {
            // a switch hosts no endpoints: one warning per switch is enough to point at the problem
            getContext()
                    .getLog()
                    .warn("{} got a frame addressed to itself (switches host no endpoints): {}", name, local.get(0));
        }
        time.rearm(engine.nextDeadline(), now);
    }

    @Override
    protected void afterActions(List<Frame> local, long now) {
        time.rearm(engine.nextDeadline(), now);
    }

    private Behavior<DeviceCommand> onTick() {
        time.fired();
        fireTimers();
        return this;
    }

    @Override
    protected long timerDeadline() {
        return crashed ? Long.MAX_VALUE : engine.nextDeadline();
    }

    @Override
    protected void fireTimers() {
        if (crashed) {
            return;
        }
        long now = clock.getAsLong();
        ports.perform(getContext(), engine.onTimer(now));
        time.rearm(engine.nextDeadline(), now);
    }

    private Behavior<DeviceCommand> onCrash() {
        crashed = true;
        engine = engine.crashed(freshTable());
        // the fault plan asked for it: the report's faults say so, the log at info
        getContext().getLog().info("switch {} crashed: it drops everything from now on", name);
        return this;
    }

    private Behavior<DeviceCommand> onSwitchSpeed(DeviceCommand.SwitchSpeed m) {
        ports.speed(m.spec());
        return this;
    }

    private Behavior<DeviceCommand> onTamper(DeviceCommand.Tamper m) {
        engine.tamper(m.tamper());
        return this;
    }

    private Behavior<DeviceCommand> onRecover() {
        crashed = false;
        return this;
    }

    private Behavior<DeviceCommand> onRejoin(DeviceCommand.Rejoin m) {
        time.advanceTo(m.vt());
        crashed = false;
        engine = engine.emptied(freshTable());
        getContext().getLog().info("switch {} came back empty: it waits for its tables", name);
        return this;
    }

    @Override
    protected List<DriverReport> driverReports(int tenant, int job) {
        return List.of();
    }

    @Override
    protected boolean isSwitch() {
        return true;
    }
}
