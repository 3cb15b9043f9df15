package org.bitina.usecase.bierinc;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobHeader;
import org.bitina.scenario.JobParts;
import org.bitina.scenario.JobReader;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.ArrayKeys;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSection;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.usecase.reduction.Elastic;
import org.bitina.usecase.reduction.HostBaselines;

/**
 * A BIER-INC job (seed 001): AllReduce over one data-driven tree per owner, or Reduce to and
 * Broadcast from a {@code root} member; {@code edge = leaf-switches} gives the bit positions
 * to the members' leaf switches instead of the hosts (B6). It has no tree section: the
 * trees come from the data.
 */
public final class BierIncJobReader extends JobReader {
    static final String KIND = "bier-inc";

    public BierIncJobReader() {
        super(
                KIND,
                List.of(HostBaselines.RING, ArrayPhases.PS),
                ArrayKeys.with(BierIncKeys.JOB),
                List.of(ArrayKeys.MEMBERSHIP));
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        JobHeader header = JobHeader.read(c, index, kind(), List.of(ArrayPhases.PS, HostBaselines.RING), topology);
        List<String> members = JobParts.members(c, topology);
        Elastic elastic = Elastic.read(c, topology, members);
        // as AllReduce: every host that is ever a member holds a bit, and keeps it
        BitSpace space = JobParts.bitSpace(
                c, topology, elastic == null || members == null ? members : elastic.everMembers(members));
        EncodingSpec encoding = JobParts.encoding(c, topology, space);
        Shape shape = shape(c, topology, members, header == null ? null : header.baselines());
        DataSpec data = DataSection.read(c, kind(), topology, space, dataKeys);
        if (elastic != null
                && elastic.elastic()
                && shape != null
                && shape.collective() != IncPlan.Collective.ALLREDUCE) {
            c.problem("iterations", "an elastic bier-inc job (iterations, membership) runs the allreduce collective");
            return null;
        }
        if (elastic != null) {
            elastic.checkId(c, header);
        }
        if (c.problems().since(before) || header == null || shape == null || data == null || elastic == null) {
            return null;
        }
        return new BierIncSpec(
                header.common(KIND, members, space, encoding),
                shape.collective(),
                shape.root(),
                shape.leafEdge(),
                data,
                elastic);
    }

    /** What the job computes, from where, and over which edge. */
    private record Shape(IncPlan.Collective collective, String root, boolean leafEdge) {}

    private static Shape shape(ConfigReader c, Topology topology, List<String> members, List<Mode> baselines) {
        String name = c.name("collective", "allreduce");
        if (name == null) {
            return null;
        }
        IncPlan.Collective collective = switch (name) {
            case "allreduce" -> IncPlan.Collective.ALLREDUCE;
            case "reduce" -> IncPlan.Collective.REDUCE;
            case "broadcast" -> IncPlan.Collective.BROADCAST;
            default -> null;
        };
        if (collective == null) {
            c.problem("collective", "unknown collective '" + name + "' (expected allreduce, reduce or broadcast)");
            return null;
        }
        String root = c.name("root", null);
        if (collective == IncPlan.Collective.ALLREDUCE && root != null) {
            c.problem("root", "an allreduce has a tree rooted at every member; it takes no root");
            return null;
        }
        if (collective != IncPlan.Collective.ALLREDUCE) {
            if (root == null) {
                c.problem(c.origin(), "a " + name + " needs a root: one of the members");
                return null;
            }
            if (members != null && !members.contains(root)) {
                c.problem("root", "root '" + root + "' is not a member of the job");
                return null;
            }
            if (baselines != null && baselines.stream().anyMatch(b -> !b.equals(HostBaselines.RING))) {
                c.problem(
                        "baselines",
                        "a " + name + " compares with the ring (NCCL's pipelined chain); ps compares AllReduce");
                return null;
            }
        }
        String edge = c.name("edge", "hosts");
        if (edge == null) {
            return null;
        }
        if (!edge.equals("hosts") && !edge.equals("leaf-switches")) {
            c.problem("edge", "unknown edge '" + edge + "' (expected hosts or leaf-switches)");
            return null;
        }
        boolean leafEdge = edge.equals("leaf-switches");
        if (leafEdge && members != null) {
            for (String m : members) {
                List<String> up = topology.neighbors(m);
                if (up.size() != 1 || !topology.node(up.get(0)).isSwitch()) {
                    c.problem(
                            "edge",
                            "edge = leaf-switches needs every member on exactly one switch; " + m + " has " + up);
                    return null;
                }
            }
        }
        return members == null ? null : new Shape(collective, root, leafEdge);
    }
}
