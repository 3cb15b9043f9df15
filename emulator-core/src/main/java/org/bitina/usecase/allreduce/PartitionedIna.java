package org.bitina.usecase.allreduce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.SecondStage;
import org.bitina.protocol.StageBridge;
import org.bitina.scenario.Scenario;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Vat;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Plans;
import org.bitina.usecase.reduction.AllReduceDriver;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.RoundTrip;

/**
 * The INA phase of an AllReduce job over partitions (seed 000 section 7, H2): each partition's
 * members get a bit space of their own (their job bit order, bit 1 the first) and an automatic VAT
 * of their own (A6) under a root of their own: the switch nearest to them (most reached, least
 * hops, first by name) that roots no other partition and is not the second stage's root. The
 * partition roots are the members of the second stage, an automatic VAT over a bit space of one
 * bit per partition, rooted at the job's {@code tree.root}. A partition root hands its aggregate
 * up to the second stage and the second stage's result down into its partition
 * ({@link StageBridge}); every worker checks every result against the same
 * reference as in one tree. The phase's own tree is the second stage; the partitions' are its
 * {@link Phase#more} trees.
 */
final class PartitionedIna {
    private PartitionedIna() {}

    /** One partition as planned: its tree's wire job, bit space, VAT and heights. */
    private record Part(Partitions.Partition p, int wireJob, BitSpace space, Vat vat, Map<String, Integer> height) {
        String root() {
            return vat.root();
        }
    }

    static Phase ina(Scenario s, Routing routing, AllReduceSpec job, Set<String> silent, int wireJob) {
        BitSpace jobSpace = job.common().bitSpace();
        List<Partitions.Partition> partitions =
                job.partitions().of(s.topology(), job.common().members(), jobSpace);
        String stageRoot = job.tree().root();
        Set<String> taken = new HashSet<>(Set.of(stageRoot));
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            Partitions.Partition p = partitions.get(i);
            String root = VatRepair.nearest(s.topology(), routing, p.members(), taken);
            taken.add(root);
            BitSpace space = new BitSpace(p.members());
            Vat vat = built(AutoVat.build(s.topology(), routing, space, p.members(), root), job, p.name());
            Map<String, Integer> height = new HashMap<>();
            Plans.heights(vat, root, height);
            parts.add(new Part(p, WireJobs.partition(wireJob, i), space, vat, height));
        }
        List<String> roots = parts.stream().map(Part::root).toList();
        BitSpace stageSpace = new BitSpace(roots);
        Vat stage = built(AutoVat.build(s.topology(), routing, stageSpace, roots, stageRoot), job, "the second stage");
        Map<String, Integer> stageHeight = new HashMap<>();
        Plans.heights(stage, stageRoot, stageHeight);
        int below = parts.stream().mapToInt(p -> p.height().get(p.root())).max().orElse(1);
        long timeout = job.common().completionTimeout().toNanos();
        List<EndpointSet> members = parts.stream()
                .map(p -> (EndpointSet) jobSpace.setOf(p.p().members()))
                .toList();

        // the second stage: one bit per partition; a stage node waits for the partition roots' partials first
        Map<String, JobTables> stageTables = new LinkedHashMap<>();
        Map<String, Part> rootOf = new HashMap<>();
        parts.forEach(p -> rootOf.put(p.root(), p));
        for (Node n : s.topology().nodes()) {
            EndpointSet aBm = stage.aBm(n.name());
            Part rooted = rootOf.get(n.name());
            SecondStage part = rooted != null
                    ? new SecondStage(wireJob, rooted.wireJob(), parts.indexOf(rooted), stage.parent(n.name()), members)
                    : aBm != null ? SecondStage.node(wireJob, members) : null;
            long t =
                    aBm != null ? AllReduceUseCase.vatNodeTimeout(timeout, below + stageHeight.get(n.name())) : timeout;
            stageTables.put(
                    n.name(),
                    JobTables.builder(job.name(), job.common().tenant(), wireJob, stageSpace.capacity(), t)
                            .bift(Bift.build(routing, n.name(), stageSpace))
                            .vatNode(aBm, aBm != null ? stage.parent(n.name()) : null)
                            .root(n.name().equals(stageRoot))
                            .stage(part)
                            .build());
        }
        int depth = below + stageHeight.get(stageRoot);
        long workerTimeout = timeout * depth;

        List<Phase.Tree> trees = new ArrayList<>();
        List<DriverSpec> drivers = new ArrayList<>();
        Set<String> away = new TreeSet<>();
        StringBuilder note = new StringBuilder(
                "second stage at " + stageRoot + " over " + parts.size() + " partitions, A-BMs " + stage.aBms());
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            Map<String, JobTables> tables = new LinkedHashMap<>();
            for (Node n : s.topology().nodes()) {
                EndpointSet aBm = p.vat().aBm(n.name());
                boolean root = n.name().equals(p.root());
                long t = aBm != null
                        ? AllReduceUseCase.vatNodeTimeout(timeout, p.height().get(n.name()))
                        : timeout;
                tables.put(
                        n.name(),
                        JobTables.builder(
                                        job.name() + "/" + p.p().name(),
                                        job.common().tenant(),
                                        p.wireJob(),
                                        p.space().capacity(),
                                        t)
                                .bift(Bift.build(routing, n.name(), p.space()))
                                .vatNode(aBm, aBm != null ? p.vat().parent(n.name()) : null)
                                .root(root)
                                .stage(root ? stageTables.get(n.name()).stage() : null)
                                .build());
            }
            trees.add(new Phase.Tree(p.p().name(), p.wireJob(), p.space(), tables, p.root()));
            Map<String, String> uplink = new LinkedHashMap<>();
            p.p().members().forEach(m -> uplink.put(m, p.vat().parent(m)));
            AllReducePlan plan = ArrayPhases.plan(s, job, Mode.INA, wireJob, uplink, null, workerTimeout)
                    .silencing(silent)
                    .onPartition(p.wireJob(), p.space())
                    .withRtt(RoundTrip.of(
                            s,
                            routing,
                            p.p().members(),
                            n -> n.equals(p.root()) ? stage.parent(n) : p.vat().parent(n),
                            stageRoot,
                            job.data(),
                            Math.max(
                                    p.space().capacity(),
                                    job.common().bitSpace().capacity())));
            p.p().members().forEach(m -> drivers.add(new AllReduceDriver(AllReduceDriver.Role.WORKER, plan, m)));
            away.addAll(plan.silent());
            note.append("; ")
                    .append(p.p().name())
                    .append(" at ")
                    .append(p.root())
                    .append(" (")
                    .append(p.space().capacity())
                    .append(" bits, ")
                    .append(p.vat().aBms().size())
                    .append(" VAT nodes)");
        }
        AllReducePlan any = ((AllReduceDriver) drivers.get(0)).plan();
        Set<String> silentAll = new LinkedHashSet<>(silent);
        silentAll.addAll(any.silent());
        Phase.Expected expected = Phase.Expected.unless(
                away.stream().filter(job.common().members()::contains).collect(Collectors.toCollection(TreeSet::new)),
                Status.PARTIAL);
        return Phase.builder()
                .job(job)
                .mode(Mode.INA)
                .wireJob(wireJob)
                .tables(stageTables)
                .drivers(drivers)
                .awaited(Plans.awaited(job.common().members(), silentAll))
                .roots(List.of(stageRoot))
                .bitSpace(stageSpace)
                .timing(ArrayPhases.timing(any, ArrayPhases.deadline(job, depth)))
                .expected(expected)
                .note(note.toString())
                .more(trees)
                .build();
    }

    private static Vat built(Vat.Result r, AllReduceSpec job, String what) {
        if (r.vat() == null) {
            throw new IllegalStateException(
                    "cannot build a VAT for " + what + " of job '" + job.name() + "': " + r.defects());
        }
        return r.vat();
    }
}
