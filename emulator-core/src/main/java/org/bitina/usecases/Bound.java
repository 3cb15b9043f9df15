package org.bitina.usecases;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Repair;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;

/**
 * A job bound to its use case, its spec cast once to the kind's own type: every question the run asks
 * of a kind about one job goes through here, instead of one generic helper per question.
 */
record Bound<S extends JobSpec>(UseCase<S> useCase, S job) {

    /** {@code job} with the use case that runs it. */
    static Bound<?> of(JobSpec job) {
        return bind(UseCases.of(job), job);
    }

    private static <S extends JobSpec> Bound<S> bind(UseCase<S> u, JobSpec job) {
        return new Bound<>(u, u.spec().cast(job));
    }

    List<Phase> plan(Scenario s, Routing routing) {
        return useCase.plan(job, s, routing);
    }

    Phase baseline(Mode mode, Scenario s, Routing routing) {
        return useCase.baseline(job, mode, s, routing);
    }

    Mode fallback() {
        return useCase.fallback();
    }

    int stateEntries() {
        return useCase.stateEntries(job);
    }

    PhaseEstimate estimate(Phase p, Scenario s, Routing routing) {
        return useCase.estimate(job, p, s, routing);
    }

    Repair retree(Phase p, Scenario s, Routing routing) {
        return useCase.retree(job, p, s, routing);
    }

    Repair rejoin(Phase p, Scenario s, Routing routing) {
        return useCase.rejoin(job, p, s, routing);
    }

    WireBudget.Packets packets(Scenario s) {
        return useCase.packets(job, s);
    }

    List<String> unbuiltFaults(List<FaultSpec> faults) {
        return useCase.unbuiltFaults(job, faults);
    }

    KindReport report(Phase p, PhaseFigures figures) {
        return useCase.report(job, p, figures);
    }

    UseCase.Bandwidth bandwidth(Mode mode, Scenario s) {
        return useCase.bandwidth(job, mode, s);
    }

    long memoryBytes() {
        return useCase.memoryBytes(job);
    }
}
