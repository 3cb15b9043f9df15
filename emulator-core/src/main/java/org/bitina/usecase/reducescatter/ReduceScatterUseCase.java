package org.bitina.usecase.reducescatter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.ResultRoute;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Vat;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.Plans;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;
import org.bitina.usecase.reduction.RoundTrip;
import org.bitina.usecase.reduction.Verifier;

/**
 * ReduceScatter (C1; the collective of sharded training, FSDP and ZeRO): each chunk is aggregated
 * in the network over a VAT built for the members (A6) as AllReduce's is, and the root multicasts
 * the result to the chunk's owner alone (a one-bit bitmap, {@link ResultRoute}), with a notice
 * without payload to the others. Baseline: the ring reduce-scatter ({@link RingReduceScatter}).
 */
public final class ReduceScatterUseCase implements UseCase<ReduceScatterSpec> {
    private static final JobReader READER = new ReduceScatterJobReader();

    @Override
    public JobReader reader() {
        return READER;
    }

    @Override
    public Class<ReduceScatterSpec> spec() {
        return ReduceScatterSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(ReduceScatterDriver.class);
    }

    @Override
    public List<Phase> plan(ReduceScatterSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        phases.add(ina(s, routing, job));
        for (Mode b : job.common().baselines()) {
            phases.add(baseline(job, b, s, routing));
        }
        return phases;
    }

    /** A chunk up (a contribution) and down (the owner's result). */
    @Override
    public WireBudget.Packets packets(ReduceScatterSpec job, Scenario scenario) {
        long chunk = (long) job.data().chunk() * job.data().type().bytes();
        return new WireBudget.Packets(chunk, chunk, Integer.MAX_VALUE, false, 0, "data.chunk");
    }

    @Override
    public long memoryBytes(ReduceScatterSpec job) {
        return ArrayPhases.dataBytes(job.data(), job.common().members().size());
    }

    /** As AllReduce: a window of chunks per worker, two windows after a partial result, at most all chunks. */
    @Override
    public int stateEntries(ReduceScatterSpec job) {
        return ArrayPhases.windows(job.data());
    }

    @Override
    public Mode fallback() {
        return ReduceScatterJobReader.RING;
    }

    @Override
    public Phase baseline(ReduceScatterSpec job, Mode mode, Scenario s, Routing routing) {
        if (!mode.equals(ReduceScatterJobReader.RING)) {
            throw new IllegalArgumentException("no " + mode + " baseline for a reduce-scatter job");
        }
        return ring(s, routing, job);
    }

    @Override
    public String tolerance() {
        return Verifier.FLOAT_TOLERANCE;
    }

    @Override
    public PhaseEstimate estimate(ReduceScatterSpec job, Phase p, Scenario s, Routing routing) {
        return ReduceScatterEstimates.of(job, p);
    }

    @Override
    public Bandwidth bandwidth(ReduceScatterSpec job, Mode mode, Scenario scenario) {
        return ReduceScatterEstimates.bandwidth(job, mode);
    }

    /** The VAT of the job's members under its root (A6). */
    static Vat vatOf(Scenario s, Routing routing, ReduceScatterSpec job) {
        Vat.Result r = AutoVat.build(
                s.topology(), routing, job.common().bitSpace(), job.common().members(), job.root());
        if (r.vat() == null) {
            throw new IllegalStateException("cannot build a VAT for job '" + job.name() + "': " + r.defects());
        }
        return r.vat();
    }

    /** Chunk c to member c mod N: the members' bit positions in member order. */
    static ResultRoute owners(ReduceScatterSpec job) {
        return ResultRoute.toOwners(job.common().members().stream()
                .map(m -> job.common().bitSpace().index(m))
                .toList());
    }

    static Phase ina(Scenario s, Routing routing, ReduceScatterSpec job) {
        Vat vat = vatOf(s, routing, job);
        int wireJob = job.common().id();
        long timeout = job.common().completionTimeout().toNanos();
        Map<String, Integer> height = new HashMap<>();
        Plans.heights(vat, vat.root(), height);
        Map<String, Bift> bifts = Bift.buildAll(
                routing,
                s.topology().nodes().stream().map(Node::name).toList(),
                job.common().bitSpace());
        ResultRoute route = owners(job);
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat.aBm(n.name()) != null;
            // a VAT node of height h waits h timeouts, so that its children's partials reach it first
            long nodeTimeout = vatNode ? timeout * height.get(n.name()) : timeout;
            boolean root = n.name().equals(vat.root());
            tables.put(
                    n.name(),
                    JobTables.builder(
                                    job.name(),
                                    job.common().tenant(),
                                    wireJob,
                                    job.common().bitSpace().capacity(),
                                    nodeTimeout)
                            .bift(bifts.get(n.name()))
                            .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null)
                            .root(root)
                            .resultRoute(root ? route : ResultRoute.NODE_BITMAP)
                            .build());
        }
        Map<String, String> uplink = new LinkedHashMap<>();
        job.common().members().forEach(m -> uplink.put(m, vat.parent(m)));
        AllReducePlan plan = ArrayPhases.plan(s, job, Mode.INA, wireJob, uplink, null, timeout * height.get(vat.root()))
                .withRtt(RoundTrip.of(
                        s,
                        routing,
                        job.common().members(),
                        vat::parent,
                        vat.root(),
                        job.data(),
                        job.common().bitSpace().capacity()));
        List<DriverSpec> drivers = new ArrayList<>();
        job.common()
                .members()
                .forEach(m -> drivers.add(new ReduceScatterDriver(ReduceScatterDriver.Role.WORKER, plan, m)));
        return Phase.builder()
                .job(job)
                .mode(Mode.INA)
                .wireJob(wireJob)
                .tables(tables)
                .drivers(drivers)
                .awaited(Plans.awaited(job.common().members(), plan.silent()))
                .roots(List.of(vat.root()))
                .bitSpace(job.common().bitSpace())
                .timing(ArrayPhases.timing(plan, ArrayPhases.deadline(job, height.get(vat.root()))))
                .expected(Phase.Expected.unless(plan.silent(), Status.PARTIAL))
                .note("VAT root " + vat.root() + "; A-BMs " + vat.aBms() + "; chunk c's sum to member c mod "
                        + job.common().members().size() + " alone")
                .build();
    }

    static Phase ring(Scenario s, Routing routing, ReduceScatterSpec job) {
        int wireJob = WireJobs.RING.of(job.common().id());
        Mode mode = ReduceScatterJobReader.RING;
        int n = job.common().members().size();
        RingReduceScatter schedule = new RingReduceScatter(n);
        long rto = HostBaselines.retransmissionTimeout(
                s,
                routing == null ? Routing.compute(s.topology()) : routing,
                ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, 0),
                schedule);
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, rto);
        List<DriverSpec> drivers = new ArrayList<>();
        job.common()
                .members()
                .forEach(m -> drivers.add(new ReduceScatterDriver(ReduceScatterDriver.Role.RING_WORKER, plan, m)));
        return ArrayPhases.hostPhase(
                        job,
                        plan,
                        ArrayPhases.deadline(job, n),
                        "ring reduce-scatter of " + n + " members",
                        "a ring",
                        rto)
                .tables(Plans.bareTables(s, job, wireJob, mode))
                .drivers(drivers)
                .build();
    }
}
