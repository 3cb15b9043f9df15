package org.bitina.usecase.broadcast;

import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobReader;
import org.bitina.topology.Topology;
import org.bitina.usecase.reduction.ArrayJobParts;

/** A broadcast job: its members, its root among them, and the root's data. */
final class BroadcastJobReader extends JobReader {
    static final String KIND = "broadcast";
    /** The root unicasts every chunk to each member, which acknowledges it to the root. */
    static final Mode UNICAST = new Mode("unicast");

    static final List<Mode> BASELINES = List.of(UNICAST);

    BroadcastJobReader() {
        super(KIND, BASELINES, BroadcastKeys.KEYS, List.of());
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        ArrayJobParts parts = ArrayJobParts.read(c, topology, index, KIND, BASELINES, dataKeys);
        String root = c.name("root", null);
        if (parts.members() != null) {
            if (!c.has("root")) {
                root = parts.members().get(0);
            } else if (root != null && !parts.members().contains(root)) {
                c.problem(c.origin("root"), "the root '" + root + "' is not a member of the job");
            }
            if (parts.members().size() < 2) {
                c.problem(c.origin(), "a broadcast needs at least one member besides its root");
            }
        }
        int maxRounds = c.intIn("max-rounds", 1, 1000, 16);
        if (c.problems().since(before) || parts.missing() || root == null) {
            return null;
        }
        return new BroadcastSpec(parts.common(), root, parts.data(), maxRounds);
    }
}
