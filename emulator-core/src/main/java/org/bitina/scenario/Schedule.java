package org.bitina.scenario;

import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bitina.job.Labels;

/**
 * How a scenario's jobs share the fabric in time (T1, seed 000 section 1 "parallel jobs and
 * multiple tenants"): one after the other, each alone on an idle fabric ({@code sequential},
 * the default), or all in one phase on one fabric ({@code shared}), each from its own
 * modelled start, once per world, and alone for its slowdown.
 *
 * @param mode   sequential or shared
 * @param worlds under shared, the worlds the mix runs in, in order
 * @param alone  under shared, whether each job also runs alone in each world (its slowdown's reference)
 * @param starts under shared, when each job starts, by job name (a job not named starts at 0)
 * @param admissions each job's admission mode where it sets one, by job name (T2; the others are strict)
 * @param rule       under shared, what decides the starts instead of {@code starts} (a workload's step
 *                   scheduler, docs/workloads.md), or empty
 */
public record Schedule(
        Mode mode,
        List<World> worlds,
        boolean alone,
        Map<String, Start> starts,
        Map<String, AdmissionMode> admissions,
        Optional<StartRule.Factory> rule) {
    public static final Schedule SEQUENTIAL = new Schedule(Mode.SEQUENTIAL, List.of(), false, Map.of());

    public Schedule {
        worlds = List.copyOf(worlds);
        starts = Map.copyOf(starts);
        admissions = Map.copyOf(admissions);
    }

    public Schedule(Mode mode, List<World> worlds, boolean alone, Map<String, Start> starts) {
        this(mode, worlds, alone, starts, Map.of());
    }

    public Schedule(
            Mode mode,
            List<World> worlds,
            boolean alone,
            Map<String, Start> starts,
            Map<String, AdmissionMode> admissions) {
        this(mode, worlds, alone, starts, admissions, Optional.empty());
    }

    /** What job {@code name} does when a switch's pool has too little free for it: its own mode, or strict. */
    public AdmissionMode admission(String name) {
        return admissions.getOrDefault(name, AdmissionMode.STRICT);
    }

    public boolean shared() {
        return mode == Mode.SHARED;
    }

    /** When job {@code name} starts: its own start, or at 0. */
    public Start start(String name) {
        return starts.getOrDefault(name, Start.ZERO);
    }

    public enum Mode {
        SEQUENTIAL,
        SHARED;

        public String configName() {
            return Labels.of(this);
        }
    }

    /**
     * A world the shared mix runs in: every job in-network ({@code ina}), or every job its first
     * listed host baseline, or its kind's fallback baseline when it lists none ({@code baseline}).
     */
    public enum World {
        INA,
        BASELINE;

        /** As files, reports, CSV and the console write it. */
        @JsonValue
        public String configName() {
            return Labels.of(this);
        }

        @Override
        public String toString() {
            return configName();
        }
    }

    /**
     * A job's start under shared: at modelled time {@code at}, or when every job of {@code after}
     * has completed (at the end of the window in which the last of them did: at most one lookahead late).
     */
    public record Start(Duration at, List<String> after) {
        public static final Start ZERO = new Start(Duration.ZERO, List.of());

        public Start {
            after = List.copyOf(after);
        }
    }
}
