package org.bitina.topology;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.HierarchicalBitmap;
import org.bitina.wire.ElementType;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.ReductionOp;

/**
 * Reads a scenario file (HOCON, requirement E3) into a validated {@link Scenario}. Every
 * problem found is collected with the file and line of the offending value, and nothing
 * is returned unless the whole file is valid: a bad file never half-runs. The file format
 * is described in the README; topology-configs/ has examples of every part.
 */
public final class TopologyLoader {
    private static final Set<String> TOP_KEYS = Set.of("topology", "jobs", "faults", "cluster", "defaults", "defs");
    private static final Set<String> TOPOLOGY_KEYS = Set.of("switches", "hosts", "links", "link-defaults", "pods", "generator");
    private static final Set<String> LINK_KEYS = Set.of("latency", "bandwidth", "mtu", "loss");
    private static final Set<String> JOB_KEYS = Set.of("name", "kind", "tenant", "id", "members", "bit-space", "encoding",
            "tree", "data", "completion-timeout", "baselines", "sources", "experts", "moe", "source", "receivers", "ack", "max-rounds", "collective", "edge",
            "root");
    private static final Set<String> FAULT_KEYS = Set.of("at", "kind", "node", "link", "delay", "jitter", "rate", "chunks", "member");
    private static final Pattern BANDWIDTH = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)bps");
    private static final Duration DEFAULT_COMPLETION_TIMEOUT = Duration.ofMillis(50);

    private final String displayName;
    private final String absolutePath;
    private final List<Problem> problems = new ArrayList<>();

    private TopologyLoader(Path file) {
        this.displayName = file.toString();
        this.absolutePath = file.toAbsolutePath().normalize().toString();
    }

    /** Loads and validates {@code file}; throws with every problem found. */
    public static Scenario load(Path file) throws ScenarioException {
        return new TopologyLoader(file).run(file);
    }

    private Scenario run(Path file) throws ScenarioException {
        if (!Files.isRegularFile(file)) {
            throw new ScenarioException(List.of(new Problem(displayName, 1, "no such file")));
        }
        Config root;
        try {
            root = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).resolve();
        } catch (ConfigException e) {
            problem(e.origin(), stripOrigin(e));
            throw new ScenarioException(problems);
        }
        checkKeys(root.root(), TOP_KEYS, "a scenario");
        Topology topology = null;
        if (!root.hasPath("topology")) {
            problem(root.origin(), "missing 'topology' section");
        } else {
            topology = topology(root.getConfig("topology"));
        }
        List<JobSpec> jobs = new ArrayList<>();
        List<FaultSpec> faults = new ArrayList<>();
        ClusterSpec cluster = ClusterSpec.SINGLE;
        if (topology != null) {
            Config defaults = root.hasPath("defaults") ? root.getConfig("defaults") : ConfigFactory.empty();
            jobs = jobs(root, topology, defaults);
            faults = faults(root, topology);
            cluster = cluster(root, topology);
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        return new Scenario(displayName, topology, List.copyOf(jobs), List.copyOf(faults), cluster);
    }

    // ---------------------------------------------------------------- topology

    private Topology topology(Config t) {
        checkKeys(t.root(), TOPOLOGY_KEYS, "the topology");
        LinkSpec defaults = LinkSpec.DEFAULT;
        if (t.hasPath("link-defaults")) {
            defaults = linkSpec(t.getConfig("link-defaults"), LinkSpec.DEFAULT);
            checkKeys(t.getObject("link-defaults"), LINK_KEYS, "link-defaults");
        }
        if (defaults == null) {
            return null;
        }
        if (t.hasPath("generator")) {
            if (t.hasPath("switches") || t.hasPath("hosts") || t.hasPath("links")) {
                problem(t.getValue("generator").origin(), "a topology has either a generator or switches/hosts/links, not both");
                return null;
            }
            return generated(t.getConfig("generator"), defaults);
        }
        List<Node> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Map<String, Integer> pods = pods(t);
        for (String kindKey : List.of("switches", "hosts")) {
            NodeKind kind = kindKey.equals("switches") ? NodeKind.SWITCH : NodeKind.HOST;
            if (!t.hasPath(kindKey)) {
                problem(t.root().origin(), "missing topology." + kindKey);
                continue;
            }
            ConfigList list = list(t, kindKey);
            if (list == null) {
                continue;
            }
            for (ConfigValue v : list) {
                String name = string(v);
                if (name == null) {
                    continue;
                }
                if (!names.add(name)) {
                    problem(v.origin(), "duplicate node name '" + name + "'");
                    continue;
                }
                nodes.add(new Node(name, kind, pods.getOrDefault(name, -1)));
            }
        }
        pods.keySet().stream().filter(n -> !names.contains(n)).forEach(n ->
                problem(t.getValue("pods").origin(), "pods name '" + n + "', which is not a node"));
        List<Link> links = new ArrayList<>();
        if (!t.hasPath("links")) {
            problem(t.root().origin(), "missing topology.links");
        } else {
            ConfigList list = list(t, "links");
            if (list != null) {
                for (ConfigValue v : list) {
                    Link l = link(v, names, defaults, links);
                    if (l != null) {
                        links.add(l);
                    }
                }
            }
        }
        if (!problemsSince(0)) {
            Topology topology = new Topology(nodes, links);
            List<String> unreachable = topology.unreachableFromFirst();
            if (!unreachable.isEmpty()) {
                problem(t.getValue("links").origin(), "the topology is disconnected: " + String.join(", ", unreachable)
                        + " cannot be reached from " + nodes.get(0).name());
                return null;
            }
            for (Node n : topology.hosts()) {
                if (topology.linksOf(n.name()).isEmpty()) {
                    problem(t.getValue("hosts").origin(), "host '" + n.name() + "' has no link");
                }
            }
            return topology;
        }
        return null;
    }

    private boolean problemsSince(int count) {
        return problems.size() > count;
    }

    private Map<String, Integer> pods(Config t) {
        Map<String, Integer> pods = new LinkedHashMap<>();
        if (!t.hasPath("pods")) {
            return pods;
        }
        ConfigObject obj = object(t, "pods");
        if (obj == null) {
            return pods;
        }
        int index = 1;
        for (Map.Entry<String, ConfigValue> e : inFileOrder(obj)) {
            if (e.getValue().valueType() != ConfigValueType.LIST) {
                problem(e.getValue().origin(), "pod '" + e.getKey() + "' must be a list of node names");
                continue;
            }
            for (ConfigValue v : (ConfigList) e.getValue()) {
                String n = string(v);
                if (n != null && pods.put(n, index) != null) {
                    problem(v.origin(), "node '" + n + "' is in two pods");
                }
            }
            index++;
        }
        return pods;
    }

    private Link link(ConfigValue v, Set<String> names, LinkSpec defaults, List<Link> existing) {
        String a;
        String b;
        LinkSpec spec = defaults;
        if (v.valueType() == ConfigValueType.LIST) {
            ConfigList pair = (ConfigList) v;
            if (pair.size() != 2) {
                problem(v.origin(), "a link is a pair [a, b], got " + pair.size() + " elements");
                return null;
            }
            a = string(pair.get(0));
            b = string(pair.get(1));
        } else if (v.valueType() == ConfigValueType.OBJECT) {
            Config c = ((ConfigObject) v).toConfig();
            Set<String> known = new HashSet<>(LINK_KEYS);
            known.add("between");
            checkKeys((ConfigObject) v, known, "a link");
            if (!c.hasPath("between")) {
                problem(v.origin(), "a link object needs between = [a, b]");
                return null;
            }
            ConfigList pair = list(c, "between");
            if (pair == null || pair.size() != 2) {
                problem(v.origin(), "between must name exactly two nodes");
                return null;
            }
            a = string(pair.get(0));
            b = string(pair.get(1));
            spec = linkSpec(c, defaults);
        } else {
            problem(v.origin(), "a link is [a, b] or { between = [a, b], latency = ..., bandwidth = ... }");
            return null;
        }
        if (a == null || b == null || spec == null) {
            return null;
        }
        boolean ok = true;
        for (String end : List.of(a, b)) {
            if (!names.contains(end)) {
                problem(v.origin(), "link [" + a + ", " + b + "] names unknown node '" + end + "'");
                ok = false;
            }
        }
        if (ok && a.equals(b)) {
            problem(v.origin(), "link [" + a + ", " + b + "] connects a node to itself");
            ok = false;
        }
        if (ok && existing.stream().anyMatch(l -> l.joins(a, b))) {
            problem(v.origin(), "duplicate link [" + a + ", " + b + "]");
            ok = false;
        }
        return ok ? new Link(a, b, spec) : null;
    }

    private LinkSpec linkSpec(Config c, LinkSpec base) {
        int before = problems.size();
        long latency = c.hasPath("latency") ? durationNanos(c, "latency") : base.latencyNanos();
        long bandwidth = c.hasPath("bandwidth") ? bandwidth(c, "bandwidth") : base.bandwidthBps();
        int mtu = c.hasPath("mtu") ? intIn(c, "mtu", PacketCodec.HEADER_BYTES + 24, 1 << 20) : base.mtu();
        double loss = c.hasPath("loss") ? fraction(c, "loss") : base.loss();
        if (problemsSince(before)) {
            return null;
        }
        return new LinkSpec(latency, bandwidth, mtu, loss);
    }

    private Topology generated(Config g, LinkSpec spec) {
        String kind = requiredString(g, "generator.kind", "kind");
        if (kind == null) {
            return null;
        }
        try {
            switch (kind) {
                case "fat-tree": {
                    checkKeys(g.root(), Set.of("kind", "k"), "a fat-tree generator");
                    Integer k = requiredInt(g, "k");
                    if (k == null) {
                        return null;
                    }
                    if (k < 2 || k % 2 != 0 || k > 64) {
                        problem(g.getValue("k").origin(), "fat-tree k must be an even number from 2 to 64, got " + k);
                        return null;
                    }
                    return Topologies.fatTree(k, spec);
                }
                case "leaf-spine": {
                    checkKeys(g.root(), Set.of("kind", "spines", "leaves", "hosts-per-leaf"), "a leaf-spine generator");
                    Integer spines = requiredInt(g, "spines");
                    Integer leaves = requiredInt(g, "leaves");
                    Integer hosts = requiredInt(g, "hosts-per-leaf");
                    if (spines == null || leaves == null || hosts == null) {
                        return null;
                    }
                    return Topologies.leafSpine(spines, leaves, hosts, spec);
                }
                case "paper-fig1":
                    checkKeys(g.root(), Set.of("kind"), "the paper-fig1 generator");
                    return Topologies.paperFig1(spec);
                default:
                    problem(g.getValue("kind").origin(), "unknown generator '" + kind + "' (expected fat-tree, leaf-spine or paper-fig1)");
                    return null;
            }
        } catch (IllegalArgumentException e) {
            problem(g.root().origin(), e.getMessage());
            return null;
        }
    }

    // ---------------------------------------------------------------- jobs

    private List<JobSpec> jobs(Config root, Topology topology, Config defaults) {
        List<JobSpec> jobs = new ArrayList<>();
        if (!root.hasPath("jobs")) {
            return jobs;
        }
        ConfigList list = list(root, "jobs");
        if (list == null) {
            return jobs;
        }
        Set<String> names = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            ConfigValue v = list.get(i);
            if (v.valueType() != ConfigValueType.OBJECT) {
                problem(v.origin(), "a job is an object { name = ..., kind = ... }");
                continue;
            }
            Config job = ((ConfigObject) v).toConfig().withFallback(defaults);
            checkKeys((ConfigObject) v, JOB_KEYS, "a job");
            JobSpec spec = job(job, (ConfigObject) v, i, topology);
            if (spec == null) {
                continue;
            }
            if (!names.add(spec.name())) {
                problem(job.getValue("name").origin(), "duplicate job name '" + spec.name() + "'");
            }
            String key = spec.common().tenant() + "/" + spec.common().id();
            if (!ids.add(key)) {
                problem(v.origin(), "job '" + spec.name() + "' reuses tenant " + spec.common().tenant() + " job id "
                        + spec.common().id() + "; (tenant, id) names one job");
            }
            jobs.add(spec);
        }
        return jobs;
    }

    private JobSpec job(Config c, ConfigObject obj, int index, Topology topology) {
        int before = problems.size();
        String name = requiredString(c, "a job's name", "name");
        String kindName = requiredString(c, "a job's kind", "kind");
        if (name == null || kindName == null) {
            return null;
        }
        JobKind kind;
        try {
            kind = JobKind.fromConfig(kindName);
        } catch (IllegalArgumentException e) {
            problem(c.getValue("kind").origin(), e.getMessage());
            return null;
        }
        int tenant = c.hasPath("tenant") ? intIn(c, "tenant", 0, 0xFFFF) : 0;
        int id = c.hasPath("id") ? intIn(c, "id", 1, Integer.MAX_VALUE) : index + 1;
        Duration timeout = c.hasPath("completion-timeout") ? positiveDuration(c, "completion-timeout") : DEFAULT_COMPLETION_TIMEOUT;
        List<String> baselines = c.hasPath("baselines") ? stringList(c, "baselines") : List.of();
        Set<String> allowedBaselines = switch (kind) {
            case ALLREDUCE -> Set.of("ring", "ps");
            case RELIABLE_MULTICAST -> Set.of("unicast-ack");
            case BIER_INC -> Set.of("ring", "ps");
            default -> Set.of("all-to-all");
        };
        if (baselines != null) {
            for (String b : baselines) {
                if (!allowedBaselines.contains(b)) {
                    problem(c.getValue("baselines").origin(), "unknown baseline '" + b + "' for a " + kindName
                            + " job (expected " + String.join(" or ", new java.util.TreeSet<>(allowedBaselines)) + ")");
                }
            }
        }
        if (kind == JobKind.RELIABLE_MULTICAST) {
            return multicast(c, topology, name, kind, tenant, id, timeout, baselines, before);
        }
        if (kind == JobKind.ALLREDUCE || kind == JobKind.BIER_INC) {
            List<String> members = members(c, topology);
            BitSpace space = members == null ? null : bitSpace(c, topology, members);
            EncodingSpec encoding = encoding(c, topology, space);
            if (space == null || problemsSince(before)) {
                return null;
            }
            JobCommon common = new JobCommon(name, kind, tenant, id, members, space, encoding, timeout, baselines);
            TreeSpec tree = kind == JobKind.BIER_INC ? bierInc(c, topology, members, baselines) : tree(c, topology, space, members);
            DataSpec data = data(c, topology, space);
            if (tree == null || data == null || problemsSince(before)) {
                return null;
            }
            return new JobSpec.AllReduce(common, tree, data);
        }
        return moe(c, topology, name, kind, tenant, id, timeout, baselines, before);
    }

    /**
     * A BIER-INC job (seed 001): AllReduce over one data-driven tree per owner, or Reduce to
     * and Broadcast from a {@code root} member; {@code edge = leaf-switches} gives the bit
     * positions to the members' leaf switches instead of the hosts (B6).
     */
    private TreeSpec bierInc(Config c, Topology topology, List<String> members, List<String> baselines) {
        if (c.hasPath("tree")) {
            problem(c.getValue("tree").origin(), "a bier-inc job builds its trees from the data; it takes no tree section");
            return null;
        }
        String name = c.hasPath("collective") ? string(c.getValue("collective")) : "allreduce";
        if (name == null) {
            return null;
        }
        TreeSpec.Collective collective = switch (name) {
            case "allreduce" -> TreeSpec.Collective.ALLREDUCE;
            case "reduce" -> TreeSpec.Collective.REDUCE;
            case "broadcast" -> TreeSpec.Collective.BROADCAST;
            default -> null;
        };
        if (collective == null) {
            problem(c.getValue("collective").origin(), "unknown collective '" + name + "' (expected allreduce, reduce or broadcast)");
            return null;
        }
        String root = c.hasPath("root") ? string(c.getValue("root")) : null;
        if (collective == TreeSpec.Collective.ALLREDUCE && root != null) {
            problem(c.getValue("root").origin(), "an allreduce has a tree rooted at every member; it takes no root");
            return null;
        }
        if (collective != TreeSpec.Collective.ALLREDUCE) {
            if (root == null) {
                problem(c.origin(), "a " + name + " needs a root: one of the members");
                return null;
            }
            if (!members.contains(root)) {
                problem(c.getValue("root").origin(), "root '" + root + "' is not a member of the job");
                return null;
            }
            if (baselines != null && !baselines.isEmpty()) {
                problem(c.getValue("baselines").origin(), "the ring and ps baselines compare AllReduce; a " + name + " has none");
                return null;
            }
        }
        String edge = c.hasPath("edge") ? string(c.getValue("edge")) : "hosts";
        if (edge == null) {
            return null;
        }
        if (!edge.equals("hosts") && !edge.equals("leaf-switches")) {
            problem(c.getValue("edge").origin(), "unknown edge '" + edge + "' (expected hosts or leaf-switches)");
            return null;
        }
        boolean leafEdge = edge.equals("leaf-switches");
        if (leafEdge) {
            for (String m : members) {
                List<String> up = topology.neighbors(m);
                if (up.size() != 1 || !topology.node(up.get(0)).isSwitch()) {
                    problem(c.getValue("edge").origin(), "edge = leaf-switches needs every member on exactly one switch; " + m
                            + " has " + up);
                    return null;
                }
            }
        }
        return new TreeSpec(TreeSpec.Mode.BIER_INC, root, null, collective, leafEdge);
    }

    private List<String> members(Config c, Topology topology) {
        if (!c.hasPath("members")) {
            problem(c.root().origin(), "a job needs members (a list of hosts, or \"all\")");
            return null;
        }
        ConfigValue v = c.getValue("members");
        if (v.valueType() == ConfigValueType.STRING && "all".equals(v.unwrapped())) {
            return topology.hosts().stream().map(Node::name).toList();
        }
        if (v.valueType() != ConfigValueType.LIST) {
            problem(v.origin(), "members must be a list of hosts or \"all\"");
            return null;
        }
        List<String> members = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean ok = true;
        for (ConfigValue m : (ConfigList) v) {
            String name = string(m);
            if (name == null) {
                ok = false;
            } else if (!topology.has(name)) {
                problem(m.origin(), "job member '" + name + "' is not a node of the topology");
                ok = false;
            } else if (!topology.node(name).isHost()) {
                problem(m.origin(), "job member '" + name + "' is a switch; members must be hosts");
                ok = false;
            } else if (!seen.add(name)) {
                problem(m.origin(), "job member '" + name + "' is listed twice");
                ok = false;
            } else {
                members.add(name);
            }
        }
        if (ok && members.isEmpty()) {
            problem(v.origin(), "a job needs at least one member");
            ok = false;
        }
        return ok ? members : null;
    }

    private BitSpace bitSpace(Config c, Topology topology, List<String> members) {
        String mode = c.hasPath("bit-space") ? string(c.getValue("bit-space")) : "members";
        if (mode == null) {
            return null;
        }
        switch (mode) {
            case "members":
                return new BitSpace(members);
            case "hosts": {
                // every host holds its position (as in the seed's Fig. 1); only members take part
                return new BitSpace(topology.hosts().stream().map(Node::name).toList());
            }
            default:
                problem(c.getValue("bit-space").origin(), "bit-space must be \"members\" or \"hosts\", got '" + mode + "'");
                return null;
        }
    }

    private EncodingSpec encoding(Config c, Topology topology, BitSpace space) {
        if (!c.hasPath("encoding")) {
            return EncodingSpec.FLAT;
        }
        ConfigValue v = c.getValue("encoding");
        String kind;
        Config enc = null;
        if (v.valueType() == ConfigValueType.STRING) {
            kind = (String) v.unwrapped();
        } else if (v.valueType() == ConfigValueType.OBJECT) {
            enc = c.getConfig("encoding");
            checkKeys(enc.root(), Set.of("kind", "block"), "encoding");
            kind = requiredString(enc, "encoding.kind", "kind");
            if (kind == null) {
                return null;
            }
        } else {
            problem(v.origin(), "encoding is flat, hierarchical, node-list or { kind = hierarchical, block = 16 }");
            return null;
        }
        switch (kind) {
            case "flat":
                return EncodingSpec.FLAT;
            case "node-list":
                return new EncodingSpec(Encoding.NODE_LIST, 1);
            case "hierarchical": {
                int block;
                if (enc != null && enc.hasPath("block")) {
                    block = intIn(enc, "block", 1, HierarchicalBitmap.MAX_BLOCK_SIZE);
                } else {
                    block = defaultBlock(topology, space);
                }
                return new EncodingSpec(Encoding.HIERARCHICAL, block);
            }
            default:
                problem(v.origin(), "unknown encoding '" + kind + "' (expected flat, hierarchical or node-list)");
                return null;
        }
    }

    /** Blocks follow the pods: the largest number of bit-space endpoints any pod holds. */
    private static int defaultBlock(Topology topology, BitSpace space) {
        if (space == null) {
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

    private TreeSpec tree(Config c, Topology topology, BitSpace space, List<String> members) {
        if (!c.hasPath("tree")) {
            problem(c.root().origin(), "an allreduce job needs a tree { mode = vat | auto, root = ... }");
            return null;
        }
        Config t = c.getConfig("tree");
        checkKeys(t.root(), Set.of("mode", "root", "vat"), "a tree");
        String mode = requiredString(t, "tree.mode", "mode");
        String root = requiredString(t, "tree.root", "root");
        if (mode == null || root == null) {
            return null;
        }
        if (!topology.has(root)) {
            problem(t.getValue("root").origin(), "tree root '" + root + "' is not a node of the topology");
            return null;
        }
        switch (mode) {
            case "auto":
                if (t.hasPath("vat")) {
                    problem(t.getValue("vat").origin(), "tree mode auto builds the VAT itself; remove the vat section or use mode = vat");
                    return null;
                }
                if (members.contains(root)) {
                    problem(t.getValue("root").origin(), "tree root '" + root + "' is a job member; the root is a switch or a separate parameter server");
                    return null;
                }
                return new TreeSpec(TreeSpec.Mode.AUTO, root, null);
            case "vat": {
                if (!t.hasPath("vat")) {
                    problem(t.root().origin(), "tree mode vat needs a vat { node = [children] } section");
                    return null;
                }
                ConfigObject vat = object(t, "vat");
                if (vat == null) {
                    return null;
                }
                Map<String, List<String>> children = new LinkedHashMap<>();
                for (Map.Entry<String, ConfigValue> e : inFileOrder(vat)) {
                    if (e.getValue().valueType() != ConfigValueType.LIST) {
                        problem(e.getValue().origin(), "VAT node '" + e.getKey() + "' must map to a list of children");
                        return null;
                    }
                    List<String> kids = new ArrayList<>();
                    for (ConfigValue k : (ConfigList) e.getValue()) {
                        String s = string(k);
                        if (s == null) {
                            return null;
                        }
                        kids.add(s);
                    }
                    children.put(e.getKey(), kids);
                }
                Vat.Result r = Vat.build(topology, space, members, root, children);
                for (Vat.Defect d : r.defects()) {
                    ConfigOrigin o = d.node() != null && vat.containsKey(d.node()) ? vat.get(d.node()).origin() : vat.origin();
                    problem(o, d.message());
                }
                return r.vat() == null ? null : new TreeSpec(TreeSpec.Mode.VAT, root, r.vat());
            }
            default:
                problem(t.getValue("mode").origin(), "unknown tree mode '" + mode + "' (expected vat or auto)");
                return null;
        }
    }

    private DataSpec data(Config c, Topology topology, BitSpace space) {
        if (!c.hasPath("data")) {
            problem(c.root().origin(), "an allreduce job needs a data { elements, type, op, chunk, window, seed } section");
            return null;
        }
        Config d = c.getConfig("data");
        checkKeys(d.root(), Set.of("elements", "type", "op", "chunk", "window", "seed", "scale"), "data");
        int before = problems.size();
        Integer elements = d.hasPath("elements") ? intIn(d, "elements", 1, 1 << 28) : missing(d, "data.elements");
        String type = d.hasPath("type") ? string(d.getValue("type")) : "float32";
        String op = d.hasPath("op") ? string(d.getValue("op")) : "sum";
        int chunk = d.hasPath("chunk") ? intIn(d, "chunk", 1, 1 << 20) : 256;
        int window = d.hasPath("window") ? intIn(d, "window", 1, 1 << 16) : 32;
        long seed = d.hasPath("seed") ? longValue(d, "seed") : 1;
        int scale = d.hasPath("scale") ? intIn(d, "scale", 1, 1 << 24) : 1024;
        ElementType elementType = null;
        if ("float32".equals(type)) {
            elementType = ElementType.FLOAT32;
        } else if ("int32".equals(type)) {
            elementType = ElementType.INT32;
        } else if (type != null) {
            problem(d.getValue("type").origin(), "data type must be float32 or int32, got '" + type + "'");
        }
        ReductionOp reduction = null;
        if (op != null) {
            try {
                reduction = ReductionOp.valueOf(op.toUpperCase(Locale.ROOT));
                if (reduction == ReductionOp.NONE) {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                problem(d.getValue("op").origin(), "op must be sum, product, max or min, got '" + op + "'");
            }
        }
        if (problemsSince(before) || elements == null) {
            return null;
        }
        int minMtu = topology.links().stream().mapToInt(l -> l.spec().mtu()).min().orElse(Integer.MAX_VALUE);
        // a chunk travels as one packet: header, flat bitmap and payload must fit every link
        long chunkBytes = (long) chunk * elementType.bytes() + PacketCodec.HEADER_BYTES + (space.capacity() + 7) / 8;
        if (chunkBytes > minMtu) {
            problem(d.hasPath("chunk") ? d.getValue("chunk").origin() : d.root().origin(),
                    "a chunk of " + chunk + " " + type + " is " + chunkBytes + " bytes with its header, more than the smallest link MTU of "
                            + minMtu + " bytes");
            return null;
        }
        return new DataSpec(elements, elementType, reduction, chunk, window, seed, scale);
    }

    private JobSpec moe(Config c, Topology topology, String name, JobKind kind, int tenant, int id, Duration timeout,
                        List<String> baselines, int before) {
        List<String> sources = new ArrayList<>();
        if (!c.hasPath("sources")) {
            problem(c.root().origin(), "a moe job needs sources = [hosts holding tokens]");
        } else {
            ConfigList list = list(c, "sources");
            if (list != null) {
                for (ConfigValue v : list) {
                    String s = string(v);
                    if (s != null && requireHost(v.origin(), s, "MoE source", topology)) {
                        sources.add(s);
                    }
                }
            }
        }
        List<JobSpec.Expert> experts = new ArrayList<>();
        Set<String> expertNames = new LinkedHashSet<>();
        if (!c.hasPath("experts")) {
            problem(c.root().origin(), "a moe job needs experts = [hosts] or [{ name = e1, host = h1 }, ...]");
        } else {
            ConfigList list = list(c, "experts");
            if (list != null) {
                for (ConfigValue v : list) {
                    String en;
                    String host;
                    if (v.valueType() == ConfigValueType.OBJECT) {
                        Config e = ((ConfigObject) v).toConfig();
                        checkKeys((ConfigObject) v, Set.of("name", "host"), "an expert");
                        en = requiredString(e, "an expert's name", "name");
                        host = requiredString(e, "an expert's host", "host");
                    } else {
                        en = string(v);
                        host = en;
                    }
                    if (en == null || host == null || !requireHost(v.origin(), host, "expert host", topology)) {
                        continue;
                    }
                    if (!expertNames.add(en)) {
                        problem(v.origin(), "expert '" + en + "' is listed twice");
                        continue;
                    }
                    experts.add(new JobSpec.Expert(en, host));
                }
            }
        }
        if (!c.hasPath("moe")) {
            problem(c.root().origin(), "a moe job needs a moe { top-k, hidden, tokens-per-source, ... } section");
            return null;
        }
        Config m = c.getConfig("moe");
        checkKeys(m.root(), Set.of("top-k", "hidden", "tokens-per-source", "capacity-factor", "seed", "granularity", "pinned", "window"),
                "moe");
        int window = m.hasPath("window") ? intIn(m, "window", 1, 1 << 20) : 64;
        int topK = m.hasPath("top-k") ? intIn(m, "top-k", 1, 64) : 2;
        int hidden = m.hasPath("hidden") ? intIn(m, "hidden", 64, 4096) : 64;
        int tokens = m.hasPath("tokens-per-source") ? intIn(m, "tokens-per-source", 1, 1 << 20) : 64;
        double capacity = m.hasPath("capacity-factor") ? positiveDouble(m, "capacity-factor") : 2.0;
        long seed = m.hasPath("seed") ? longValue(m, "seed") : 1;
        String granularity = m.hasPath("granularity") ? string(m.getValue("granularity")) : "group";
        if (granularity != null && !granularity.equals("group") && !granularity.equals("pair")) {
            problem(m.getValue("granularity").origin(), "granularity must be group or pair, got '" + granularity + "'");
        }
        if (!experts.isEmpty() && topK > experts.size()) {
            problem(m.getValue("top-k").origin(), "top-k " + topK + " exceeds the " + experts.size() + " experts");
        }
        List<JobSpec.PinnedRoute> pinned = new ArrayList<>();
        if (m.hasPath("pinned")) {
            ConfigList list = list(m, "pinned");
            if (list != null) {
                for (ConfigValue v : list) {
                    if (v.valueType() != ConfigValueType.OBJECT) {
                        problem(v.origin(), "a pinned route is { tokens = [0, 1], experts = [e2, e3] }");
                        continue;
                    }
                    Config p = ((ConfigObject) v).toConfig();
                    List<Integer> toks = new ArrayList<>();
                    ConfigList tl = p.hasPath("tokens") ? list(p, "tokens") : null;
                    List<String> ex = p.hasPath("experts") ? stringList(p, "experts") : null;
                    if (tl == null || ex == null) {
                        problem(v.origin(), "a pinned route needs tokens and experts");
                        continue;
                    }
                    for (ConfigValue tv : tl) {
                        if (tv.valueType() != ConfigValueType.NUMBER || ((Number) tv.unwrapped()).intValue() < 0
                                || ((Number) tv.unwrapped()).intValue() >= tokens) {
                            problem(tv.origin(), "pinned token must be a token index 0.." + (tokens - 1));
                        } else {
                            toks.add(((Number) tv.unwrapped()).intValue());
                        }
                    }
                    for (String e : ex) {
                        if (!expertNames.contains(e)) {
                            problem(p.getValue("experts").origin(), "pinned route names unknown expert '" + e + "'");
                        }
                    }
                    if (ex.size() != topK) {
                        problem(p.getValue("experts").origin(), "a pinned route names " + ex.size() + " experts; top-k is " + topK);
                    }
                    pinned.add(new JobSpec.PinnedRoute(List.copyOf(toks), List.copyOf(ex)));
                }
            }
        }
        if (problemsSince(before) || experts.isEmpty() || sources.isEmpty()) {
            if (!problemsSince(before)) {
                problem(c.root().origin(), "a moe job needs at least one source and one expert");
            }
            return null;
        }
        Map<String, String> hostOf = new LinkedHashMap<>();
        experts.forEach(e -> hostOf.put(e.name(), e.host()));
        BitSpace space = new BitSpace(experts.stream().map(JobSpec.Expert::name).toList(), hostOf);
        // one token must fit a dispatch packet: header, D-BM, expert list, K weights, hidden vector
        int minMtu = topology.links().stream().mapToInt(l -> l.spec().mtu()).min().orElse(Integer.MAX_VALUE);
        long oneToken = PacketCodec.HEADER_BYTES + (experts.size() + 7) / 8 + 4L * (1 + topK + topK + hidden);
        if (oneToken > minMtu) {
            problem(m.hasPath("hidden") ? m.getValue("hidden").origin() : m.root().origin(), "a token of hidden size " + hidden
                    + " with top-k " + topK + " needs " + oneToken + " bytes in a dispatch packet, more than the smallest link MTU of "
                    + minMtu + " (raise link-defaults.mtu: jumbo frames)");
            return null;
        }
        List<String> hosts = experts.stream().map(JobSpec.Expert::host).distinct().toList();
        EncodingSpec encoding = encoding(c, topology, null);
        if (encoding == null) {
            return null;
        }
        JobCommon common = new JobCommon(name, kind, tenant, id, hosts, space, encoding, timeout, baselines);
        return new JobSpec.Moe(common, List.copyOf(sources), List.copyOf(experts),
                new JobSpec.MoeParams(topK, hidden, tokens, capacity, seed, granularity, List.copyOf(pinned), window));
    }

    private JobSpec multicast(Config c, Topology topology, String name, JobKind kind, int tenant, int id, Duration timeout,
                              List<String> baselines, int before) {
        String source = requiredString(c, "a reliable-multicast job's source", "source");
        if (source != null && !requireHost(c.getValue("source").origin(), source, "multicast source", topology)) {
            source = null;
        }
        List<String> receivers = null;
        if (!c.hasPath("receivers")) {
            problem(c.root().origin(), "a reliable-multicast job needs receivers = [hosts] or \"all\"");
        } else if (c.getValue("receivers").valueType() == ConfigValueType.STRING && "all".equals(c.getValue("receivers").unwrapped())) {
            String src = source;
            receivers = topology.hosts().stream().map(Node::name).filter(h -> !h.equals(src)).toList();
        } else {
            List<String> r = stringList(c, "receivers");
            if (r != null) {
                receivers = new ArrayList<>();
                for (String h : r) {
                    if (requireHost(c.getValue("receivers").origin(), h, "receiver", topology)) {
                        if (h.equals(source)) {
                            problem(c.getValue("receivers").origin(), "the source '" + h + "' cannot also be a receiver");
                        } else if (receivers.contains(h)) {
                            problem(c.getValue("receivers").origin(), "receiver '" + h + "' is listed twice");
                        } else {
                            receivers.add(h);
                        }
                    }
                }
            }
        }
        Config d = c.hasPath("data") ? c.getConfig("data") : ConfigFactory.empty();
        if (c.hasPath("data")) {
            checkKeys(d.root(), Set.of("bytes", "packet", "window", "seed"), "data");
        }
        long bytes = 1 << 20;
        if (d.hasPath("bytes")) {
            try {
                bytes = d.getBytes("bytes");
                if (bytes < 1 || bytes > (1L << 34)) {
                    problem(d.getValue("bytes").origin(), "data.bytes must be 1 byte to 16 GiB, got " + d.getValue("bytes").render());
                }
            } catch (ConfigException e) {
                problem(d.getValue("bytes").origin(), "data.bytes: bad size " + d.getValue("bytes").render() + " (write 4MiB, 1000000, ...)");
            }
        }
        int packet = d.hasPath("packet") ? intIn(d, "packet", 4, 1 << 20) : 1024;
        if (packet % 4 != 0) {
            problem(d.getValue("packet").origin(), "data.packet must be a multiple of 4 bytes, got " + packet);
        }
        int window = d.hasPath("window") ? intIn(d, "window", 1, 1 << 16) : 16;
        long seed = d.hasPath("seed") ? longValue(d, "seed") : 1;
        Config a = c.hasPath("ack") ? c.getConfig("ack") : ConfigFactory.empty();
        if (c.hasPath("ack")) {
            checkKeys(a.root(), Set.of("per", "tree"), "ack");
        }
        String per = a.hasPath("per") ? string(a.getValue("per")) : "window";
        if (per != null && !per.equals("window") && !per.equals("packet")) {
            problem(a.getValue("per").origin(), "ack.per must be window or packet, got '" + per + "'");
        }
        String tree = a.hasPath("tree") ? string(a.getValue("tree")) : "composed";
        if (tree != null && !Set.of("preconfigured", "self-installed", "composed").contains(tree)) {
            problem(a.getValue("tree").origin(), "ack.tree must be preconfigured, self-installed or composed, got '" + tree + "'");
        }
        int maxRounds = c.hasPath("max-rounds") ? intIn(c, "max-rounds", 1, 1000) : 8;
        if (problemsSince(before) || source == null || receivers == null || receivers.isEmpty()) {
            if (!problemsSince(before)) {
                problem(c.root().origin(), "a reliable-multicast job needs a source and at least one receiver");
            }
            return null;
        }
        int minMtu = topology.links().stream().mapToInt(l -> l.spec().mtu()).min().orElse(Integer.MAX_VALUE);
        long packetSize = PacketCodec.HEADER_BYTES + 2L * ((receivers.size() + 7) / 8) + packet;
        if (packetSize > minMtu) {
            problem(c.getValue("data").origin(), "a data packet of " + packet + " bytes needs " + packetSize
                    + " bytes with its header, more than the smallest link MTU of " + minMtu);
            return null;
        }
        BitSpace space = new BitSpace(receivers);
        JobCommon common = new JobCommon(name, kind, tenant, id, List.copyOf(receivers), space, encoding(c, topology, space), timeout,
                baselines);
        return new JobSpec.Multicast(common, source, new JobSpec.MulticastParams(bytes, packet, window, seed, "window".equals(per), tree,
                maxRounds));
    }

    private boolean requireHost(ConfigOrigin origin, String name, String what, Topology topology) {
        if (!topology.has(name)) {
            problem(origin, what + " '" + name + "' is not a node of the topology");
            return false;
        }
        if (!topology.node(name).isHost()) {
            problem(origin, what + " '" + name + "' is a switch; it must be a host");
            return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- faults and cluster

    private List<FaultSpec> faults(Config root, Topology topology) {
        List<FaultSpec> faults = new ArrayList<>();
        if (!root.hasPath("faults")) {
            return faults;
        }
        ConfigList list = list(root, "faults");
        if (list == null) {
            return faults;
        }
        for (ConfigValue v : list) {
            if (v.valueType() != ConfigValueType.OBJECT) {
                problem(v.origin(), "a fault is an object { at = 10ms, kind = ..., ... }");
                continue;
            }
            checkKeys((ConfigObject) v, FAULT_KEYS, "a fault");
            FaultSpec f = fault(((ConfigObject) v).toConfig(), v.origin(), topology);
            if (f != null) {
                faults.add(f);
            }
        }
        return faults;
    }

    private FaultSpec fault(Config f, ConfigOrigin origin, Topology topology) {
        int before = problems.size();
        String kindName = requiredString(f, "a fault's kind", "kind");
        if (kindName == null) {
            return null;
        }
        FaultSpec.Kind kind;
        try {
            kind = FaultSpec.Kind.fromConfig(kindName);
        } catch (IllegalArgumentException e) {
            problem(f.getValue("kind").origin(), e.getMessage());
            return null;
        }
        Duration at = f.hasPath("at") ? nonNegativeDuration(f, "at") : Duration.ZERO;
        String node = f.hasPath("node") ? string(f.getValue("node")) : null;
        Link link = null;
        if (f.hasPath("link")) {
            List<String> ends = stringList(f, "link");
            if (ends != null) {
                if (ends.size() != 2) {
                    problem(f.getValue("link").origin(), "a fault's link is a pair [a, b]");
                } else {
                    link = topology.linkBetween(ends.get(0), ends.get(1)).orElse(null);
                    if (link == null) {
                        problem(f.getValue("link").origin(), "there is no link [" + ends.get(0) + ", " + ends.get(1) + "] in the topology");
                    }
                }
            }
        }
        Duration delay = f.hasPath("delay") ? nonNegativeDuration(f, "delay") : Duration.ZERO;
        Duration jitter = f.hasPath("jitter") ? nonNegativeDuration(f, "jitter") : Duration.ZERO;
        double rate = f.hasPath("rate") ? fraction(f, "rate") : 0;
        List<Long> chunks = new ArrayList<>();
        if (f.hasPath("chunks")) {
            try {
                for (Long l : f.getLongList("chunks")) {
                    if (l < 0) {
                        problem(f.getValue("chunks").origin(), "chunk ids are non-negative, got " + l);
                    }
                    chunks.add(l);
                }
            } catch (ConfigException e) {
                problem(e.origin() != null ? e.origin() : origin, stripOrigin(e));
            }
        }
        int member = f.hasPath("member") ? intIn(f, "member", 0, 1024) : -1;
        switch (kind) {
            case LINK_DOWN, LINK_UP, DELAY -> {
                if (!f.hasPath("link")) {
                    problem(origin, kindName + " needs link = [a, b]");
                }
            }
            case SWITCH_CRASH, STRAGGLER, SILENT -> {
                if (node == null) {
                    problem(origin, kindName + " needs node = ...");
                } else if (!topology.has(node)) {
                    problem(f.getValue("node").origin(), "fault names unknown node '" + node + "'");
                } else if (kind == FaultSpec.Kind.SWITCH_CRASH && !topology.node(node).isSwitch()) {
                    problem(f.getValue("node").origin(), "switch-crash names '" + node + "', which is a host");
                } else if (kind != FaultSpec.Kind.SWITCH_CRASH && !topology.node(node).isHost()) {
                    problem(f.getValue("node").origin(), kindName + " names '" + node + "', which is a switch; stragglers are hosts");
                }
                if (kind == FaultSpec.Kind.STRAGGLER && !f.hasPath("delay")) {
                    problem(origin, "straggler needs delay = ...");
                }
            }
            case LOSS, DUPLICATE, REORDER -> {
                if (!f.hasPath("rate")) {
                    problem(origin, kindName + " needs rate = (a fraction like 0.05 or 5%)");
                }
            }
            case MEMBER_LOSS -> {
                if (member < 0) {
                    problem(origin, "member-loss needs member = (a cluster member index)");
                }
            }
            default -> throw new AssertionError(kind);
        }
        if (problemsSince(before)) {
            return null;
        }
        return new FaultSpec(at, kind, node, link, delay, jitter, rate, List.copyOf(chunks), member);
    }

    private ClusterSpec cluster(Config root, Topology topology) {
        if (!root.hasPath("cluster")) {
            return ClusterSpec.SINGLE;
        }
        Config c = root.getConfig("cluster");
        checkKeys(c.root(), Set.of("jvms", "placement", "explicit"), "cluster");
        int jvms = c.hasPath("jvms") ? intIn(c, "jvms", 1, 64) : 1;
        ClusterSpec.Placement placement = ClusterSpec.Placement.BY_POD;
        if (c.hasPath("placement")) {
            String p = string(c.getValue("placement"));
            try {
                placement = ClusterSpec.Placement.fromConfig(p);
            } catch (IllegalArgumentException e) {
                problem(c.getValue("placement").origin(), e.getMessage());
            }
        }
        Map<String, Integer> explicit = new LinkedHashMap<>();
        if (c.hasPath("explicit")) {
            ConfigObject obj = object(c, "explicit");
            if (obj != null) {
                for (Map.Entry<String, ConfigValue> e : obj.entrySet()) {
                    if (!topology.has(e.getKey())) {
                        problem(e.getValue().origin(), "explicit placement names unknown node '" + e.getKey() + "'");
                    } else if (e.getValue().valueType() != ConfigValueType.NUMBER) {
                        problem(e.getValue().origin(), "explicit placement maps a node to a member index");
                    } else {
                        int m = ((Number) e.getValue().unwrapped()).intValue();
                        if (m < 0 || m >= jvms) {
                            problem(e.getValue().origin(), "member index " + m + " outside 0.." + (jvms - 1));
                        }
                        explicit.put(e.getKey(), m);
                    }
                }
            }
        } else if (placement == ClusterSpec.Placement.EXPLICIT) {
            problem(c.getValue("placement").origin(), "placement explicit needs an explicit { node = member } section");
        }
        return new ClusterSpec(jvms, placement, Map.copyOf(explicit));
    }

    // ---------------------------------------------------------------- value helpers

    private void problem(ConfigOrigin origin, String message) {
        String file = displayName;
        int line = 1;
        if (origin != null) {
            if (origin.filename() != null) {
                String f = Path.of(origin.filename()).toAbsolutePath().normalize().toString();
                file = f.equals(absolutePath) ? displayName : origin.filename();
            }
            line = Math.max(1, origin.lineNumber());
        }
        problems.add(new Problem(file, line, message));
    }

    private static String stripOrigin(ConfigException e) {
        String m = e.getMessage();
        if (e.origin() != null) {
            String prefix = e.origin().description() + ": ";
            if (m.startsWith(prefix)) {
                m = m.substring(prefix.length());
            }
        }
        return m;
    }

    /** HOCON objects are unordered; read them in the order they were written, so that "the second one" is the one blamed. */
    private static List<Map.Entry<String, ConfigValue>> inFileOrder(ConfigObject obj) {
        List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(obj.entrySet());
        entries.sort(java.util.Comparator.comparingInt((Map.Entry<String, ConfigValue> e) -> e.getValue().origin().lineNumber())
                .thenComparing(Map.Entry::getKey));
        return entries;
    }

    private void checkKeys(ConfigObject obj, Set<String> known, String where) {
        for (Map.Entry<String, ConfigValue> e : obj.entrySet()) {
            if (!known.contains(e.getKey())) {
                problem(e.getValue().origin(), "unknown key '" + e.getKey() + "' in " + where
                        + " (known: " + String.join(", ", new java.util.TreeSet<>(known)) + ")");
            }
        }
    }

    private String string(ConfigValue v) {
        if (v.valueType() != ConfigValueType.STRING) {
            problem(v.origin(), "expected a name, got " + v.valueType().name().toLowerCase(Locale.ROOT) + " " + v.render());
            return null;
        }
        String s = (String) v.unwrapped();
        if (s.isBlank()) {
            problem(v.origin(), "empty name");
            return null;
        }
        return s;
    }

    private String requiredString(Config c, String what, String path) {
        if (!c.hasPath(path)) {
            problem(c.root().origin(), "missing " + what);
            return null;
        }
        return string(c.getValue(path));
    }

    private List<String> stringList(Config c, String path) {
        ConfigList list = list(c, path);
        if (list == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (ConfigValue v : list) {
            String s = string(v);
            if (s == null) {
                return null;
            }
            out.add(s);
        }
        return out;
    }

    private ConfigList list(Config c, String path) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.LIST) {
            problem(v.origin(), path + " must be a list, got " + v.render());
            return null;
        }
        return (ConfigList) v;
    }

    private ConfigObject object(Config c, String path) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.OBJECT) {
            problem(v.origin(), path + " must be an object { ... }, got " + v.render());
            return null;
        }
        return (ConfigObject) v;
    }

    private Integer missing(Config c, String what) {
        problem(c.root().origin(), "missing " + what);
        return null;
    }

    private Integer requiredInt(Config c, String path) {
        if (!c.hasPath(path)) {
            problem(c.root().origin(), "missing " + path);
            return null;
        }
        int before = problems.size();
        int v = intIn(c, path, Integer.MIN_VALUE, Integer.MAX_VALUE);
        return problemsSince(before) ? null : v;
    }

    private int intIn(Config c, String path, int min, int max) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.NUMBER) {
            problem(v.origin(), path + " must be a whole number, got " + v.render());
            return min;
        }
        Number n = (Number) v.unwrapped();
        if (n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < min || n.doubleValue() > max) {
            problem(v.origin(), path + " must be a whole number in " + min + ".." + max + ", got " + v.render());
            return min;
        }
        return n.intValue();
    }

    private long longValue(Config c, String path) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.NUMBER || ((Number) v.unwrapped()).doubleValue() != Math.rint(((Number) v.unwrapped()).doubleValue())) {
            problem(v.origin(), path + " must be a whole number, got " + v.render());
            return 0;
        }
        return ((Number) v.unwrapped()).longValue();
    }

    private double positiveDouble(Config c, String path) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() != ConfigValueType.NUMBER || ((Number) v.unwrapped()).doubleValue() <= 0) {
            problem(v.origin(), path + " must be a positive number, got " + v.render());
            return 1;
        }
        return ((Number) v.unwrapped()).doubleValue();
    }

    /** A fraction in [0, 1): {@code 0.05} or {@code "5%"}. */
    private double fraction(Config c, String path) {
        ConfigValue v = c.getValue(path);
        double value;
        if (v.valueType() == ConfigValueType.NUMBER) {
            value = ((Number) v.unwrapped()).doubleValue();
        } else if (v.valueType() == ConfigValueType.STRING && ((String) v.unwrapped()).strip().endsWith("%")) {
            String s = ((String) v.unwrapped()).strip();
            try {
                value = Double.parseDouble(s.substring(0, s.length() - 1).strip()) / 100.0;
            } catch (NumberFormatException e) {
                problem(v.origin(), path + " must be a fraction like 0.05 or 5%, got " + v.render());
                return 0;
            }
        } else {
            problem(v.origin(), path + " must be a fraction like 0.05 or 5%, got " + v.render());
            return 0;
        }
        if (!(value >= 0 && value < 1)) {
            problem(v.origin(), path + " must be at least 0 and below 1 (100%), got " + v.render());
            return 0;
        }
        return value;
    }

    private Duration duration(Config c, String path) {
        try {
            return c.getDuration(path);
        } catch (ConfigException e) {
            problem(c.getValue(path).origin(), path + ": bad duration " + c.getValue(path).render()
                    + " (write a number with a unit: ns, us, ms, s)");
            return null;
        }
    }

    private long durationNanos(Config c, String path) {
        Duration d = nonNegativeDuration(c, path);
        return d == null ? 0 : d.toNanos();
    }

    private Duration nonNegativeDuration(Config c, String path) {
        Duration d = duration(c, path);
        if (d != null && d.isNegative()) {
            problem(c.getValue(path).origin(), path + " must not be negative, got " + c.getValue(path).render());
            return null;
        }
        return d;
    }

    private Duration positiveDuration(Config c, String path) {
        Duration d = duration(c, path);
        if (d != null && (d.isNegative() || d.isZero())) {
            problem(c.getValue(path).origin(), path + " must be positive, got " + c.getValue(path).render());
            return null;
        }
        return d;
    }

    private long bandwidth(Config c, String path) {
        ConfigValue v = c.getValue(path);
        if (v.valueType() == ConfigValueType.STRING) {
            Matcher m = BANDWIDTH.matcher(((String) v.unwrapped()).strip());
            if (m.matches()) {
                double value = Double.parseDouble(m.group(1));
                long unit = switch (m.group(2)) {
                    case "K" -> 1_000L;
                    case "M" -> 1_000_000L;
                    case "G" -> 1_000_000_000L;
                    case "T" -> 1_000_000_000_000L;
                    default -> 1L;
                };
                double bps = value * unit;
                if (bps >= 1 && bps < 1e16) {
                    return (long) bps;
                }
            }
        }
        problem(v.origin(), path + ": bad bandwidth " + v.render() + " (write a number with a unit: bps, Kbps, Mbps, Gbps, Tbps)");
        return 1;
    }
}
