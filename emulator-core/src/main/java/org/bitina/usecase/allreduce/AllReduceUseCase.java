package org.bitina.usecase.allreduce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.security.LinearChecksum;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Vat;
import org.bitina.usecase.ChaosJob;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.Plans;
import org.bitina.usecase.Repair;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.AllReduceDriver;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayEstimates;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.HostBaselines;
import org.bitina.usecase.reduction.Iterations;
import org.bitina.usecase.reduction.PsRepair;
import org.bitina.usecase.reduction.RoundTrip;
import org.bitina.usecase.reduction.Verifier;
import org.bitina.wire.PacketCodec;

/**
 * AllReduce (seed 000 section 3): INA over a configured or automatic VAT (A1, A6), and the
 * host baselines (A7, L2) on the same topology: parameter server, and the schedules of {@link
 * HostBaselines} (ring, tree, halving-doubling, hierarchical).
 */
public final class AllReduceUseCase implements UseCase<AllReduceSpec> {
    private static final JobReader READER = new AllReduceJobReader();

    @Override
    public JobReader reader() {
        return READER;
    }

    /**
     * A chunk up (a contribution) and down (the result); the checksum's words ride along with S6,
     * and its fallback ring's packets carry a flat provenance of the bit space.
     */
    @Override
    public WireBudget.Packets packets(AllReduceSpec job, Scenario scenario) {
        long chunk = (long) job.data().chunk() * job.data().type().bytes()
                + (job.valueChecksum() ? 4L * LinearChecksum.ELEMENTS : 0);
        long ring = job.valueChecksum()
                ? PacketCodec.provenanceBytes(job.common().bitSpace().capacity())
                : 0;
        return new WireBudget.Packets(chunk, chunk, Integer.MAX_VALUE, false, ring, "data.chunk");
    }

    /**
     * The verifier's references (an exact value and a tolerance per element, 16 bytes, for the
     * full membership and as many again for partial results), and per member and chunk its
     * bookkeeping (about 128 bytes).
     */
    @Override
    public long memoryBytes(AllReduceSpec job) {
        return ArrayPhases.dataBytes(job.data(), job.common().members().size());
    }

    @Override
    public Class<AllReduceSpec> spec() {
        return AllReduceSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(AllReduceDriver.class);
    }

    @Override
    public List<Phase> plan(AllReduceSpec job, Scenario s, Routing routing) {
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
                            new AllReduceSpec(common, job.tree(), data, job.elastic(), job.values()),
                            silent,
                            wireJob)));
        } else {
            phases.add(ina(s, routing, job, Set.of(), job.common().id()));
        }
        phases.addAll(ArrayPhases.baselines(s, routing, job, job.tree().root()));
        return phases;
    }

    @Override
    public List<String> unbuiltFaults(AllReduceSpec job, List<FaultSpec> faults) {
        return Partitions.unbuiltFaults(List.of(job), faults);
    }

    @Override
    public PhaseEstimate estimate(AllReduceSpec job, Phase p, Scenario s, Routing routing) {
        return ArrayEstimates.of((AllReduceSpec) p.job(), p, s);
    }

    /** The VAT rebuilt around a crashed switch ({@link VatRepair}), for INA phases; the PS baseline's cut-off ({@link PsRepair}). */
    @Override
    public Repair retree(AllReduceSpec job, Phase p, Scenario s, Routing routing) {
        Repair ps = PsRepair.retree(p, routing);
        return ps != null
                ? ps
                : VatRepair.retree(
                        s, p, routing, job.common().completionTimeout().toNanos(), false);
    }

    /** The VAT rebuilt with a switch that came back ({@link VatRepair}, the crash's own path), for INA phases. */
    @Override
    public Repair rejoin(AllReduceSpec job, Phase p, Scenario s, Routing routing) {
        return VatRepair.retree(s, p, routing, job.common().completionTimeout().toNanos(), true);
    }

    /**
     * A worker keeps {@code window} chunks in flight and sends the next only on a result; a
     * result that leaves the root partial (its timer) can leave entries below it waiting out
     * their own timers while the next window opens: two windows, at most all chunks.
     */
    @Override
    public int stateEntries(AllReduceSpec job) {
        return ArrayPhases.windows(job.data());
    }

    @Override
    public Mode fallback() {
        return HostBaselines.RING;
    }

    @Override
    public Phase baseline(AllReduceSpec job, Mode mode, Scenario s, Routing routing) {
        return ArrayPhases.baseline(s, routing, job, mode, job.tree().root());
    }

    /** The VAT of a job: as configured, or built automatically (A6). */
    public static Vat vatOf(Scenario s, Routing routing, AllReduceSpec job) {
        if (job.tree().mode() == TreeSpec.Mode.VAT) {
            return job.tree().vat();
        }
        Vat.Result r = AutoVat.build(
                s.topology(),
                routing,
                job.common().bitSpace(),
                job.common().members(),
                job.tree().root());
        if (r.vat() == null) {
            throw new IllegalStateException("cannot build a VAT for job '" + job.name() + "': " + r.defects());
        }
        return r.vat();
    }

    /** A VAT node of height h waits h timeouts, so that its children's partials reach it first (the plan and a repair alike). */
    static long vatNodeTimeout(long jobTimeoutNanos, int height) {
        return jobTimeoutNanos * height;
    }

    /** The INA phase of {@code job}, with {@code silent} members besides those the fault plan silences, as job {@code wireJob} on the wire. */
    static Phase ina(Scenario s, Routing routing, AllReduceSpec job, Set<String> silent, int wireJob) {
        if (job.partitions().any()) {
            return PartitionedIna.ina(s, routing, job, silent, wireJob);
        }
        Vat vat = vatOf(s, routing, job);
        long timeout = job.common().completionTimeout().toNanos();
        Map<String, Integer> height = new HashMap<>();
        Plans.heights(vat, vat.root(), height);
        Map<String, JobTables> tables = new LinkedHashMap<>();
        Map<String, Bift> bifts = Bift.buildAll(
                routing,
                s.topology().nodes().stream().map(Node::name).toList(),
                job.common().bitSpace());
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat.aBm(n.name()) != null;
            long nodeTimeout = vatNode ? vatNodeTimeout(timeout, height.get(n.name())) : timeout;
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
                            .root(n.name().equals(vat.root()))
                            .resendHold(vatNode ? RoundTrip.resendHoldNanos(s, n.name()) : 0)
                            .build());
        }
        Map<String, String> uplink = new LinkedHashMap<>();
        job.common().members().forEach(m -> uplink.put(m, vat.parent(m)));
        AllReducePlan plan = ArrayPhases.plan(s, job, Mode.INA, wireJob, uplink, null, timeout * height.get(vat.root()))
                .silencing(silent)
                .withRtt(RoundTrip.of(
                        s,
                        routing,
                        job.common().members(),
                        vat::parent,
                        vat.root(),
                        job.data(),
                        job.common().bitSpace().capacity()));
        List<DriverSpec> drivers = new ArrayList<>();
        job.common().members().forEach(m -> drivers.add(new AllReduceDriver(AllReduceDriver.Role.WORKER, plan, m)));
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
                .expected(expected(plan, s, vat))
                .note("VAT root " + vat.root() + "; A-BMs " + vat.aBms()
                        + detours(vat, routing, job.common().members()))
                .build();
    }

    /**
     * The VAT edges that cross more than one link (a child's aggregate passes switches that do not
     * aggregate it on the way to its VAT parent, as s1's does in the seed's Fig. 1: s5, then s7): where a
     * configured tree costs INA time against host baselines that take the shortest paths.
     */
    static String detours(Vat vat, Routing routing, List<String> members) {
        List<String> d = new ArrayList<>();
        List<String> children = new ArrayList<>(vat.aBms().keySet());
        children.addAll(members);
        for (String c : children) {
            String parent = vat.parent(c);
            if (parent == null) {
                continue;
            }
            List<String> path = routing.path(c, parent);
            if (path.size() > 2) {
                d.add(c + " -> " + parent + " via " + String.join(", ", path.subList(1, path.size() - 1)));
            }
        }
        if (d.isEmpty()) {
            return "";
        }
        int shown = Math.min(4, d.size());
        return "; VAT edges over more than one link: " + String.join("; ", d.subList(0, shown))
                + (d.size() > shown ? " and " + (d.size() - shown) + " more" : "");
    }

    /**
     * Complete, unless silent members or members a switch crash cuts off from the (repaired)
     * VAT take their share away: then partial, missing at most them (failed when no member is left).
     */
    private static Phase.Expected expected(AllReducePlan plan, Scenario s, Vat vat) {
        Set<String> away = new TreeSet<>(plan.silent());
        Set<String> cut = VatRepair.plannedCutOff(s, vat.root(), plan.members());
        away.addAll(cut);
        if (!cut.isEmpty() && away.containsAll(plan.members())) {
            return new Phase.Expected(Status.FAILED, away); // nobody left joined to finish a result
        }
        return Phase.Expected.unless(away, Status.PARTIAL);
    }

    @Override
    public String tolerance() {
        return Verifier.FLOAT_TOLERANCE;
    }

    /**
     * A job over every host of the chaos topology, its VAT built automatically below the top switch, with
     * one variant besides its tree (L1: every plan kind under loss): nothing, parallel trees over two
     * partitions with a second stage (H2), translated encodings (H2), additive masks with the end-to-end
     * checksum (S6, an int32 sum only), or two elastic iterations (A8).
     */
    @Override
    public ChaosJob chaos() {
        return (r, hosts, top, star) -> {
            StringBuilder t = new StringBuilder("  members = all\n  tree { mode = auto, root = " + top + " }\n");
            t.append("  data { elements = ").append(256 * (4 + r.nextInt(29)));
            String type = ChaosJob.pick(r, "float32", "int32");
            t.append(", type = ").append(type).append(", op = sum, chunk = 256, window = ");
            t.append(1 + r.nextInt(8))
                    .append(", seed = ")
                    .append(r.nextInt(1000))
                    .append(" }\n");
            t.append(ChaosJob.pick(
                    r, "", "  baselines = [ring]\n", "  baselines = [ps]\n", "  baselines = [ring, ps]\n"));
            t.append(chaosVariant(r, star, hosts, type));
            return t.append(ChaosJob.bitSpace(r, hosts)).toString();
        };
    }

    private static String chaosVariant(SplittableRandom r, boolean star, List<String> hosts, String type) {
        switch (r.nextInt(5)) {
            case 1: {
                if (star) {
                    return ""; // each partition needs a switch of its own to root it
                }
                int half = hosts.size() / 2;
                return "  partitions = [[" + String.join(", ", hosts.subList(0, half)) + "], ["
                        + String.join(", ", hosts.subList(half, hosts.size())) + "]]\n";
            }
            case 2:
                return "  encoding = { hosts = node-list, fabric = hierarchical }\n";
            case 3:
                return type.equals("int32") ? "  security { masking = on, checksum = on }\n" : "";
            case 4:
                return "  iterations = 2\n";
            default:
                return "";
        }
    }

    @Override
    public Bandwidth bandwidth(AllReduceSpec job, Mode mode, Scenario scenario) {
        return ArrayPhases.bandwidth(scenario, job, mode);
    }
}
