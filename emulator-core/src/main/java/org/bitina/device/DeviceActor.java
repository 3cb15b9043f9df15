package org.bitina.device;

import java.util.List;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.ReceiveBuilder;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.bitina.usecase.DriverReport;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.NodeEngine;

/**
 * What a switch and a host have in common: one {@link NodeEngine}, the link ports, the
 * soft-state alarm, and the control-plane handlers (wiring, installs, reroutes, link
 * faults, counters, sync). Each device adds its own data-plane handlers.
 */
abstract class DeviceActor extends AbstractBehavior<DeviceCommand> {
    protected final String name;
    protected final LongSupplier clock;
    protected final Ports ports;
    protected final Alarm<DeviceCommand> alarm;
    private final int maxEntriesPerJob;
    private final long tombstoneNanos;
    protected NodeEngine engine;

    protected DeviceActor(ActorContext<DeviceCommand> ctx, TimerScheduler<DeviceCommand> timers, DeviceCommand tick, String name,
                          int maxEntriesPerJob, long tombstoneNanos, LongSupplier clock) {
        super(ctx);
        this.name = name;
        this.clock = clock;
        this.maxEntriesPerJob = maxEntriesPerJob;
        this.tombstoneNanos = tombstoneNanos;
        this.ports = new Ports(name);
        this.alarm = new Alarm<>(timers, tick);
    }

    protected AggregationTable freshTable() {
        return new AggregationTable(maxEntriesPerJob, tombstoneNanos);
    }

    /** The handlers every device shares, added to a device's own. */
    protected ReceiveBuilder<DeviceCommand> withControlPlane(ReceiveBuilder<DeviceCommand> b) {
        return b.onMessage(DeviceCommand.Wire.class, this::onWire)
                .onMessage(DeviceCommand.InstallJob.class, this::onInstall)
                .onMessage(DeviceCommand.Reroute.class, this::onReroute)
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
                return next;
            }

            @Override
            public Behavior<DeviceCommand> receiveSignal(org.apache.pekko.actor.typed.Signal signal) throws Exception {
                return inner.receiveSignal(signal);
            }
        };
    }

    /** Messages this device could not handle, named (the first few) and counted, reported with its stats. */
    private final List<String> failures = new java.util.ArrayList<>();
    private long failureCount;
    private static final int FAILURES_NAMED = 8;

    private void failed(DeviceCommand msg, RuntimeException e) {
        failureCount++;
        if (failures.size() < FAILURES_NAMED) {
            String what = name + " could not handle " + msg.getClass().getSimpleName() + ": " + e;
            failures.add(what);
            getContext().getLog().warn(what, e);
        }
    }

    /** Reports of the drivers this device runs for a job (none on a switch). */
    protected abstract List<DriverReport> driverReports(int tenant, int job);

    protected abstract boolean isSwitch();

    private Behavior<DeviceCommand> onWire(DeviceCommand.Wire w) {
        ports.wire(w);
        engine = new NodeEngine(name, w.routing(), freshTable(), ports.tracing());
        return this;
    }

    private Behavior<DeviceCommand> onInstall(DeviceCommand.InstallJob m) {
        engine.install(m.tables());
        return this;
    }

    private Behavior<DeviceCommand> onReroute(DeviceCommand.Reroute m) {
        long now = clock.getAsLong();
        afterActions(ports.perform(getContext(), engine.setRouting(m.routing(), m.bifts(), now)), now);
        routingChanged(now);
        return this;
    }

    /** Tells the endpoints on this device that the routes changed (none on a switch). */
    protected void routingChanged(long now) {
    }

    /** Frames the engine delivered to this device itself, and re-arming its alarm, after it acted outside a data-plane handler. */
    protected abstract void afterActions(List<org.bitina.protocol.Frame> local, long now);

    private Behavior<DeviceCommand> onLinkFault(DeviceCommand.LinkFault f) {
        ports.fault(f);
        return this;
    }

    private Behavior<DeviceCommand> onResetLinks() {
        ports.resetLinks();
        failures.clear();
        failureCount = 0;
        return this;
    }

    private Behavior<DeviceCommand> onSync(DeviceCommand.Sync m) {
        m.replyTo().tell(name);
        return this;
    }

    private Behavior<DeviceCommand> onCollectStats(DeviceCommand.CollectStats m) {
        m.replyTo().tell(new DeviceCommand.DeviceStats(name, isSwitch(), engine.counters(m.tenant(), m.job()).asMap(), ports.stats(),
                engine.table().peakEntries(), engine.table().peakBufferedBytes(), driverReports(m.tenant(), m.job()),
                engine.unknownJobDrops(), engine.incTreeCount(m.tenant(), m.job()), failureCount, List.copyOf(failures)));
        return this;
    }
}
