package org.bitina.usecase.allreduce;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.job.WireJobs;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobReader;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Topology;
import org.bitina.topology.Vat;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.ArrayJobParts;
import org.bitina.usecase.reduction.ArrayKeys;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.usecase.reduction.Elastic;
import org.bitina.usecase.reduction.HostBaselines;
import org.bitina.usecase.reduction.ValueSecurity;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;

/** An AllReduce job (seed 000 section 3) over a configured VAT or one built automatically (A1, A6). */
public final class AllReduceJobReader extends JobReader {
    static final String KIND = "allreduce";
    /** The host baselines a job may list: the parameter server, and the schedules of {@link HostBaselines}. */
    static final List<Mode> BASELINES = List.of(
            ArrayPhases.PS,
            HostBaselines.RING,
            HostBaselines.TREE,
            HostBaselines.HALVING_DOUBLING,
            HostBaselines.HIERARCHICAL);

    public AllReduceJobReader() {
        super(
                KIND,
                BASELINES,
                ArrayKeys.with(AllReduceKeys.JOB),
                List.of(AllReduceKeys.TREE, AllReduceKeys.VAT, AllReduceKeys.SECURITY, ArrayKeys.MEMBERSHIP));
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        ArrayJobParts head = ArrayJobParts.head(c, topology, index, kind(), BASELINES);
        List<String> members = head.members();
        Elastic elastic = Elastic.read(c, topology, members);
        // an elastic job's bit space holds every host that is ever a member: positions never move
        ArrayJobParts spaced =
                head.over(c, topology, elastic == null || members == null ? members : elastic.everMembers(members));
        TreeSpec tree = tree(c, topology, spaced.space(), members);
        ArrayJobParts parts = spaced.withData(c, topology, dataKeys);
        DataSpec data = parts.data();
        if (elastic != null && elastic.elastic() && tree != null && tree.mode() != TreeSpec.Mode.AUTO) {
            c.problem(
                    "tree",
                    "an elastic job (iterations, membership) needs tree.mode = auto: its VAT is built again for each iteration's members");
            return null;
        }
        if (elastic != null) {
            elastic.checkId(c, head.header());
        }
        ValueSecurity values = values(c, data);
        Partitions partitions = Partitions.read(c, topology, members);
        if (partitions != null && partitions.any()) {
            partitionsFit(c, topology, tree, elastic, values);
            if (head.header() != null && head.header().id() > WireJobs.MAX_PARTITIONED_JOB_ID) {
                c.problem(
                        "id",
                        "a job over partitions has an id of at most " + WireJobs.MAX_PARTITIONED_JOB_ID
                                + ": partition i runs as " + WireJobs.PARTITION.base() + " + 1000 id + i on the wire");
            }
        }
        if (c.problems().since(before)
                || parts.missing()
                || tree == null
                || elastic == null
                || values == null
                || partitions == null) {
            return null;
        }
        return new AllReduceSpec(parts.common(), tree, data, elastic, values, partitions);
    }

    /**
     * H2: a job over partitions builds each partition's tree automatically, and its {@code tree.root}
     * roots the second stage: a switch. Elastic iterations and S6 are not built for partitions.
     */
    private static void partitionsFit(
            ConfigReader c, Topology topology, TreeSpec tree, Elastic elastic, ValueSecurity values) {
        if (tree != null && tree.mode() != TreeSpec.Mode.AUTO) {
            c.problem(
                    "partitions",
                    "partitions need tree.mode = auto: each partition's VAT is built for it, and tree.root is the "
                            + "second stage's root");
        }
        if (tree != null
                && topology != null
                && topology.has(tree.root())
                && !topology.node(tree.root()).isSwitch()) {
            c.problem(
                    "partitions",
                    "with partitions, tree.root is the second stage's root and must be a switch, not host '"
                            + tree.root() + "'");
        }
        if (elastic != null && elastic.elastic()) {
            c.problem("partitions", "partitions with iterations or membership (A8) are not built");
        }
        if (values != null && values.any()) {
            c.problem("partitions", "partitions with security { masking, checksum } (S6) are not built");
        }
    }

    /**
     * The job's {@code security { masking = on | off, checksum = on | off }} (S6; both off by
     * default). Both need an int32 sum: masks cancel only in a group (int32 wraps mod 2^32; float
     * addition rounds), and the checksum is linear only there (not under rounding, nor for max,
     * min or product). The checksum's words and the fallback ring's provenance are held to the MTU by
     * {@link WireBudget}.
     */
    private static ValueSecurity values(ConfigReader c, DataSpec data) {
        if (!c.has("security")) {
            return ValueSecurity.OFF;
        }
        ConfigReader s = c.object("security");
        if (s == null) {
            return null;
        }
        int before = s.problems().count();
        s.checkKeys(AllReduceKeys.SECURITY, "a job's security");
        boolean masking = "on".equals(s.oneOf("masking", List.of("on", "off"), "off"));
        boolean checksum = "on".equals(s.oneOf("checksum", List.of("on", "off"), "off"));
        if (data != null) {
            boolean group = data.type() == ElementType.INT32 && data.op() == ReductionOp.SUM;
            String what = data.type().name().toLowerCase(Locale.ROOT) + " "
                    + data.op().name().toLowerCase(Locale.ROOT);
            if (masking && !group) {
                s.problem(
                        "masking",
                        "masking needs an int32 sum (masks cancel only in a group: int32 wraps mod 2^32), not a " + what
                                + " job");
            }
            if (checksum && !group) {
                s.problem(
                        "checksum",
                        "the checksum needs an int32 sum (it is linear only there: not under float rounding, nor for "
                                + "max, min or product), not a " + what + " job");
            }
        }
        return s.problems().since(before) ? null : new ValueSecurity(masking, checksum);
    }

    /** The tree; its VAT is built and checked only when the topology and the members are known. */
    private static TreeSpec tree(ConfigReader c, Topology topology, BitSpace space, List<String> members) {
        if (!c.has("tree")) {
            c.problem(c.origin(), "an allreduce job needs a tree { mode = vat | auto, root = ... }");
            return null;
        }
        ConfigReader t = c.object("tree");
        if (t == null) {
            return null;
        }
        t.checkKeys(AllReduceKeys.TREE, "a tree");
        String mode = t.requiredName("mode", "tree.mode");
        String root = t.requiredName("root", "tree.root");
        if (mode == null || root == null) {
            return null;
        }
        if (topology != null && !topology.has(root)) {
            t.problem("root", "tree root '" + root + "' is not a node of the topology");
            return null;
        }
        switch (mode) {
            case "auto":
                if (t.has("vat")) {
                    t.problem("vat", "tree mode auto builds the VAT itself; remove the vat section or use mode = vat");
                    return null;
                }
                if (members != null && members.contains(root)) {
                    t.problem(
                            "root",
                            "tree root '" + root
                                    + "' is a job member; the root is a switch or a separate parameter server");
                    return null;
                }
                return members == null ? null : new TreeSpec(TreeSpec.Mode.AUTO, root, null);
            case "vat":
                return vat(t, topology, space, members, root);
            default:
                t.problem("mode", "unknown tree mode '" + mode + "' (expected vat or auto)");
                return null;
        }
    }

    private static TreeSpec vat(ConfigReader t, Topology topology, BitSpace space, List<String> members, String root) {
        if (!t.has("vat")) {
            t.problem(t.origin(), "tree mode vat needs a vat { node = [children] } section");
            return null;
        }
        ConfigReader vatReader = t.object("vat");
        if (vatReader == null) {
            return null;
        }
        ConfigObject vat = vatReader.config().root();
        Map<String, List<String>> children = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigValue> e : ConfigReader.inFileOrder(vat)) {
            if (e.getValue().valueType() != ConfigValueType.LIST) {
                t.problem(
                        e.getValue().origin(),
                        "VAT node '" + e.getKey() + "' must map to a list of children (got "
                                + ConfigReader.describe(e.getValue()) + ")");
                return null;
            }
            List<String> kids = new ArrayList<>();
            for (ConfigValue k : (ConfigList) e.getValue()) {
                String s = t.nameOf(k, "a child of VAT node '" + e.getKey() + "'");
                if (s == null) {
                    return null;
                }
                kids.add(s);
            }
            children.put(e.getKey(), kids);
        }
        if (topology == null || space == null || members == null) {
            return null;
        }
        Vat.Result r = Vat.build(topology, space, members, root, children);
        for (Vat.Defect d : r.defects()) {
            ConfigOrigin o = d.node() != null && vat.containsKey(d.node())
                    ? vat.get(d.node()).origin()
                    : vat.origin();
            t.problem(o, d.message());
        }
        return r.vat() == null ? null : new TreeSpec(TreeSpec.Mode.VAT, root, r.vat());
    }

    /** The attacks section may target its workers' contributions. */
    @Override
    public Attacks attacks() {
        return Attacks.CONTRIBUTIONS;
    }
}
