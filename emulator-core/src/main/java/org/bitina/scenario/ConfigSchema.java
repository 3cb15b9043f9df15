package org.bitina.scenario;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The scenario file's keys, section by section: name, type, default, unit, which job kinds take
 * it, an example and what it means. The loader's unknown-key checks take their key sets from
 * here ({@link Section#names}), so a key the loader reads must be listed, and
 * {@code docs/configuration.md} is generated from it ({@link #markdown}; a test keeps the file
 * current). Not yet here: the keys of each job kind's own sections (data, tree, moe, ack, ...),
 * which their readers in {@code org.bitina.usecase} check.
 */
public final class ConfigSchema {
    private ConfigSchema() {
    }

    /** One key. {@code kinds}: the job kinds that take it ("" outside jobs, "all" for every kind). */
    public record Key(String name, String type, String defaultValue, String unit, String kinds, String example, String doc) {
    }

    /** A section of the file: its path ({@code topology}, {@code faults[]}) and its keys. */
    public record Section(String path, String doc, List<Key> keys) {
        public Set<String> names() {
            Set<String> s = new LinkedHashSet<>();
            keys.forEach(k -> s.add(k.name()));
            return Set.copyOf(s);
        }
    }

    /** A job's completion timeout when neither it nor {@code defaults} sets one. */
    static final java.time.Duration DEFAULT_COMPLETION_TIMEOUT = java.time.Duration.ofMillis(50);

    private static Key key(String name, String type, String def, String unit, String example, String doc) {
        return new Key(name, type, def, unit, "", example, doc);
    }

    public static final Section ROOT = new Section("(top level)", "One file is one scenario: its topology, jobs, faults and cluster.",
            List.of(key("topology", "object", "required", "", "topology { generator { kind = fat-tree, k = 4 } }", "the network; see `topology`"),
                    key("jobs", "list of objects", "[]", "", "jobs = [{ name = j1, kind = allreduce, ... }]", "the jobs, run one after the other; see `jobs[]`"),
                    key("faults", "list of objects", "[]", "", "faults = [{ at = 0ms, kind = straggler, node = w3, delay = 20ms }]",
                            "what goes wrong and when; see `faults[]`"),
                    key("attacks", "list of objects", "[]", "", "attacks = [{ at = 5us, kind = replay, node = h1, job = ar }]",
                            "hostile endpoints on member hosts; see `attacks[]`"),
                    key("cluster", "object", "{}", "", "cluster { jvms = 3, placement = by-pod }", "cluster members and placement; see `cluster`"),
                    key("clock", "virtual | real", "virtual", "", "clock = real",
                            "virtual: timers, stragglers and faults in modelled time (reproducible); real: wall-clock Pekko timers; `--clock` overrides"),
                    key("security", "object", "{}", "", "security { mac = off }", "run-wide security; see `security`"),
                    key("defaults", "object", "{}", "", "defaults { completion-timeout = 50ms }",
                            "job keys every job gets unless it sets its own (topology-configs/defaults.conf sets completion-timeout)"),
                    key("defs", "object", "{}", "", "defs { n = 4096 }, data.elements = ${defs.n}",
                            "free values for HOCON substitutions (`${defs.x}`, `${?ENV}`); never read by the loader itself")));

    public static final Section TOPOLOGY = new Section("topology",
            "Either a generator or switches, hosts and links by name. Generated names: fat-tree k: `core-J` (1..(k/2)^2), `agg-P-I` and"
                    + " `edge-P-I` (pod P = 1..k, I = 1..k/2), hosts `h1`..`hN` (N = k^3/4), each pod a placement pod; leaf-spine: `spine-I`,"
                    + " `leaf-I` (each a pod with its hosts), hosts `h1`..`hN` in leaf order; paper-fig1: the seed's Fig. 1, switches"
                    + " `s1`..`s7` and workers `w1`..`w8`.",
            List.of(key("generator", "object", "none", "", "generator { kind = fat-tree, k = 8 }",
                            "`kind = fat-tree` with `k` (even); `kind = leaf-spine` with `spines`, `leaves`, `hosts-per-leaf`; `kind = paper-fig1`"),
                    key("switches", "list of names", "[]", "", "switches = [s1, s2]", "switch names (letters, digits, `_.-`)"),
                    key("hosts", "list of names", "[]", "", "hosts = [w1, w2, w3]", "host names"),
                    key("links", "list", "[]", "", "links = [[s1, w1], { between = [s2, w3], latency = 5us }]",
                            "a pair of names, or an object with `between` and any `link-defaults` key overridden"),
                    key("link-defaults", "object", "latency 1us, bandwidth 100Gbps, mtu 4096, loss 0 (defaults.conf)", "", "link-defaults { latency = 2us }",
                            "every link's properties; see `topology.link-defaults`"),
                    key("pods", "object of lists", "generators set pods", "", "pods { rack1 = [w1, w2], rack2 = [w3] }",
                            "groups of hosts that `placement = by-pod` keeps on one member"),
                    key("switch-defaults", "object", "unlimited", "", "switch-defaults { state-entries = 64 }",
                            "every switch's soft-state capacity (S5): `state-entries`"),
                    key("switch-overrides", "object of objects", "none", "", "switch-overrides { leaf-2 { state-entries = 12 } }",
                            "one switch's capacity")));

    public static final Section LINK = new Section("topology.link-defaults", "A link's properties; a link object may override each.",
            List.of(key("latency", "duration", "1us (defaults.conf)", "ns, us, ms, s", "latency = 1us", "propagation delay"),
                    key("bandwidth", "bit rate", "100Gbps (defaults.conf)", "bps, Kbps, Mbps, Gbps, Tbps", "bandwidth = 100Gbps",
                            "serialisation: bytes / bandwidth"),
                    key("mtu", "bytes", "4096 (defaults.conf)", "bytes", "mtu = 4096", "largest packet; chunks must fit, with the S2 tag"),
                    key("loss", "fraction or percent", "0", "", "loss = 1%", "seeded random loss on the link")));

    public static final Section SWITCH = new Section("topology.switch-defaults", "A switch's capacity (S5 admission control).",
            List.of(key("state-entries", "whole number", "unlimited", "aggregation entries", "state-entries = 64",
                    "the aggregation entries a job may hold at once on the switch; a job whose declaration does not fit is not admitted")));

    public static final Section CLUSTER = new Section("cluster", "Where the devices run (E2).",
            List.of(key("jvms", "whole number 1..64", "1", "members", "jvms = 3", "cluster members; `--jvms` overrides"),
                    key("placement", "by-pod | round-robin | explicit", "by-pod", "", "placement = round-robin",
                            "how devices are spread over the members"),
                    key("explicit", "object: node = member index", "required with placement = explicit", "", "explicit { s1 = 0, h1 = 1 }",
                            "each device's member (0 is the coordinator's)")));

    public static final Section SECURITY = new Section("security", "Run-wide security (S2, S4, S5).",
            List.of(key("mac", "on | off", "on", "", "mac = off", "S2: HMAC-SHA256 tags on endpoints' packets, checked at the first switch"),
                    key("max-completion-timeout", "duration", "10s", "ns, us, ms, s", "max-completion-timeout = 1s",
                            "S5: the longest completion timeout a job may set"),
                    key("rate-limit", "object", "none", "", "rate-limit { packets-per-second = 2000000, burst = 64 }",
                            "S4: a token bucket per job and host port")));

    public static final Section RATE_LIMIT = new Section("security.rate-limit", "S4's per-port token bucket.",
            List.of(key("packets-per-second", "whole number", "required", "packets/s", "packets-per-second = 2000000", "the bucket's rate"),
                    key("burst", "whole number", "required", "packets", "burst = 64", "the bucket's depth")));

    public static final Section FAULT = new Section("faults[]",
            "One fault. Kinds: link-down, link-up (`link`), switch-crash (`node`), loss, duplicate, reorder (`rate`, optional `link`), delay"
                    + " (`link`, `delay`), straggler (`node`, `delay`, optional `jitter`, `chunks`), silent (`node`), member-loss (`member`),"
                    + " malicious-switch (`node`, optional `chunks`). See docs/faults.md.",
            List.of(key("at", "duration", "0ms", "ns, us, ms, s", "at = 20us", "when: modelled time (virtual clock) or wall time (real)"),
                    key("kind", "fault kind", "required", "", "kind = straggler", "what happens"),
                    key("node", "node name", "per kind", "", "node = w3", "the switch or host it happens to"),
                    key("link", "[a, b]", "per kind", "", "link = [s1, s5]", "the link it happens to"),
                    key("delay", "duration", "per kind", "ns, us, ms, s", "delay = 20ms", "a straggler's or a link's added delay"),
                    key("jitter", "duration", "0", "ns, us, ms, s", "jitter = 5ms", "a straggler's seeded random extra delay"),
                    key("rate", "fraction or percent", "per kind", "", "rate = 5%", "how often loss, duplication or reordering strikes"),
                    key("chunks", "list of whole numbers", "all", "chunks", "chunks = [3, 4]", "the chunks a straggler or malicious switch touches"),
                    key("member", "member index", "per kind", "", "member = 1", "the cluster member a member-loss halts (not 0)")));

    public static final Section ATTACK = new Section("attacks[]",
            "A hostile endpoint on a member host (S1-S4). Kinds: forged-mac, replay, spoof-bits (`as`), non-member-bits, amplify,"
                    + " foreign-job, soft-state-flood (`count`), rate-flood (`count`), spoofed-ack (`as`). See docs/security.md.",
            List.of(key("at", "duration", "0ms", "ns, us, ms, s", "at = 5us", "when the attack packets leave"),
                    key("kind", "attack kind", "required", "", "kind = replay", "what the attacker sends"),
                    key("node", "host name", "required", "", "node = h1", "the member host it runs on"),
                    key("job", "job name", "required", "", "job = ar", "the job it attacks"),
                    key("as", "list of host names", "per kind", "", "as = [h2]", "whose bits it claims"),
                    key("count", "whole number", "1000", "packets", "count = 500", "a flood's packets")));

    public static final Section JOB = new Section("jobs[]",
            "The keys every job has, whatever its kind; each kind adds its own (members, data, tree, moe, ack, ...: see the use-case"
                    + " guides in docs/).",
            List.of(new Key("name", "name", "required", "", "all", "name = fig1", "the job's name in the report and the trace"),
                    new Key("kind", "allreduce | moe | reliable-multicast | bier-inc", "required", "", "all", "kind = allreduce", "the use case"),
                    new Key("tenant", "whole number 0..65535", "0", "", "all", "tenant = 2", "the tenant id on the wire (S1)"),
                    new Key("id", "whole number", "the job's position (1, 2, ...)", "", "all", "id = 7", "the job id on the wire"),
                    new Key("completion-timeout", "duration",
                            "defaults.completion-timeout, else " + DEFAULT_COMPLETION_TIMEOUT.toMillis() + "ms", "ns, us, ms, s", "all", "completion-timeout = 50ms",
                            "how long a node waits before sending a partial result (F5)"),
                    new Key("baselines", "list of modes", "[]", "", "all", "baselines = [ring, ps]",
                            "host baselines run after INA: ring, ps (allreduce); all-to-all (moe); unicast-ack (reliable-multicast); ring (bier-inc)"),
                    new Key("expect", "object", "what the fault plan implies", "", "all", "expect { ina = partial, missing = [h16] }",
                            "how each mode must end, exactly")));

    public static final List<Section> ALL = List.of(ROOT, TOPOLOGY, LINK, SWITCH, CLUSTER, SECURITY, RATE_LIMIT, FAULT, ATTACK, JOB);

    /** docs/configuration.md: every section's keys as a table. */
    public static String markdown() {
        StringBuilder s = new StringBuilder("""
                # Configuration reference

                Generated from `org.bitina.scenario.ConfigSchema`, the key sets the scenario loader checks (a key not listed
                is refused at its line as unknown); `ConfigSchemaTest` fails when this file is not what the schema
                generates (regenerate: `mvn -pl emulator-core test -Dtest=ConfigSchemaTest -Dbitina.regenerate=true`).
                The keys of each job kind's own sections (`data`, `tree`, `moe`, `ack`, `collective`, ...) are not in the
                schema yet: see the use-case guides and [scenarios.md](scenarios.md). Units are written out
                (`1us`, `100Gbps`, `5%`); `--set PATH=VALUE` changes any key before validation.
                """);
        for (Section sec : ALL) {
            s.append("\n## `").append(sec.path()).append("`\n\n").append(sec.doc()).append("\n\n");
            boolean kinds = sec.keys().stream().anyMatch(k -> !k.kinds().isEmpty());
            s.append("| key | type | default | unit |").append(kinds ? " kinds |" : "").append(" example | meaning |\n");
            s.append("| --- | --- | --- | --- |").append(kinds ? " --- |" : "").append(" --- | --- |\n");
            for (Key k : sec.keys()) {
                s.append("| `").append(k.name()).append("` | ").append(cell(k.type())).append(" | ").append(cell(k.defaultValue())).append(" | ")
                        .append(cell(k.unit())).append(" |").append(kinds ? " " + cell(k.kinds()) + " |" : "").append(" `")
                        .append(k.example()).append("` | ").append(cell(k.doc())).append(" |\n");
            }
        }
        return s.toString();
    }

    private static String cell(String s) {
        return s.isEmpty() ? "-" : s.replace("|", "\\|");
    }
}
