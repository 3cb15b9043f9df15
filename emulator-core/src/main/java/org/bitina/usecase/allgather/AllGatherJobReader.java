package org.bitina.usecase.allgather;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobReader;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.ArrayJobParts;
import org.bitina.usecase.reduction.HostBaselines;

/** An all-gather job (C2): its members and their data. */
final class AllGatherJobReader extends JobReader {
    static final String KIND = "all-gather";
    static final Mode RING = HostBaselines.RING;
    static final List<Mode> BASELINES = List.of(RING);

    AllGatherJobReader() {
        super(KIND, BASELINES, AllGatherKeys.KEYS, List.of());
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        ArrayJobParts parts = ArrayJobParts.read(c, topology, index, kind(), BASELINES, dataKeys);
        if (c.problems().since(before) || parts.missing()) {
            return null;
        }
        return new AllGatherSpec(parts.common(), parts.data());
    }
}
