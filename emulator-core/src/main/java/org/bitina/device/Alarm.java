package org.bitina.device;

import java.time.Duration;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One wall-clock timer per device for its earliest soft-state deadline (E5): re-armed only
 * when the earliest deadline moves earlier or the armed one has fired. Only the real clock has
 * one: under the virtual clock the device's window loop fires its timers.
 */
final class Alarm<T> {
    private final TimerScheduler<T> timers;
    private final T tick;
    private long armedFor = Long.MAX_VALUE;

    Alarm(TimerScheduler<T> timers, T tick) {
        this.timers = timers;
        this.tick = tick;
    }

    void fired() {
        armedFor = Long.MAX_VALUE;
    }

    void rearm(long deadline, long now) {
        if (deadline == Long.MAX_VALUE || deadline >= armedFor) {
            return;
        }
        armedFor = deadline;
        timers.startSingleTimer(tick, tick, Duration.ofNanos(Math.max(0, deadline - now)));
    }
}
