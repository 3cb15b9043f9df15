package org.bitina.usecase.bierinc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.protocol.EdgeRole;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.ChaosJob;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Plans;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.Repair;
import org.bitina.usecase.Straggler;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayEstimates;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;
import org.bitina.usecase.reduction.Iterations;
import org.bitina.usecase.reduction.PsRepair;
import org.bitina.usecase.reduction.RoundTrip;
import org.bitina.usecase.reduction.Verifier;

/**
 * BIER-INC (seed 001): each owner is the BFIR of its own tree; its first forward packet
 * builds the tree, the others reduce in reverse. AllReduce: chunk c belongs to owner
 * c mod N (every member, or one member per leaf when the leaves are the edge BFRs) and is
 * broadcast back on the same tree; Reduce and Broadcast have the root as sole owner. Every
 * node holds the BIFT of the job's bitstrings, none an A-BM. The ring baseline compares it
 * with host AllReduce.
 */
public final class BierIncUseCase implements UseCase<BierIncSpec> {
    private static final JobReader READER = new BierIncJobReader();
    /** How many completion timeouts an owner waits for a chunk before asking again: a reverse path is a few hops of timers. */
    public static final int INC_WAIT_TIMEOUTS = 8;

    @Override
    public JobReader reader() {
        return READER;
    }

    /** A chunk both ways: forward from each owner, back along the tree the forward packets installed. */
    @Override
    public WireBudget.Packets packets(BierIncSpec job, Scenario scenario) {
        long chunk = (long) job.data().chunk() * job.data().type().bytes();
        return new WireBudget.Packets(chunk, chunk, Integer.MAX_VALUE, true, 0, "data.chunk");
    }

    /** As AllReduce's: references per element, bookkeeping per member and chunk. */
    @Override
    public long memoryBytes(BierIncSpec job) {
        return ArrayPhases.dataBytes(job.data(), job.common().members().size());
    }

    @Override
    public Class<BierIncSpec> spec() {
        return BierIncSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(IncDriver.class, IncChainDriver.class);
    }

    /**
     * As AllReduce: a member keeps {@code window} chunks without a final result, and the members'
     * windows move as each receives its results, so a switch sees a little more than one window
     * (18 entries at most for window 16 on fat-tree k=8): two windows.
     */
    @Override
    public int stateEntries(BierIncSpec job) {
        return ArrayPhases.windows(job.data());
    }

    @Override
    public Mode fallback() {
        return HostBaselines.RING;
    }

    @Override
    public PhaseEstimate estimate(BierIncSpec job, Phase p, Scenario s, Routing routing) {
        return ArrayEstimates.of((BierIncSpec) p.job(), p, s);
    }

    /** The PS baseline's workers cut off by a crashed switch ({@link PsRepair}); the INC trees follow the routing (B5). */
    @Override
    public Repair retree(BierIncSpec job, Phase p, Scenario s, Routing routing) {
        return PsRepair.retree(p, routing);
    }

    @Override
    public Phase baseline(BierIncSpec job, Mode mode, Scenario s, Routing routing) {
        if (job.collective() != IncPlan.Collective.ALLREDUCE) {
            return IncChainBaseline.phase(s, routing, job, mode);
        }
        return ArrayPhases.baseline(s, job, mode, null);
    }

    @Override
    public List<Phase> plan(BierIncSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        if (job.elastic().elastic()) {
            phases.addAll(Iterations.plan(
                    s,
                    routing,
                    job,
                    job.elastic(),
                    (common, data, silent, wireJob) -> ina(
                            s,
                            routing,
                            new BierIncSpec(common, job.collective(), job.root(), job.leafEdge(), data, job.elastic()),
                            silent,
                            wireJob)));
        } else {
            phases.add(ina(s, routing, job, Set.of(), job.common().id()));
        }
        if (job.collective() == IncPlan.Collective.ALLREDUCE) {
            phases.addAll(ArrayPhases.baselines(s, routing, job, null));
        } else {
            job.common().baselines().forEach(b -> phases.add(IncChainBaseline.phase(s, routing, job, b)));
        }
        return phases;
    }

    /** The INA phase, with {@code extraSilent} members besides the fault plan's silent ones (an elastic iteration's failing members). */
    private static Phase ina(Scenario s, Routing routing, BierIncSpec job, Set<String> extraSilent, int wireJob) {
        long timeout = job.common().completionTimeout().toNanos();
        List<String> members = job.common().members();
        BitSpace endpoints = job.common().bitSpace();
        Map<String, String> leafOf = new LinkedHashMap<>();
        BitSpace wire = endpoints;
        if (job.leafEdge()) {
            members.forEach(m -> leafOf.put(m, s.topology().neighbors(m).get(0)));
            wire = new BitSpace(List.copyOf(new LinkedHashSet<>(leafOf.values())));
        }
        List<String> owners = new ArrayList<>();
        if (job.collective() != IncPlan.Collective.ALLREDUCE) {
            owners.add(job.root());
        } else if (job.leafEdge()) {
            // one owner per leaf: a tree is named by its BFIR-id, which is the leaf's
            Set<String> seen = new LinkedHashSet<>();
            members.stream().filter(m -> seen.add(leafOf.get(m))).forEach(owners::add);
        } else {
            owners.addAll(members);
        }
        Map<String, JobTables> tables = new LinkedHashMap<>();
        Map<String, Bift> bifts = Bift.buildAll(
                routing, s.topology().nodes().stream().map(Node::name).toList(), wire);
        for (Node n : s.topology().nodes()) {
            JobTables.Builder t = JobTables.builder(
                            job.name(), job.common().tenant(), wireJob, wire.capacity(), timeout)
                    .bift(bifts.get(n.name()));
            if (job.leafEdge() && wire.contains(n.name())) {
                List<String> behind = members.stream()
                        .filter(m -> leafOf.get(m).equals(n.name()))
                        .toList();
                String owner =
                        owners.stream().filter(behind::contains).findFirst().orElse(null);
                t.edge(new EdgeRole(
                        n.name(),
                        wire.index(n.name()),
                        behind,
                        behind.stream().map(endpoints::index).toList(),
                        endpoints.capacity(),
                        owner));
            } else if (job.leafEdge() && leafOf.containsKey(n.name())) {
                t.edge(EdgeRole.host(leafOf.get(n.name()), wire.index(leafOf.get(n.name())), endpoints.capacity()));
            }
            tables.put(n.name(), t.build());
        }
        AllReducePlan plan = ArrayPhases.plan(s, job, Mode.INA, wireJob, Map.of(), null, timeout)
                .silencing(extraSilent);
        IncPlan.Collective collective = job.collective();
        long longest = INC_WAIT_TIMEOUTS * timeout;
        IncPlan inc = new IncPlan(
                plan, collective, wire, leafOf, owners, longest, firstWait(s, routing, plan, owners, longest));
        List<DriverSpec> drivers = new ArrayList<>();
        members.forEach(m -> drivers.add(new IncDriver(inc, m)));
        Set<String> silent = plan.silent();
        Set<String> awaited =
                collective == IncPlan.Collective.REDUCE ? new LinkedHashSet<>(owners) : Plans.awaited(members, silent);
        awaited.removeAll(silent);
        String what = switch (collective) {
            case ALLREDUCE -> "AllReduce over one data-driven tree per owner (" + owners.size() + ")";
            case REDUCE -> "Reduce to " + job.root();
            case BROADCAST -> "Broadcast from " + job.root();
        };
        // a silent owner starts no tree: nobody reduces its chunks, as nobody passes a silent ring member's
        List<String> silentOwners = owners.stream().filter(silent::contains).toList();
        Status expected = silent.isEmpty() ? Status.COMPLETE : silentOwners.isEmpty() ? Status.PARTIAL : Status.FAILED;
        return Phase.builder()
                .job(job)
                .mode(Mode.INA)
                .wireJob(wireJob)
                .tables(tables)
                .drivers(drivers)
                .awaited(awaited)
                .roots(owners)
                .bitSpace(wire)
                .timing(ArrayPhases.timing(
                        plan,
                        ArrayPhases.deadline(
                                job,
                                3
                                        + (silent.isEmpty()
                                                        ? IncMember.shareSends(
                                                                job.common().recovery())
                                                        : RecoveryPolicy.INC_SENDS_SILENT)
                                                * INC_WAIT_TIMEOUTS)))
                // a silent owner's chunks have no tree, and those alone
                .expected(new Phase.Expected(expected, Set.copyOf(silent), (int)
                        IntStream.range(0, plan.data().chunks())
                                .filter(c -> silentOwners.contains(inc.owner(c)))
                                .count()))
                .note("BIER-INC " + what + ", communicator = job id, edge BFRs: "
                        + (job.leafEdge() ? "leaf switches " + wire.endpoints() : "hosts")
                        + (silentOwners.isEmpty() ? "" : "; silent owners start no tree: " + silentOwners))
                .build();
    }

    /**
     * L1: the first wait of an owner before it asks again, and of a member before it sends again
     * ({@link IncPlan#wait(int)}): four modelled round trips between the farthest owner and member
     * (a window's serialisation included, {@link RoundTrip}), plus the longest straggler delay (a
     * straggler is not a loss), so that a lossless run never asks. Without a path model (the real
     * clock), or with a member the fault plan silences (the owners then settle as before, after a
     * few long waits: {@link RecoveryPolicy#INC_ASKS_SILENT}), every wait is the longest one.
     */
    private static long firstWait(Scenario s, Routing routing, AllReducePlan plan, List<String> owners, long longest) {
        long rtt = 0;
        for (String owner : owners) {
            rtt = Math.max(
                    rtt,
                    RoundTrip.of(
                            s,
                            routing == null ? Routing.compute(s.topology()) : routing,
                            plan.members(),
                            m -> m.equals(owner) ? null : owner,
                            owner,
                            plan.data(),
                            plan.space().capacity()));
        }
        if (rtt <= 0 || !plan.silent().isEmpty()) {
            return longest;
        }
        return Math.min(longest, 4 * rtt + Straggler.longest(plan.stragglers().values()));
    }

    @Override
    public String tolerance() {
        return Verifier.FLOAT_TOLERANCE;
    }

    /** The INA row's INC trees; a host baseline builds none. */
    @Override
    public List<Class<? extends KindReport>> reportTypes() {
        return List.of(BierIncReport.class);
    }

    @Override
    public KindReport report(BierIncSpec job, Phase p, PhaseFigures f) {
        return p.mode().inNetwork() ? new BierIncReport(f.incTreeEntries(), f.stat("requests")) : null;
    }

    /** Every host a member, its INC trees built by the first forward packets (B2). */
    @Override
    public ChaosJob chaos() {
        return (r, hosts, top, star) -> "  members = all\n  data { elements = " + 256 * (4 + r.nextInt(13))
                + ", type = float32, op = sum, chunk = 256, window = " + (1 + r.nextInt(4))
                + ", seed = " + r.nextInt(1000) + " }\n"
                + ChaosJob.bitSpace(r, hosts);
    }

    @Override
    public Bandwidth bandwidth(BierIncSpec job, Mode mode, Scenario scenario) {
        if (job.collective() != IncPlan.Collective.ALLREDUCE) {
            // nccl-tests' bus factor of Reduce and Broadcast, in the network or by the ring's chain
            return new Bandwidth(4L * job.data().elements(), 1);
        }
        return ArrayPhases.bandwidth(scenario, job, mode);
    }
}
