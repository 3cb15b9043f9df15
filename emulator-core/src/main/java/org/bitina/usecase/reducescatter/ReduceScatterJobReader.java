package org.bitina.usecase.reducescatter;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobReader;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.ArrayJobParts;
import org.bitina.usecase.reduction.HostBaselines;

/** A reduce-scatter job (C1): members, data, and the root its aggregation tree is built for (A6). */
final class ReduceScatterJobReader extends JobReader {
    static final String KIND = "reduce-scatter";
    static final Mode RING = HostBaselines.RING;
    static final List<Mode> BASELINES = List.of(RING);

    ReduceScatterJobReader() {
        super(KIND, BASELINES, ReduceScatterKeys.KEYS, List.of());
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        ArrayJobParts parts = ArrayJobParts.read(c, topology, index, kind(), BASELINES, dataKeys);
        List<String> members = parts.members();
        String root = c.requiredName("root", "a reduce-scatter job's root");
        if (root != null && topology != null && !topology.has(root)) {
            c.problem("root", "root '" + root + "' is not a node of the topology");
        } else if (root != null && members != null && members.contains(root)) {
            c.problem("root", "root '" + root + "' is a member; the root is a switch or a host that is no member");
        }
        if (c.problems().since(before) || parts.missing() || root == null) {
            return null;
        }
        return new ReduceScatterSpec(parts.common(), root, parts.data());
    }
}
