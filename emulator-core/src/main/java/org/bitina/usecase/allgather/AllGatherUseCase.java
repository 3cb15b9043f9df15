package org.bitina.usecase.allgather;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Bift;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.Plans;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;

/**
 * AllGather (C2; the other collective of sharded training, FSDP and ZeRO): each member's shard is
 * multicast BIER-style to every other member (one packet per chunk, replicated by the switches'
 * BIFTs, F3; no state in transit nodes, nothing aggregated), acknowledged by each receiver and sent
 * again to exactly those whose acknowledgement is overdue. Baseline: the ring all-gather.
 */
public final class AllGatherUseCase implements UseCase<AllGatherSpec> {
    private static final JobReader READER = new AllGatherJobReader();

    @Override
    public JobReader reader() {
        return READER;
    }

    @Override
    public Class<AllGatherSpec> spec() {
        return AllGatherSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(AllGatherDriver.class);
    }

    @Override
    public List<Phase> plan(AllGatherSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        phases.add(phase(s, routing, job, false));
        for (Mode b : job.common().baselines()) {
            phases.add(baseline(job, b, s, routing));
        }
        return phases;
    }

    /** A chunk down (the shard's packet); what goes up is an acknowledgement without payload. */
    @Override
    public WireBudget.Packets packets(AllGatherSpec job, Scenario scenario) {
        long chunk = (long) job.data().chunk() * job.data().type().bytes();
        return new WireBudget.Packets(0, chunk, Integer.MAX_VALUE, false, 0, "data.chunk");
    }

    /** Every member ends with the whole array (4 bytes an element), plus per member and chunk its bookkeeping. */
    @Override
    public long memoryBytes(AllGatherSpec job) {
        int n = job.common().members().size();
        return 4L * job.data().elements() * n + 128L * job.data().chunks() * n;
    }

    /** Nothing is aggregated and nothing installed: no soft state on any switch. */
    @Override
    public int stateEntries(AllGatherSpec job) {
        return 0;
    }

    @Override
    public Mode fallback() {
        return AllGatherJobReader.RING;
    }

    @Override
    public Phase baseline(AllGatherSpec job, Mode mode, Scenario s, Routing routing) {
        if (!mode.equals(AllGatherJobReader.RING)) {
            throw new IllegalArgumentException("no " + mode + " baseline for an all-gather job");
        }
        return phase(s, routing, job, true);
    }

    @Override
    public PhaseEstimate estimate(AllGatherSpec job, Phase p, Scenario s, Routing routing) {
        return AllGatherEstimates.of(job, p);
    }

    @Override
    public Bandwidth bandwidth(AllGatherSpec job, Mode mode, Scenario scenario) {
        return AllGatherEstimates.bandwidth(job, mode);
    }

    static Phase phase(Scenario s, Routing routing, AllGatherSpec job, boolean ring) {
        Mode mode = ring ? AllGatherJobReader.RING : Mode.INA;
        int wireJob = (ring ? WireJobs.RING : WireJobs.INA).of(job.common().id());
        int n = job.common().members().size();
        Routing r = routing == null ? Routing.compute(s.topology()) : routing;
        GatherRoutes routes = new GatherRoutes(ring ? GatherRoutes.Kind.RING : GatherRoutes.Kind.MULTICAST, n);
        long rto = HostBaselines.retransmissionTimeout(
                s, r, ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, 0), routes);
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, rto);
        List<DriverSpec> drivers = new ArrayList<>();
        job.common().members().forEach(m -> drivers.add(new AllGatherDriver(ring, plan, m)));
        Map<String, JobTables> tables = ring ? Plans.bareTables(s, job, wireJob, mode) : multicastTables(s, r, job);
        String shape = ring
                ? "ring all-gather of " + n + " members"
                : "each member's shard multicast to the " + (n - 1) + " others";
        // a silent member's shard never comes: nobody can end with the whole array (the phase fails naming it)
        return ArrayPhases.hostPhase(job, plan, deadline(job, rto), shape, "an all-gather", rto)
                .tables(tables)
                .drivers(drivers)
                // every member sends its shard: each is a source the ingress policy lets in
                .roots(ring ? null : job.common().members())
                .build();
    }

    /** The BIFTs of the job's bit space on every node (F3): no VAT, nothing installed by the data. */
    private static Map<String, JobTables> multicastTables(Scenario s, Routing routing, AllGatherSpec job) {
        Map<String, Bift> bifts = Bift.buildAll(
                routing,
                s.topology().nodes().stream().map(Node::name).toList(),
                job.common().bitSpace());
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            tables.put(
                    n.name(),
                    JobTables.builder(
                                    job.name(),
                                    job.common().tenant(),
                                    job.common().id(),
                                    job.common().bitSpace().capacity(),
                                    job.common().completionTimeout().toNanos())
                            .bift(bifts.get(n.name()))
                            .rootMulticasts(false)
                            .build());
        }
        return tables;
    }

    /** Generous: every chunk's sends may back off to the most, plus room for the data itself. */
    private static Duration deadline(AllGatherSpec job, long rtoNanos) {
        long rounds =
                (job.data().chunks() + job.data().window() - 1) / job.data().window();
        long backoffMs = Math.max(1, (rtoNanos << 7) / 1_000_000);
        return Duration.ofMillis(
                30_000 + rounds * backoffMs + job.common().completionTimeout().toMillis());
    }
}
