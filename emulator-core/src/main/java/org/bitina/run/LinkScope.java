package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonValue;
import org.bitina.job.Mode;
import org.bitina.scenario.Schedule;

/**
 * Whose traffic a {@code links[]} row counts, in its {@code mode} field: one job's phase in one
 * mode, or under {@code schedule = shared} a world's mix, whose jobs share the links and are
 * counted once (T1). JSON, CSV and the HTML page write the mode's or the world's name.
 */
public sealed interface LinkScope {
    /** The {@code job} of a world's row: the world's jobs share its links, counted once. */
    String SHARED_JOB = "shared";

    /** The name the report writes: {@code ina}, a baseline's, or a world's. */
    @JsonValue
    String name();

    /**
     * The scope a row read back names: a world when its job is {@link #SHARED_JOB} (as the runner
     * writes a world's row), else the job's mode.
     */
    static LinkScope of(String job, String name) {
        if (SHARED_JOB.equals(job)) {
            for (Schedule.World w : Schedule.World.values()) {
                if (w.configName().equals(name)) {
                    return new OfWorld(w);
                }
            }
        }
        return new OfMode(Mode.of(name));
    }

    /** One job's phase in {@code mode}. */
    record OfMode(Mode mode) implements LinkScope {
        @Override
        public String name() {
            return mode.name();
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** A shared world's mix. */
    record OfWorld(Schedule.World world) implements LinkScope {
        @Override
        public String name() {
            return world.configName();
        }

        @Override
        public String toString() {
            return name();
        }
    }
}
