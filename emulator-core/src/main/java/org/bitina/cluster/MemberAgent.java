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

    public sealed interface Command extends ControlMessage permits SpawnDevices, Halt {
    }

    /** Spawn these devices for run {@code run} and say where they are. */
    public record SpawnDevices(String run, List<String> switches, List<String> hosts, int maxEntriesPerJob, long tombstoneNanos,
                               ActorRef<Spawned> replyTo) implements Command {
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
            return Behaviors.receive(Command.class)
                    .onMessage(SpawnDevices.class, m -> {
                        Map<String, ActorRef<DeviceCommand>> spawned = new LinkedHashMap<>();
                        // what this member's hosts share for this run (references, model weights)
                        References references = new References();
                        for (String s : m.switches()) {
                            spawned.put(s, ctx.spawn(SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos()), "dev-" + m.run() + "-" + s));
                        }
                        for (String h : m.hosts()) {
                            spawned.put(h, ctx.spawn(HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), references), "dev-" + m.run() + "-" + h));
                        }
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
}
