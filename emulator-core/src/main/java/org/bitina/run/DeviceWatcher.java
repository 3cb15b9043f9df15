package org.bitina.run;

import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.bitina.device.DeviceCommand;

/**
 * Watches every device of a run for its {@link PhaseRunner}: one that stops ends the phase as
 * failed, naming it. A member's loss stops all of its devices at once and is reported as such
 * (MemberLost, from the guardian); the grace period lets that come first, so that the report
 * names the member, not its devices.
 */
final class DeviceWatcher {
    private record Stopped(String device) {}

    private record ConfirmStopped(String device) {}

    private DeviceWatcher() {}

    static Behavior<Object> create(Map<String, ActorRef<DeviceCommand>> devices, ActorRef<PhaseRunner.Command> runner) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            devices.forEach((n, d) -> {
                if (d != null) {
                    ctx.watchWith(d, new Stopped(n));
                }
            });
            return Behaviors.receive(Object.class)
                    .onMessage(Stopped.class, m -> {
                        timers.startSingleTimer(m.device(), new ConfirmStopped(m.device()), Duration.ofSeconds(2));
                        return Behaviors.same();
                    })
                    .onMessage(ConfirmStopped.class, m -> {
                        runner.tell(PhaseRunner.MemberLost.deviceStopped(m.device()));
                        return Behaviors.same();
                    })
                    .build();
        }));
    }
}
