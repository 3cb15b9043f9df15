package org.bitina.usecase.bierinc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.scenario.Scenario;
import org.bitina.time.Durations;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Plans;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;

/**
 * The {@code ring} baseline of a BIER-INC Reduce or Broadcast (L2): the members run NCCL's ring
 * Reduce or Broadcast, a pipelined chain from or to the root ({@link RingChain}), host to host by
 * unicast with the window, acknowledgements and retransmission every schedule-driven baseline has
 * ({@code ScheduleWorker}); a wire job of its own, so no switch holds state for it.
 */
final class IncChainBaseline {
    private IncChainBaseline() {}

    static Phase phase(Scenario s, Routing routing, BierIncSpec job, Mode mode) {
        if (!mode.equals(HostBaselines.RING)) {
            throw new IllegalArgumentException("no " + mode + " baseline for a bier-inc " + job.collective());
        }
        int wireJob = WireJobs.RING.of(job.common().id());
        List<String> members = job.common().members();
        AllReducePlan draft = ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, 0);
        RingChain chain = new RingChain(members.size(), members.indexOf(job.root()), job.collective());
        long rto = HostBaselines.retransmissionTimeout(
                s, routing == null ? Routing.compute(s.topology()) : routing, draft, chain);
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, rto);
        List<DriverSpec> drivers = new ArrayList<>();
        members.forEach(m -> drivers.add(new IncChainDriver(plan, job.collective(), job.root(), m)));
        Set<String> silent = plan.silent();
        // as in-network: a Reduce ends at its root, a Broadcast at every member
        Set<String> awaited = job.collective() == IncPlan.Collective.REDUCE
                ? new LinkedHashSet<>(List.of(job.root()))
                : Plans.awaited(members, silent);
        awaited.removeAll(silent);
        String shape = (job.collective() == IncPlan.Collective.REDUCE ? "ring Reduce to " : "ring Broadcast from ")
                + job.root() + ": a pipelined chain of " + members.size() + " members";
        long completion = job.common().completionTimeout().toNanos();
        return Phase.builder()
                .job(job)
                .mode(mode)
                .wireJob(wireJob)
                .tables(Plans.bareTables(s, job, wireJob, mode))
                .drivers(drivers)
                .awaited(awaited)
                .bitSpace(job.common().bitSpace())
                .timing(new Phase.Timing(
                        plan.data().chunks(),
                        completion,
                        plan.maxStraggleNanos(),
                        ArrayPhases.deadline(job, members.size())))
                .expected(Phase.Expected.unless(silent, Status.FAILED))
                .note((silent.isEmpty() ? shape : "a " + shape + " cannot complete with a silent member: " + silent)
                        + "; window " + plan.data().window() + ", retransmission timeout " + Durations.of(rto))
                .build();
    }
}
