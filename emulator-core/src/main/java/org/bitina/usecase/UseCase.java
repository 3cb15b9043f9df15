package org.bitina.usecase;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;

/**
 * One use case of the seeds, whole: how its jobs are read from a scenario file, planned
 * into phases (INA and its baselines), and which driver specs its hosts run. Each lives in
 * its own package under {@code usecase}; {@code usecases.UseCases} lists them.
 *
 * @param <S> the kind's job spec
 */
public interface UseCase<S extends JobSpec> {
    /** Reads a job of this kind, with its own keys. */
    JobReader reader();

    /** The kind as scenario files and reports name it. */
    default String kind() {
        return reader().kind();
    }

    Class<S> spec();

    /** The host baselines a job of this kind may list ({@code baselines = [...]}), in the order messages list them. */
    default List<Mode> baselines() {
        return reader().baselines();
    }

    /** The phases of one job: INA first, then each baseline it lists. */
    List<Phase> plan(S job, Scenario scenario, Routing routing);

    /**
     * About how many bytes of heap a job's data, references and per-endpoint state take when
     * every device runs in one JVM (an estimate from the structures the drivers keep, checked
     * at validation so that a job that cannot fit is refused instead of running out of memory).
     */
    long memoryBytes(S job);

    /**
     * S5: the most aggregation entries (soft state: A-BM aggregations, C-BM installs, INC
     * reductions) the job's INA mode holds at once on one switch, from what bounds its senders:
     * their windows. Admission control reserves this on every switch the job installs tables
     * on, and the switch holds the job to it.
     */
    int stateEntries(S job);

    /** S5: the host baseline the job runs instead of INA when a switch cannot hold its state. */
    Mode fallback();

    /** One host baseline phase of the job ({@link #fallback()} when INA is not admitted). */
    Phase baseline(S job, Mode mode, Scenario scenario, Routing routing);

    /**
     * The repair of phase {@code p}'s aggregation tree once {@code routing} routes around a
     * crashed switch (pure: the same inputs, the same tables), or null when there is nothing
     * to repair (the kind keeps no tree, or every tree node and member still reaches its parent).
     */
    default Repair retree(S job, Phase p, Scenario scenario, Routing routing) {
        return null;
    }

    /**
     * The tree of phase {@code p} rebuilt once a crashed switch came back and {@code routing}
     * includes it again (switch-recover), or null when the kind keeps no tree of its own (its
     * data-driven trees use the switch again where routing does).
     */
    default Repair rejoin(S job, Phase p, Scenario scenario, Routing routing) {
        return null;
    }

    /**
     * What the job's packets carry besides header, endpoint set and tag, for the MTU check
     * ({@link WireBudget}) of {@code scenario} (a kind that fills packets to a budget, MoE, derives
     * it from the scenario's MTU and tag).
     */
    WireBudget.Packets packets(S job, Scenario scenario);

    /**
     * What phase {@code p} of {@code job} sends when nothing is lost, and its round trips, from its
     * plan ({@link PhaseEstimate}): the packet bound a run holds it to, and the modelled length
     * validation checks the fault times against. Null when the kind gives none: its phases are
     * neither bounded nor checked.
     */
    default PhaseEstimate estimate(S job, Phase p, Scenario scenario, Routing routing) {
        return null;
    }

    /** The driver specs this kind sends to hosts, for serialisation across JVMs. */
    List<Class<? extends DriverSpec>> drivers();

    /** What {@code job} asks of the fault plan that this version does not build (said before anything runs); none by default. */
    default List<String> unbuiltFaults(S job, List<FaultSpec> faults) {
        return List.of();
    }

    /**
     * How this kind's results are checked against their reference, as the report's
     * {@code tolerances} says it; null when they are compared exactly (or there is no result).
     */
    default String tolerance() {
        return null;
    }

    /**
     * The kind's own part of phase {@code p}'s report row, from what the phase added up to
     * ({@link KindReport}); null when the kind reports nothing of its own.
     */
    default KindReport report(S job, Phase p, PhaseFigures figures) {
        return null;
    }

    /** The records {@link #report} returns, for serialisation (a report crosses JVMs). */
    default List<Class<? extends KindReport>> reportTypes() {
        return List.of();
    }

    /**
     * nccl-tests' terms of one mode of {@code job} ({@code jobs.csv}'s algbw and busbw), or null for a
     * kind that reduces no array. Computed when asked (the bus factor plans the mode's schedule).
     */
    default Bandwidth bandwidth(S job, Mode mode, Scenario scenario) {
        return null;
    }

    /**
     * @param arrayBytes the bytes of one member's array
     * @param busFactor  the mode's own bus factor (the most payload one host sends or receives per byte of the
     *                   array), NaN where it does not apply
     */
    record Bandwidth(long arrayBytes, double busFactor) {}

    /** The kind's random small job for the chaos suite ({@link ChaosJob}), or null when it has none. */
    default ChaosJob chaos() {
        return null;
    }

    /** What the kind counts its completion times in ({@code chunk}, {@code token}, {@code window}). */
    default String unit() {
        return "chunk";
    }
}
