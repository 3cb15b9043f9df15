package org.bitina.scenario;

import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.HierarchicalBitmap;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;

/**
 * Values that several kinds of job share: members, bit space, encoding and hosts. Each
 * takes a topology that is null when the topology section is broken; the value is then
 * still checked for its shape, and what depends on the nodes is left unchecked.
 */
public final class JobParts {
    private JobParts() {}

    /** The job's members: a list of hosts and {@link HostSelector host selectors}, or one selector ({@code "all"}); null when missing, bad, or uncheckable. */
    public static List<String> members(ConfigReader c, Topology topology) {
        if (!c.has("members")) {
            c.problem(c.origin(), "a job needs members (a list of hosts, or \"all\")");
            return null;
        }
        ConfigValue v = c.value("members");
        if (v.valueType() != ConfigValueType.LIST && v.valueType() != ConfigValueType.STRING) {
            c.problem(v.origin(), "members must be a list of hosts or \"all\" (got " + ConfigReader.describe(v) + ")");
            return null;
        }
        List<HostLists.Named> named =
                HostLists.expand(c, HostLists.elements(c, "members"), topology, "a job member", Set.of());
        List<String> members = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean ok = named != null;
        for (HostLists.Named n : named == null ? List.<HostLists.Named>of() : named) {
            String name = n.name();
            ConfigValue m = n.from();
            if (topology != null && !topology.has(name)) {
                c.problem(m.origin(), "job member '" + name + "' is not a node of the topology");
                ok = false;
            } else if (topology != null && !topology.node(name).isHost()) {
                c.problem(m.origin(), "job member '" + name + "' is a switch; members must be hosts");
                ok = false;
            } else if (!seen.add(name)) {
                c.problem(m.origin(), "job member '" + name + "' is listed twice");
                ok = false;
            } else {
                members.add(name);
            }
        }
        if (ok
                && members.isEmpty()
                && (topology != null || HostLists.elements(c, "members").isEmpty())) {
            c.problem(v.origin(), "a job needs at least one member");
            ok = false;
        }
        return ok && topology != null ? members : null;
    }

    /**
     * Who holds a bit: the members, every host (as in the seed's Fig. 1), or explicit positions
     * ({@code bit-space { h4 = 1, h2 = 2 }}, BFR-ids as in RFC 8279: 1-based, unique, every
     * member one, any host may hold one); null when bad or unknown.
     */
    public static BitSpace bitSpace(ConfigReader c, Topology topology, List<String> members) {
        if (c.has("bit-space") && c.value("bit-space").valueType() == ConfigValueType.OBJECT) {
            if (topology == null || members == null) {
                return null;
            }
            List<String> positions = explicitBits(
                    c, members, topology.hosts().stream().map(Node::name).toList(), "host", true);
            return positions == null ? null : new BitSpace(positions);
        }
        String mode = c.name("bit-space", "members");
        if (mode == null) {
            return null;
        }
        if (!mode.equals("members") && !mode.equals("hosts")) {
            c.problem("bit-space", "bit-space must be \"members\" or \"hosts\", got '" + mode + "'");
            return null;
        }
        if (members == null || topology == null) {
            return null;
        }
        // with hosts every host holds its position; only members take part
        return new BitSpace(
                mode.equals("members")
                        ? members
                        : topology.hosts().stream().map(Node::name).toList());
    }

    /**
     * Explicit bit positions at {@code bit-space}: endpoint names to positions 1..n, as the
     * endpoints in position order (null where no endpoint holds a position); null with
     * problems recorded when a position repeats or is out of range, a name is not one of
     * {@code allowed} ({@code what}s), a member has no position, or (without {@code gaps}) the
     * positions are not exactly 1..n.
     */
    public static List<String> explicitBits(
            ConfigReader c, List<String> members, List<String> allowed, String what, boolean gaps) {
        ConfigReader b = c.object("bit-space");
        if (b == null) {
            return null;
        }
        int before = c.problems().count();
        TreeMap<Integer, String> at = new TreeMap<>();
        for (String name : b.keys()) {
            Integer pos = b.has(name) ? b.intIn(name, 1, EndpointSet.MAX_CAPACITY, -1) : null;
            if (pos == null || pos < 1) {
                continue;
            }
            if (!allowed.contains(name)) {
                b.problem(name, "bit-space names '" + name + "', which is no " + what + " of this job's topology");
            } else if (at.containsKey(pos)) {
                b.problem(name, "bit position " + pos + " is given to both " + at.get(pos) + " and " + name);
            } else {
                at.put(pos, name);
            }
        }
        List<String> without =
                members.stream().filter(m -> !at.containsValue(m)).toList();
        if (!without.isEmpty()) {
            c.problem("bit-space", "bit-space gives no position to " + without + " (every member needs one)");
        }
        if (!gaps && !at.isEmpty() && (at.firstKey() != 1 || at.lastKey() != at.size())) {
            c.problem(
                    "bit-space",
                    "bit positions must be exactly 1.." + at.size() + " here (one per " + what + "), got "
                            + at.keySet());
        }
        if (c.problems().since(before) || at.isEmpty()) {
            return null;
        }
        List<String> positions = new ArrayList<>(Collections.nCopies(at.lastKey(), (String) null));
        at.forEach((pos, name) -> positions.set(pos - 1, name));
        return positions;
    }

    /**
     * The endpoint-set encoding (H2): flat by default; {@code flat}, {@code hierarchical},
     * {@code node-list}, {@code { kind = hierarchical, block = 16 }}, or, translated at the
     * fabric's edge, {@code { hosts = node-list, fabric = hierarchical, block = 16 }} (host links
     * carry one, switch-to-switch links the other; {@code block} for whichever is hierarchical).
     * Null when bad.
     */
    public static EncodingSpec encoding(ConfigReader c, Topology topology, BitSpace space) {
        if (!c.has("encoding")) {
            return EncodingSpec.FLAT;
        }
        ConfigValue v = c.value("encoding");
        if (v.valueType() == ConfigValueType.STRING) {
            return encodingOf(c, v.origin(), (String) v.unwrapped(), null, topology, space);
        }
        if (v.valueType() != ConfigValueType.OBJECT) {
            c.problem(
                    v.origin(),
                    "encoding is flat, hierarchical, node-list, { kind = hierarchical, block = 16 } or"
                            + " { hosts = node-list, fabric = hierarchical } (got " + ConfigReader.describe(v) + ")");
            return null;
        }
        ConfigReader enc = c.object("encoding");
        enc.checkKeys(JobKeys.ENCODING, "encoding");
        Integer block = enc.has("block") ? enc.intIn("block", 1, HierarchicalBitmap.MAX_BLOCK_SIZE, 1) : null;
        if (enc.has("kind") == (enc.has("hosts") || enc.has("fabric"))) {
            enc.problem(
                    enc.origin(),
                    "encoding names either its kind (kind = hierarchical) or the encodings of both domains"
                            + " (hosts = node-list, fabric = hierarchical)");
            return null;
        }
        if (enc.has("kind")) {
            String kind = enc.requiredName("kind", "encoding.kind");
            return kind == null ? null : encodingOf(enc, enc.origin("kind"), kind, block, topology, space);
        }
        String hosts = enc.requiredName("hosts", "encoding.hosts (the encoding on host links)");
        String fabric = enc.requiredName("fabric", "encoding.fabric (the encoding between switches)");
        if (hosts == null || fabric == null) {
            return null;
        }
        EncodingSpec h = encodingOf(enc, enc.origin("hosts"), hosts, block, topology, space);
        EncodingSpec f = encodingOf(enc, enc.origin("fabric"), fabric, block, topology, space);
        return h == null || f == null ? null : new EncodingSpec(f.encoding(), f.blockSize(), h);
    }

    private static EncodingSpec encodingOf(
            ConfigReader c, ConfigOrigin origin, String kind, Integer block, Topology topology, BitSpace space) {
        switch (kind) {
            case "flat":
                return EncodingSpec.FLAT;
            case "node-list":
                return new EncodingSpec(Encoding.NODE_LIST, 1);
            case "hierarchical":
                return new EncodingSpec(Encoding.HIERARCHICAL, block != null ? block : defaultBlock(topology, space));
            default:
                c.problem(origin, "unknown encoding '" + kind + "' (expected flat, hierarchical or node-list)");
                return null;
        }
    }

    /** Blocks follow the pods: the largest number of bit-space endpoints any pod holds. */
    private static int defaultBlock(Topology topology, BitSpace space) {
        if (space == null || topology == null) {
            return 1;
        }
        Map<Integer, Integer> perPod = new LinkedHashMap<>();
        for (String e : space.endpoints()) {
            if (e != null && topology.has(e)) {
                perPod.merge(topology.node(e).pod(), 1, Integer::sum);
            }
        }
        int max = perPod.values().stream().mapToInt(Integer::intValue).max().orElse(1);
        return Math.max(1, Math.min(max, HierarchicalBitmap.MAX_BLOCK_SIZE));
    }

    /** Whether {@code name} is a host; true when the topology is broken and nothing can be checked. */
    public static boolean requireHost(
            ConfigReader c, ConfigOrigin origin, String name, String what, Topology topology) {
        if (topology == null) {
            return true;
        }
        if (!topology.has(name)) {
            c.problem(origin, what + " '" + name + "' is not a node of the topology");
            return false;
        }
        if (!topology.node(name).isHost()) {
            c.problem(origin, what + " '" + name + "' is a switch; it must be a host");
            return false;
        }
        return true;
    }
}
