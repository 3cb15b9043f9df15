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
                               ActorRef<Spawned> replyTo, int member, boolean virtual) implements Command {
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
                        for (String s : m.switches()) {
                            spawned.put(s, ctx.spawn(SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos(), m.virtual()),
                                    "dev-" + m.run() + "-" + s));
                        }
                        for (String h : m.hosts()) {
                            spawned.put(h, ctx.spawn(HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), m.virtual(), references),
                                    "dev-" + m.run() + "-" + h));
                        }
                        windows.devices(m.member(), spawned);
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
     * device, one report out when all have answered, so the coordinator's cost grows with
     * members, not devices. Counts are cumulative per device (its latest answer stands).
     */
    private static final class Windows {
        private int member;
        private Map<String, ActorRef<DeviceCommand>> devices = Map.of();
        private final Map<String, Long> received = new java.util.HashMap<>();
        private final Map<String, long[]> sent = new java.util.HashMap<>();
        private Window open;
        private int waiting;
        private long next;
        private long events;
        private long busyNanos;
        private final List<DeviceCommand.DriverDone> done = new java.util.ArrayList<>();
        private final List<String> problems = new java.util.ArrayList<>();

        void devices(int member, Map<String, ActorRef<DeviceCommand>> spawned) {
            this.member = member;
            this.devices = Map.copyOf(spawned);
            received.clear();
            sent.clear();
            open = null;
        }

        void open(Window w, ActorRef<DeviceCommand.Advanced> replyTo) {
            open = w;
            waiting = devices.size();
            next = Long.MAX_VALUE;
            events = 0;
            busyNanos = 0;
            done.clear();
            problems.clear();
            if (waiting == 0) {
                report();
                return;
            }
            DeviceCommand.Advance a = new DeviceCommand.Advance(w.window(), w.start(), w.end(), replyTo);
            devices.values().forEach(d -> d.tell(a));
        }

        void advanced(DeviceCommand.Advanced a) {
            received.merge(a.node(), a.received(), Math::max);
            if (a.late()) {
                if (open != null && waiting == 0) {
                    open.replyTo().tell(new WindowReport(member, open.window(), null, receivedTotal(), Long.MAX_VALUE, List.of(), true,
                            List.of(), 0, 0));
                }
                return;
            }
            if (open == null || a.window() != open.window()) {
                return;
            }
            sent.put(a.node(), a.sentTo());
            next = Math.min(next, a.next());
            events += a.events();
            busyNanos += a.busyNanos();
            done.addAll(a.done());
            problems.addAll(a.problems());
            if (--waiting == 0) {
                report();
            }
        }

        private long receivedTotal() {
            long r = 0;
            for (long v : received.values()) {
                r += v;
            }
            return r;
        }

        private void report() {
            int width = 0;
            for (long[] s : sent.values()) {
                width = Math.max(width, s.length);
            }
            long[] total = new long[width];
            for (long[] s : sent.values()) {
                for (int i = 0; i < s.length; i++) {
                    total[i] += s[i];
                }
            }
            open.replyTo().tell(new WindowReport(member, open.window(), total, receivedTotal(), next, List.copyOf(done), false,
                    List.copyOf(problems), events, busyNanos));
        }
    }
}
