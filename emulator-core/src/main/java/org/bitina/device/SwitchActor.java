package org.bitina.device;

import java.util.List;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Frame;
import org.bitina.protocol.NodeEngine;

/**
 * An emulated switch (E1): a thin shell over one {@link NodeEngine}. Frames and timer
 * ticks become engine calls; the engine's actions go out through the link ports.
 */
public final class SwitchActor extends AbstractBehavior<DeviceCommand> {
    /** Timer tick for the engine's soft-state deadlines. */
    private enum Tick implements DeviceCommand {
        INSTANCE
    }

    private final String name;
    private final LongSupplier clock;
    private final int maxEntriesPerJob;
    private final long tombstoneNanos;
    private final Ports ports;
    private final Alarm<DeviceCommand> alarm;
    private NodeEngine engine;
    private boolean crashed;
    private long misaddressed;

    public static Behavior<DeviceCommand> create(String name, int maxEntriesPerJob, long tombstoneNanos) {
        return create(name, maxEntriesPerJob, tombstoneNanos, System::nanoTime);
    }

    /** With the wall clock the engine reads (tests pass one that follows Pekko's ManualTime). */
    public static Behavior<DeviceCommand> create(String name, int maxEntriesPerJob, long tombstoneNanos, LongSupplier clock) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new SwitchActor(ctx, timers, name, maxEntriesPerJob, tombstoneNanos, clock)));
    }

    private SwitchActor(ActorContext<DeviceCommand> ctx, TimerScheduler<DeviceCommand> timers, String name, int maxEntriesPerJob,
                        long tombstoneNanos, LongSupplier clock) {
        super(ctx);
        this.clock = clock;
        this.name = name;
        this.maxEntriesPerJob = maxEntriesPerJob;
        this.tombstoneNanos = tombstoneNanos;
        this.ports = new Ports(name);
        this.alarm = new Alarm<>(timers, Tick.INSTANCE);
    }

    @Override
    public Receive<DeviceCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(DeviceCommand.FrameIn.class, this::onFrame)
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .onMessage(DeviceCommand.Wire.class, this::onWire)
                .onMessage(DeviceCommand.InstallJob.class, this::onInstall)
                .onMessage(DeviceCommand.Reroute.class, this::onReroute)
                .onMessage(DeviceCommand.LinkFault.class, this::onLinkFault)
                .onMessageEquals(DeviceCommand.ResetLinks.INSTANCE, this::onResetLinks)
                .onMessageEquals(DeviceCommand.Crash.INSTANCE, this::onCrash)
                .onMessageEquals(DeviceCommand.Recover.INSTANCE, this::onRecover)
                .onMessage(DeviceCommand.CollectStats.class, this::onCollectStats)
                .onMessage(DeviceCommand.Sync.class, this::onSync)
                .build();
    }

    private Behavior<DeviceCommand> onWire(DeviceCommand.Wire w) {
        ports.wire(w);
        engine = new NodeEngine(name, w.routing(), new AggregationTable(maxEntriesPerJob, tombstoneNanos), ports.tracing());
        return this;
    }

    private Behavior<DeviceCommand> onInstall(DeviceCommand.InstallJob m) {
        engine.install(m.tables());
        return this;
    }

    private Behavior<DeviceCommand> onReroute(DeviceCommand.Reroute m) {
        engine.setRouting(m.routing(), m.bifts());
        return this;
    }

    private Behavior<DeviceCommand> onFrame(DeviceCommand.FrameIn m) {
        if (crashed) {
            return this;
        }
        long now = clock.getAsLong();
        List<Frame> local = ports.perform(getContext(), engine.onFrame(m.frame(), now));
        if (!local.isEmpty() && misaddressed++ == 0) {
            // a switch hosts no endpoints: one warning per switch is enough to point at the problem
            getContext().getLog().warn("{} got a frame addressed to itself (switches host no endpoints): {}", name, local.get(0));
        }
        alarm.rearm(engine.nextDeadline(), now);
        return this;
    }

    private Behavior<DeviceCommand> onTick() {
        alarm.fired();
        if (crashed) {
            return this;
        }
        long now = clock.getAsLong();
        ports.perform(getContext(), engine.onTimer(now));
        alarm.rearm(engine.nextDeadline(), now);
        return this;
    }

    private Behavior<DeviceCommand> onLinkFault(DeviceCommand.LinkFault f) {
        ports.fault(f);
        return this;
    }

    private Behavior<DeviceCommand> onResetLinks() {
        ports.resetLinks();
        return this;
    }

    private Behavior<DeviceCommand> onCrash() {
        crashed = true;
        engine = engine.restarted(new AggregationTable(maxEntriesPerJob, tombstoneNanos));
        getContext().getLog().warn("switch {} crashed: it drops everything from now on", name);
        return this;
    }

    private Behavior<DeviceCommand> onSync(DeviceCommand.Sync m) {
        m.replyTo().tell(name);
        return this;
    }

    private Behavior<DeviceCommand> onRecover() {
        crashed = false;
        return this;
    }

    private Behavior<DeviceCommand> onCollectStats(DeviceCommand.CollectStats m) {
        m.replyTo().tell(new DeviceCommand.DeviceStats(name, true, engine.counters(m.tenant(), m.job()).asMap(), ports.stats(),
                engine.table().peakEntries(), engine.table().peakBufferedBytes(), List.of(), engine.unknownJobDrops()));
        return this;
    }
}
