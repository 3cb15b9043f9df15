package org.bitina.scenario;

/**
 * Which clock drives a run (docs/architecture.md "Two clocks"): the virtual clock (default) runs
 * every timer, straggler delay and fault in modelled time, in conservative windows, so the
 * same file gives the same report at any load and on any number of JVMs; the real clock
 * drives them with wall-clock Pekko timers, to watch real concurrency.
 */
public enum Clock {
    VIRTUAL("virtual"),
    REAL("real");

    private final String configName;

    Clock(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** The clock named {@code name}, or null for no such clock. */
    public static Clock fromConfig(String name) {
        for (Clock c : values()) {
            if (c.configName.equals(name)) {
                return c;
            }
        }
        return null;
    }
}
