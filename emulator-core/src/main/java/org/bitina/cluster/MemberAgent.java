package org.bitina.cluster;

import org.bitina.usecase.References;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.bitina.device.ControlMessage;
import org.bitina.device.DeviceCommand;
import org.bitina.device.HostActor;
import org.bitina.device.MemberTally;
import org.bitina.device.SwitchActor;

/**
 * One per cluster member (E2): registers with the receptionist and spawns the devices the
 * coordinator places on this member. The single-JVM run has one, like any other member.
 */
public final class MemberAgent {
    public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "bitina-member");

    public sealed interface Command extends ControlMessage permits SpawnDevices, Halt, Window, DeviceAdvanced {
    }

    /**
     * Spawn these devices for run {@code run} and say where they are.
     *
     * @param member  this member's index in the run (the virtual clock counts messages between members)
     * @param virtual the devices run on the virtual clock (else on the wall clock)
     */
    public record SpawnDevices(String run, List<String> switches, List<String> hosts, int maxEntriesPerJob, long tombstoneNanos,
                               ActorRef<Spawned> replyTo, int member, int members, boolean virtual) implements Command {
    }

    /** Virtual clock: every device of this member processes the window [start, end), then the member reports once. */
    public record Window(long window, long start, long end, ActorRef<WindowReport> replyTo) implements Command {
    }

    /** A device of this member reporting on a window (local: the agent's adapter). */
    public record DeviceAdvanced(DeviceCommand.Advanced advanced) implements Command {
    }

    /**
     * A member's devices are done with a window ({@code late}: they received more cross-member
     * messages since); see {@link org.bitina.time.WindowBarrier}.
     */
    public record WindowReport(int member, long window, long[] sentTo, long received, long next, List<DeviceCommand.DriverDone> done,
                               boolean late, List<String> problems, long events, long busyNanos) implements ControlMessage {
    }

    public record Spawned(String member, Map<String, ActorRef<DeviceCommand>> devices) implements ControlMessage {
    }

    /** The fault plan's member-loss (E4): stop as a killed JVM does, without leaving the cluster. */
    public record Halt() implements Command {
    }

    private MemberAgent() {
    }

    /** A member whose member-loss fault halts its JVM at once, as kill -9 does. */
    public static Behavior<Command> create() {
        return create(() -> Runtime.getRuntime().halt(137));
    }

    /** @param halt what member-loss does (tests with several members in one JVM stop only this member's ActorSystem) */
    public static Behavior<Command> create(Runnable halt) {
        return Behaviors.setup(ctx -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
            String member = ctx.getSystem().address().toString();
            ActorRef<DeviceCommand.Advanced> advanced = ctx.messageAdapter(DeviceCommand.Advanced.class, DeviceAdvanced::new);
            Windows windows = new Windows();
            return Behaviors.receive(Command.class)
                    .onMessage(Window.class, m -> {
                        windows.open(m, advanced);
                        return Behaviors.same();
                    })
                    .onMessage(DeviceAdvanced.class, m -> {
                        windows.advanced(m.advanced());
                        return Behaviors.same();
                    })
                    .onMessage(SpawnDevices.class, m -> {
                        Map<String, ActorRef<DeviceCommand>> spawned = new LinkedHashMap<>();
                        // what this member's hosts share for this run (references, model weights)
                        References references = new References();
                        // virtual clock: what the devices did in a window, shared with this agent (they run in its JVM)
                        MemberTally tally = m.virtual() ? new MemberTally(m.members()) : null;
                        for (String s : m.switches()) {
                            spawned.put(s, ctx.spawn((tally != null ? SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos(), tally)
                                    : SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos())),
                                    "dev-" + m.run() + "-" + s));
                        }
                        for (String h : m.hosts()) {
                            spawned.put(h, ctx.spawn((tally != null ? HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), tally, references)
                                    : HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), references)),
                                    "dev-" + m.run() + "-" + h));
                        }
                        windows.devices(m.member(), spawned, tally);
                        ctx.getLog().info("member {} runs {} devices of run {}", member, spawned.size(), m.run());
                        m.replyTo().tell(new Spawned(member, spawned));
                        return Behaviors.same();
                    })
                    .onMessage(Halt.class, h -> {
                        ctx.getLog().warn("member {} halts (member-loss fault)", member);
                        halt.run();
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /**
     * The member's part of the virtual clock's barrier: one window message in, one to each
     * device, one report out when the last device is done, so the coordinator's cost grows
     * with members, not devices. The devices add what they did to the member's
     * {@link MemberTally}; the last one tells this agent.
     */
    private static final class Windows {
        private int member;
        private Map<String, ActorRef<DeviceCommand>> devices = Map.of();
        private MemberTally tally;
        private Window open;
        private boolean reported;

        void devices(int member, Map<String, ActorRef<DeviceCommand>> spawned, MemberTally tally) {
            this.member = member;
            this.devices = Map.copyOf(spawned);
            this.tally = tally;
            open = null;
        }

        void open(Window w, ActorRef<DeviceCommand.Advanced> replyTo) {
            if (tally == null) {
                return; // devices on the real clock: no windows
            }
            open = w;
            reported = false;
            tally.open(devices.size());
            if (devices.isEmpty()) {
                report();
                return;
            }
            DeviceCommand.Advance a = new DeviceCommand.Advance(w.window(), w.start(), w.end(), replyTo);
            devices.values().forEach(d -> d.tell(a));
        }

        void advanced(DeviceCommand.Advanced a) {
            if (open == null) {
                return;
            }
            if (a.late()) {
                if (reported) {
                    open.replyTo().tell(new WindowReport(member, open.window(), null, tally.received(), Long.MAX_VALUE, List.of(), true,
                            List.of(), 0, 0));
                }
                return;
            }
            if (a.window() == open.window()) {
                report();
            }
        }

        private void report() {
            reported = true;
            open.replyTo().tell(new WindowReport(member, open.window(), tally.sent(), tally.received(), tally.next(), tally.done(), false,
                    tally.problems(), tally.events(), tally.busyNanos()));
        }
    }
}
