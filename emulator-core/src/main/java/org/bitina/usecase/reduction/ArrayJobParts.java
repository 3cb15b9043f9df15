package org.bitina.usecase.reduction;

import java.util.List;
import org.bitina.job.JobCommon;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobHeader;
import org.bitina.scenario.JobParts;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Topology;

/**
 * What the array kinds' readers (allreduce, reduce-scatter, all-gather) read the same way, in the
 * same order: the job's header and members, the bit space and its encoding, the data. A part is null
 * when its value is missing or bad (the problem is recorded), as {@link JobHeader} and {@link JobParts}
 * return them; the reader adds its own keys between the steps or after them.
 */
public record ArrayJobParts(
        String kind, JobHeader header, List<String> members, BitSpace space, EncodingSpec encoding, DataSpec data) {

    /** Header, members, bit space over the members, encoding, data: all an array kind without keys of its own reads. */
    public static ArrayJobParts read(
            ConfigReader c, Topology topology, int index, String kind, List<Mode> baselines, Section dataKeys) {
        ArrayJobParts head = head(c, topology, index, kind, baselines);
        return head.over(c, topology, head.members()).withData(c, topology, dataKeys);
    }

    /** The header and the members: the first step. */
    public static ArrayJobParts head(ConfigReader c, Topology topology, int index, String kind, List<Mode> baselines) {
        JobHeader header = JobHeader.read(c, index, kind, baselines, topology);
        List<String> members = JobParts.members(c, topology);
        return new ArrayJobParts(kind, header, members, null, null, null);
    }

    /**
     * The bit space and its encoding, over {@code holders}: the members, or every host an elastic job ever has
     * as one (positions never move).
     */
    public ArrayJobParts over(ConfigReader c, Topology topology, List<String> holders) {
        BitSpace s = JobParts.bitSpace(c, topology, holders);
        EncodingSpec e = JobParts.encoding(c, topology, s);
        return new ArrayJobParts(kind, header, members, s, e, data);
    }

    /** The {@code data} section, over the bit space. */
    public ArrayJobParts withData(ConfigReader c, Topology topology, Section dataKeys) {
        return new ArrayJobParts(
                kind, header, members, space, encoding, DataSection.read(c, kind, topology, space, dataKeys));
    }

    /** Whether a part the spec needs is missing (its problem is recorded). */
    public boolean missing() {
        return header == null || members == null || data == null;
    }

    /** What every job has, of these parts. */
    public JobCommon common() {
        return header.common(kind, members, space, encoding);
    }
}
