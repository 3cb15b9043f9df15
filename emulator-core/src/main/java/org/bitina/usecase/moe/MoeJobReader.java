package org.bitina.usecase.moe;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.HostLists;
import org.bitina.scenario.JobHeader;
import org.bitina.scenario.JobKeys;
import org.bitina.scenario.JobParts;
import org.bitina.scenario.JobReader;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Topology;

/**
 * An MoE dispatch and combine job (seed 000 section 4): {@code sources} hold tokens,
 * {@code experts} (each with its own bit) live on hosts, and a {@code moe} section sets the
 * model. See {@code paper-fig2-moe.conf}.
 */
public final class MoeJobReader extends JobReader {
    static final String KIND = "moe";
    /** M6: every token unicast to each of its experts and every output back. */
    static final Mode ALL_TO_ALL = new Mode("all-to-all");

    public MoeJobReader() {
        super(
                KIND,
                List.of(ALL_TO_ALL),
                Map.of(JobKeys.JOB_PATH, MoeKeys.JOB),
                List.of(MoeKeys.EXPERT, MoeKeys.MOE_MODEL, MoeKeys.PINNED, MoeKeys.ROUTING));
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        JobHeader header = JobHeader.read(c, index, kind(), List.of(ALL_TO_ALL), topology);
        List<String> sources = sources(c, topology);
        List<MoeSpec.Expert> experts = explicitOrder(c, experts(c, topology));
        MoeSpec.Params params = params(c, experts, sources);
        EncodingSpec encoding = JobParts.encoding(c, topology, null);
        if (c.problems().since(before) || header == null || params == null || encoding == null || topology == null) {
            return null;
        }
        if (experts.isEmpty() || sources.isEmpty()) {
            c.problem(c.origin(), "a moe job needs at least one source and one expert");
            return null;
        }
        Map<String, String> hostOf = new LinkedHashMap<>();
        experts.forEach(e -> hostOf.put(e.name(), e.host()));
        BitSpace space = new BitSpace(experts.stream().map(MoeSpec.Expert::name).toList(), hostOf);
        // whether one token fits a dispatch packet, its D-BM encoded, is checked once planned (WireBudget)
        List<String> hosts =
                experts.stream().map(MoeSpec.Expert::host).distinct().toList();
        return new MoeSpec(
                header.common(KIND, hosts, space, encoding), List.copyOf(sources), List.copyOf(experts), params);
    }

    /**
     * The experts in bit order: as listed, or as {@code bit-space { e3 = 1, e1 = 2, ... }} puts
     * them. The router has one output per expert, so the positions are exactly 1..E.
     */
    private static List<MoeSpec.Expert> explicitOrder(ConfigReader c, List<MoeSpec.Expert> experts) {
        if (!c.has("bit-space") || experts == null) {
            return experts;
        }
        if (c.value("bit-space").valueType() != ConfigValueType.OBJECT) {
            c.problem(
                    "bit-space",
                    "a moe job's bit-space gives its experts positions: bit-space { e1 = 2, e2 = 1, ... }");
            return experts;
        }
        List<String> names = experts.stream().map(MoeSpec.Expert::name).toList();
        List<String> order = JobParts.explicitBits(c, names, names, "expert", false);
        if (order == null) {
            return experts;
        }
        Map<String, MoeSpec.Expert> byName = new LinkedHashMap<>();
        experts.forEach(e -> byName.put(e.name(), e));
        return order.stream().map(byName::get).toList();
    }

    private static List<String> sources(ConfigReader c, Topology topology) {
        List<String> sources = new ArrayList<>();
        if (!c.has("sources")) {
            c.problem(c.origin(), "a moe job needs sources = [hosts holding tokens]");
            return sources;
        }
        List<? extends ConfigValue> list = HostLists.elements(c, "sources");
        List<HostLists.Named> named = list == null ? null : HostLists.expand(c, list, topology, "a source", Set.of());
        for (HostLists.Named n : named == null ? List.<HostLists.Named>of() : named) {
            if (JobParts.requireHost(c, n.from().origin(), n.name(), "MoE source", topology)) {
                if (sources.contains(n.name())) {
                    c.problem(n.from().origin(), "MoE source '" + n.name() + "' is listed twice");
                } else {
                    sources.add(n.name());
                }
            }
        }
        return sources;
    }

    private static List<MoeSpec.Expert> experts(ConfigReader c, Topology topology) {
        List<MoeSpec.Expert> experts = new ArrayList<>();
        if (!c.has("experts")) {
            c.problem(c.origin(), "a moe job needs experts = [hosts] or [{ name = e1, host = h1 }, ...]");
            return experts;
        }
        ConfigList list = c.list("experts");
        if (list == null) {
            return experts;
        }
        Set<String> names = new LinkedHashSet<>();
        for (ConfigValue v : list) {
            // each element is one expert ({ name, host }) or several: a host or selector names one per host, after the
            // host;
            // { hosts = [...], prefix = e } one per host, named by the prefix and its position in the job's expert list
            List<String[]> here = new ArrayList<>();
            if (v.valueType() == ConfigValueType.OBJECT) {
                ConfigReader e = c.objectOf(v, "an expert", "");
                e.checkKeys(MoeKeys.EXPERT, "an expert");
                if (e.has("hosts") || e.has("prefix")) {
                    if (e.has("name") || e.has("host")) {
                        e.problem(
                                e.origin(),
                                "an expert object has name and host (one expert) or hosts and prefix (one per host), not both");
                        continue;
                    }
                    String prefix =
                            e.requiredName("prefix", "an expert group's prefix (prefix = e names them e1, e2, ...)");
                    List<? extends ConfigValue> hs = e.has("hosts") ? HostLists.elements(e, "hosts") : null;
                    if (hs == null && !e.has("hosts")) {
                        e.problem(e.origin(), "missing an expert group's hosts (hosts = [\"h9..h16\"])");
                    }
                    List<HostLists.Named> named =
                            hs == null ? null : HostLists.expand(e, hs, topology, "an expert host", Set.of());
                    if (prefix == null || named == null) {
                        continue;
                    }
                    for (HostLists.Named n : named) {
                        here.add(new String[] {prefix + (experts.size() + here.size() + 1), n.name()});
                    }
                } else {
                    String name = e.requiredName("name", "an expert's name");
                    String host = e.requiredName("host", "an expert's host");
                    here.add(new String[] {name, host});
                }
            } else {
                List<HostLists.Named> named = HostLists.expand(c, List.of(v), topology, "an expert", Set.of());
                for (HostLists.Named n : named == null ? List.<HostLists.Named>of() : named) {
                    here.add(new String[] {n.name(), n.name()});
                }
            }
            for (String[] nh : here) {
                String name = nh[0];
                String host = nh[1];
                if (name == null
                        || host == null
                        || !JobParts.requireHost(c, v.origin(), host, "expert host", topology)) {
                    continue;
                }
                if (!names.add(name)) {
                    c.problem(v.origin(), "expert '" + name + "' is listed twice");
                    continue;
                }
                experts.add(new MoeSpec.Expert(name, host));
            }
        }
        return experts;
    }

    private static MoeSpec.Params params(ConfigReader c, List<MoeSpec.Expert> experts, List<String> sources) {
        if (!c.has("moe")) {
            c.problem(c.origin(), "a moe job needs a moe { top-k, hidden, tokens-per-source, ... } section");
            return null;
        }
        ConfigReader m = c.object("moe");
        if (m == null) {
            return null;
        }
        int before = m.problems().count();
        m.checkKeys(MoeKeys.MOE_MODEL, "moe");
        int window = m.intIn("window", 1, 1 << 20, 64);
        int topK = m.intIn("top-k", 1, 64, 2);
        int hidden = m.intIn("hidden", 64, 4096, 64);
        int tokens = m.intIn("tokens-per-source", 1, 1 << 20, 64);
        double capacity = m.positive("capacity-factor", 2.0);
        long seed = m.seed("seed", 1);
        String granularity = m.name("granularity", "group");
        if (granularity != null && !granularity.equals("group") && !granularity.equals("pair")) {
            m.problem("granularity", "granularity must be group or pair, got '" + granularity + "'");
        }
        if (!experts.isEmpty() && topK > experts.size()) {
            m.problem("top-k", "top-k " + topK + " exceeds the " + experts.size() + " experts");
        }
        Set<String> expertNames = new LinkedHashSet<>();
        experts.forEach(e -> expertNames.add(e.name()));
        List<MoeSpec.PinnedRoute> pinned = pinned(m, expertNames, topK, tokens);
        if (m.problems().since(before)) {
            return null;
        }
        ExpertRouting routing = routing(m, List.copyOf(expertNames), sources, topK, tokens, seed);
        if (m.problems().since(before)) {
            return null;
        }
        return new MoeSpec.Params(
                topK, hidden, tokens, capacity, seed, granularity, List.copyOf(pinned), window, routing);
    }

    /**
     * {@code routing = uniform} (the default), {@code routing { zipf = S }} or {@code routing { trace = FILE }},
     * the trace read now (relative to the file that names it), so that a bad one is said before anything runs.
     */
    private static ExpertRouting routing(
            ConfigReader m, List<String> experts, List<String> sources, int topK, int tokens, long seed) {
        String shape = "routing = uniform, routing { zipf = 1.2 } or routing { trace = routes.csv }";
        if (!m.has("routing")) {
            return new ExpertRouting.Uniform();
        }
        if (m.value("routing").valueType() == ConfigValueType.STRING) {
            if (!"uniform".equals(m.name("routing", null))) {
                m.problem("routing", "expected " + shape);
            }
            return new ExpertRouting.Uniform();
        }
        ConfigReader r = m.objectOf(m.value("routing"), m.label("routing"), shape);
        if (r == null) {
            return null;
        }
        r.checkKeys(MoeKeys.ROUTING, "routing");
        if (r.has("zipf") == r.has("trace")) {
            m.problem("routing", "routing takes one of zipf and trace: " + shape);
            return null;
        }
        if (r.has("zipf")) {
            double s = r.value("zipf").unwrapped() instanceof Number n ? n.doubleValue() : Double.NaN;
            if (!(s >= 0 && s <= 10)) {
                r.problem(
                        "zipf",
                        "zipf is the law's exponent, a number from 0 (every expert alike) to 10, got "
                                + ConfigReader.shown(r.value("zipf")));
                return null;
            }
            return new ExpertRouting.Zipf(s, seed);
        }
        String named = r.name("trace", null);
        if (named == null) {
            return null;
        }
        String where = r.origin("trace").filename();
        Path file = where == null ? Path.of(named) : Path.of(where).resolveSibling(named);
        RouteTrace.Read read = RouteTrace.read(file, named, sources, experts, topK, tokens);
        read.problems().forEach(p -> r.problem("trace", p));
        return read.trace();
    }

    private static List<MoeSpec.PinnedRoute> pinned(ConfigReader m, Set<String> expertNames, int topK, int tokens) {
        List<MoeSpec.PinnedRoute> pinned = new ArrayList<>();
        ConfigList list = m.list("pinned");
        if (list == null) {
            return pinned;
        }
        for (int i = 0; i < list.size(); i++) {
            ConfigReader p =
                    m.objectOf(list.get(i), m.label("pinned[" + i + "]"), "{ tokens = [0, 1], experts = [e2, e3] }");
            if (p == null) {
                continue;
            }
            p.checkKeys(MoeKeys.PINNED, "a pinned route");
            ConfigList tl = p.list("tokens");
            List<String> ex = p.names("experts");
            if (tl == null || ex == null) {
                if (!p.has("tokens") || !p.has("experts")) {
                    p.problem(p.origin(), "a pinned route needs tokens and experts");
                }
                continue;
            }
            List<Integer> toks = new ArrayList<>();
            for (ConfigValue tv : tl) {
                if (tv.valueType() != ConfigValueType.NUMBER
                        || ((Number) tv.unwrapped()).intValue() < 0
                        || ((Number) tv.unwrapped()).intValue() >= tokens) {
                    p.problem(tv.origin(), "pinned token must be a token index 0.." + (tokens - 1));
                } else {
                    toks.add(((Number) tv.unwrapped()).intValue());
                }
            }
            for (String e : ex) {
                if (!expertNames.contains(e)) {
                    p.problem("experts", "pinned route names unknown expert '" + e + "'");
                }
            }
            if (ex.size() != topK) {
                p.problem("experts", "a pinned route names " + ex.size() + " experts; top-k is " + topK);
            }
            pinned.add(new MoeSpec.PinnedRoute(List.copyOf(toks), List.copyOf(ex)));
        }
        return pinned;
    }
}
