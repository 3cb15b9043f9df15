package org.bitina.usecase;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Node;
import org.bitina.topology.Vat;

/** What the planners of several use cases share: the fault plan as drivers see it, baseline tables, VAT heights. */
public final class Plans {
    private Plans() {}

    /**
     * The straggler and silent faults on a job's endpoints.
     *
     * @param perChunk whether a straggler's {@code chunks} apply (AllReduce chunks); else every unit is delayed
     */
    public record EndpointFaults(Map<String, Straggler> stragglers, Set<String> silent) {
        public static EndpointFaults of(Scenario s, List<String> endpoints, boolean perChunk) {
            Map<String, Straggler> stragglers = new LinkedHashMap<>();
            Set<String> silent = new LinkedHashSet<>();
            for (FaultSpec f : s.faults()) {
                if (f.node() == null || !endpoints.contains(f.node())) {
                    continue;
                }
                if (f.kind() == FaultSpec.Kind.STRAGGLER) {
                    stragglers.put(
                            f.node(),
                            new Straggler(
                                    f.delay().toNanos(),
                                    f.jitter().toNanos(),
                                    perChunk ? Set.copyOf(f.chunks()) : Set.of()));
                } else if (f.kind() == FaultSpec.Kind.SILENT) {
                    silent.add(f.node());
                }
            }
            return new EndpointFaults(stragglers, silent);
        }

        public long maxStraggleNanos() {
            return Straggler.longest(stragglers.values());
        }
    }

    /** Tables of a baseline: the job is known everywhere, so its packets are routed, but nothing aggregates or replicates. */
    public static Map<String, JobTables> bareTables(Scenario s, JobSpec job, int wireJob, Mode mode) {
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            tables.put(
                    n.name(),
                    JobTables.builder(
                                    job.name(),
                                    job.common().tenant(),
                                    wireJob,
                                    job.common().bitSpace().capacity(),
                                    job.common().completionTimeout().toNanos())
                            .mode(mode)
                            .build());
        }
        return tables;
    }

    /** The endpoints that end a phase: every member that is not silent. */
    public static Set<String> awaited(List<String> members, Set<String> silent) {
        Set<String> a = new LinkedHashSet<>(members);
        a.removeAll(silent);
        return a;
    }

    /** Height of every VAT node under {@code node} (1 for a node whose children are all endpoints). */
    public static int heights(Vat vat, String node, Map<String, Integer> out) {
        int h = 1;
        for (String c : vat.children(node)) {
            if (vat.aBm(c) != null) {
                h = Math.max(h, 1 + heights(vat, c, out));
            }
        }
        out.put(node, h);
        return h;
    }
}
