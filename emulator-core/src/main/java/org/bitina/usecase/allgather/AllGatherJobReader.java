package org.bitina.usecase.allgather;

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
import org.bitina.usecase.reduction.DataSection;
import org.bitina.usecase.reduction.DataSpec;
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
        JobHeader header = JobHeader.read(c, index, kind(), BASELINES, topology);
        List<String> members = JobParts.members(c, topology);
        BitSpace space = JobParts.bitSpace(c, topology, members);
        EncodingSpec encoding = JobParts.encoding(c, topology, space);
        DataSpec data = DataSection.read(c, kind(), topology, space, dataKeys);
        if (c.problems().since(before) || header == null || members == null || data == null) {
            return null;
        }
        return new AllGatherSpec(header.common(KIND, members, space, encoding), data);
    }
}
