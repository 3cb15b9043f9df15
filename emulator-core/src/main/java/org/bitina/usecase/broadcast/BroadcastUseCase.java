package org.bitina.usecase.broadcast;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.WireJobs;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Plans;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.multicast.MulticastUseCase;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;

/**
 * Broadcast (NCCL's broadcast), a collective of its own built from mechanisms the framework already
 * has. In the network the root's array is replicated BIER-style to every other member (F3) and
 * acknowledged per window over an ACK tree whose switches aggregate the members' ACKs (seed 000
 * section 5): the phase is a reliable multicast's ({@link MulticastUseCase}), named as this job's.
 * The host baseline, {@code unicast}: the root sends every chunk to each member, which acknowledges it,
 * run as any host schedule is ({@link RootUnicast}). Either way every member checks what it ends with
 * against the root's seeded data.
 */
public final class BroadcastUseCase implements UseCase<BroadcastSpec> {
    private static final JobReader READER = new BroadcastJobReader();
    private static final MulticastUseCase MULTICAST = new MulticastUseCase();

    @Override
    public JobReader reader() {
        return READER;
    }

    @Override
    public Class<BroadcastSpec> spec() {
        return BroadcastSpec.class;
    }

    /** The reliable multicast's drivers in the network, the unicast schedule's on the hosts. */
    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        List<Class<? extends DriverSpec>> d = new ArrayList<>(MULTICAST.drivers());
        d.add(UnicastDriver.class);
        return List.copyOf(d);
    }

    @Override
    public List<Class<? extends KindReport>> reportTypes() {
        return MULTICAST.reportTypes();
    }

    @Override
    public List<Phase> plan(BroadcastSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        // the multicast's own plan is its in-network phase: it lists none of its baselines
        phases.add(named(job, MULTICAST.plan(job.multicast(), s, routing).get(0)));
        for (Mode b : job.common().baselines()) {
            phases.add(baseline(job, b, s, routing));
        }
        return phases;
    }

    /** The multicast's phase as the broadcast's: its row, estimate and report are asked of this kind. */
    private static Phase named(BroadcastSpec job, Phase p) {
        return p.toBuilder()
                .job(job)
                .note("from " + job.root() + "; " + p.note())
                .build();
    }

    @Override
    public Phase baseline(BroadcastSpec job, Mode mode, Scenario s, Routing routing) {
        if (!mode.equals(BroadcastJobReader.UNICAST)) {
            throw new IllegalArgumentException("no " + mode + " baseline for a broadcast job");
        }
        int wireJob = WireJobs.UNICAST_ACK.of(job.common().id());
        List<String> members = job.common().members();
        Routing r = routing == null ? Routing.compute(s.topology()) : routing;
        RootUnicast schedule = new RootUnicast(members.size(), members.indexOf(job.root()));
        long rto = HostBaselines.retransmissionTimeout(
                s, r, ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, 0), schedule);
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, wireJob, Map.of(), null, rto);
        List<DriverSpec> drivers = new ArrayList<>();
        members.forEach(m -> drivers.add(new UnicastDriver(plan, job.root(), m)));
        String shape = job.root() + " unicasts every chunk to each of the " + (members.size() - 1) + " others";
        return ArrayPhases.hostPhase(job, plan, ArrayPhases.deadline(job, members.size()), shape, "a broadcast", rto)
                .tables(Plans.bareTables(s, job, wireJob, mode))
                .drivers(drivers)
                .roots(List.of(job.root()))
                // a silent member is still awaited: the root's array never reaches it, and the row names it
                .awaited(new LinkedHashSet<>(members))
                .build();
    }

    /** A chunk down; what goes up is an ACK without payload, over the tree or straight back. */
    @Override
    public WireBudget.Packets packets(BroadcastSpec job, Scenario scenario) {
        long chunk = (long) job.data().chunk() * job.data().type().bytes();
        return new WireBudget.Packets(0, chunk, Integer.MAX_VALUE, true, 0, "data.chunk");
    }

    /** The multicast's block, reference and copies, or the schedule's array per member and its reference. */
    @Override
    public long memoryBytes(BroadcastSpec job) {
        long schedule = job.bytes() * (job.common().members().size() + 1L);
        return Math.max(MULTICAST.memoryBytes(job.multicast()), schedule);
    }

    @Override
    public int stateEntries(BroadcastSpec job) {
        return MULTICAST.stateEntries(job.multicast());
    }

    @Override
    public Mode fallback() {
        return BroadcastJobReader.UNICAST;
    }

    /**
     * In the network, the multicast's. Unicast: per chunk the root's N-1 sends, each acknowledged, 2 C (N-1)
     * packets; the root sends the array N-1 times; its window of chunk copies is a round trip.
     */
    @Override
    public PhaseEstimate estimate(BroadcastSpec job, Phase p, Scenario s, Routing routing) {
        if (p.mode().inNetwork()) {
            return MULTICAST.estimate(job.multicast(), p, s, routing);
        }
        long copies = (long) job.data().chunks() * (job.common().members().size() - 1);
        long windows =
                Math.max(1, (copies + job.data().window() - 1) / job.data().window());
        return new PhaseEstimate(
                2 * copies, job.bytes() * (job.common().members().size() - 1), windows);
    }

    @Override
    public KindReport report(BroadcastSpec job, Phase p, PhaseFigures figures) {
        return p.mode().inNetwork() ? MULTICAST.report(job.multicast(), p, figures) : null;
    }

    /**
     * nccl-tests' broadcast: algbw is the array over the time. The bus factor is the mode's own, the most
     * one host sends or receives per byte of the array: 1 when the switches replicate (the root sends it
     * once, each member receives it once), N-1 when the root unicasts it to each of the others.
     */
    @Override
    public Bandwidth bandwidth(BroadcastSpec job, Mode mode, Scenario scenario) {
        double factor = mode.inNetwork() ? 1 : job.common().members().size() - 1;
        return new Bandwidth(job.bytes(), factor);
    }

    @Override
    public String unit() {
        return "chunk";
    }
}
