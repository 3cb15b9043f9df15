package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.bitina.job.JobCommon;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;

/**
 * The INA phases of an elastic job (A8; AllReduce and BIER-INC), one per iteration: each over
 * its own members (an AllReduce's VAT built again for them, BIER-INC's trees rebuilt by their
 * first packets; bit positions stay), with its own data (the seed moves on by one per
 * iteration, as a training step's gradients would) and its own job number on the wire, so
 * that nothing of one iteration is ever counted in the next.
 */
public final class Iterations {
    /** A kind's INA phase for one iteration's members and data, with {@code silent} members besides the fault plan's. */
    public interface InaPhase {
        Phase of(JobCommon common, DataSpec data, Set<String> silent, int wireJob);
    }

    private Iterations() {}

    public static List<Phase> plan(
            Scenario s, Routing routing, ArrayPhases.JobSpecWithData job, Elastic elastic, InaPhase ina) {
        List<Elastic.Iteration> iterations = elastic.iterations(job.common().members());
        List<Phase> out = new ArrayList<>();
        Phase previous = null;
        for (Elastic.Iteration it : iterations) {
            JobCommon members = job.common().withMembers(it.members());
            DataSpec d = job.data();
            DataSpec data = new DataSpec(
                    d.elements(),
                    d.type(),
                    d.op(),
                    d.chunk(),
                    d.window(),
                    d.seed() + it.index() - 1,
                    d.fixedPointScale());
            Phase p = ina.of(
                    members, data, it.silent(), WireJobs.iteration(job.common().id(), it.index()));
            String root = p.roots().get(0);
            List<String> rewritten = previous == null ? List.of() : rewritten(s, previous, p);
            double micros = 2
                    * rewritten.stream()
                            .mapToLong(n -> latency(s, routing, root, n))
                            .max()
                            .orElse(0)
                    / 1000.0;
            List<String> silent =
                    it.members().stream().filter(it.silent()::contains).toList();
            out.add(p.withIteration(new Phase.Iteration(
                    it.index(), iterations.size(), it.members(), it.left(), it.joined(), silent, rewritten, micros)));
            previous = p;
        }
        return out;
    }

    /** The switches whose part of the job's tables changed: A-BM, VAT parent, root, or BIER-INC edge role. */
    private static List<String> rewritten(Scenario s, Phase before, Phase now) {
        List<String> out = new ArrayList<>();
        for (Node n : s.topology().switches()) {
            JobTables a = before.tables().get(n.name());
            JobTables b = now.tables().get(n.name());
            if (a == null
                    || b == null
                    || !Objects.equals(a.registered(), b.registered())
                    || !Objects.equals(a.vatParent(), b.vatParent())
                    || a.root() != b.root()
                    || !Objects.equals(a.edge(), b.edge())) {
                out.add(n.name());
            }
        }
        return out;
    }

    /** Modelled one-way latency from {@code from} to {@code to} along the routing's path. */
    private static long latency(Scenario s, Routing routing, String from, String to) {
        List<String> path = routing.path(from, to);
        long ns = 0;
        for (int i = 1; i < path.size(); i++) {
            ns += s.topology()
                    .linkBetween(path.get(i - 1), path.get(i))
                    .map(Link::spec)
                    .map(l -> l.latencyNanos())
                    .orElse(0L);
        }
        return ns;
    }
}
