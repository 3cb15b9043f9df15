package org.bitina.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a phase runs a job: in the network ({@link #INA}) or as one of the host baselines its
 * kind declares ({@code UseCase.baselines()}, each kind naming its own). The name is what
 * scenario files ({@code baselines = [ring]}, {@code expect { ina = ... }}), reports, CSV
 * and traces write; a mode is only ever compared by it.
 *
 * @param name the mode as files and reports write it
 */
public record Mode(String name) {
    /** In-network aggregation (or multicast): the phase every job runs first. */
    public static final Mode INA = new Mode("ina");

    public Mode {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a mode has a name");
        }
    }

    /** The mode named {@code name} (a report or message read back). */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Mode of(String name) {
        return INA.name.equals(name) ? INA : new Mode(name);
    }

    @JsonValue
    @Override
    public String name() {
        return name;
    }

    /** Whether the phase runs in the network (the switches aggregate or replicate), not on the hosts alone. */
    public boolean inNetwork() {
        return equals(INA);
    }

    /** The name: messages and labels spell a mode as files do. */
    @Override
    public String toString() {
        return name;
    }
}
