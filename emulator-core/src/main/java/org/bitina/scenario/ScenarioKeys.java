package org.bitina.scenario;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Section;

/** The schema's sections outside the jobs: the top level, topology, cluster, security, faults and attacks. */
public final class ScenarioKeys {
    private ScenarioKeys() {}

    public static final Section ROOT = new Section(
            "(top level)",
            "One file is one scenario: its topology, jobs, faults and cluster.",
            List.of(
                    key(
                            "topology",
                            "object",
                            "required",
                            "",
                            "topology { generator { kind = fat-tree, k = 4 } }",
                            "the network; see `topology`"),
                    key(
                            "jobs",
                            "list of objects",
                            "[]",
                            "",
                            "jobs = [{ name = j1, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data { elements = 4096 } }]",
                            "the jobs, run one after the other (or at once: `schedule = shared`); see `jobs[]`"),
                    key(
                            "faults",
                            "list of objects",
                            "[]",
                            "",
                            "faults = [{ at = 0ms, kind = straggler, node = w3, delay = 20ms }]",
                            "what goes wrong and when; see `faults[]`"),
                    key(
                            "attacks",
                            "list of objects",
                            "[]",
                            "",
                            "attacks = [{ at = 5us, kind = replay, node = h1, job = ar }]",
                            "hostile endpoints on member hosts; see `attacks[]`"),
                    key(
                            "cluster",
                            "object",
                            "{}",
                            "",
                            "cluster { jvms = 3, placement = by-pod }",
                            "cluster members and placement; see `cluster`"),
                    key(
                            "repeat",
                            "object",
                            "{}",
                            "",
                            "repeat { runs = 10 }",
                            "run the file several times, every seed moved per run, and report each figure's mean and 95 %"
                                    + " confidence interval; see `repeat`, `--repeat` overrides"),
                    key(
                            "clock",
                            "virtual | real",
                            "virtual",
                            "",
                            "clock = real",
                            "virtual: timers, stragglers and faults in modelled time (reproducible); real: wall-clock Pekko timers; `--clock` overrides"),
                    key(
                            "schedule",
                            "sequential | shared",
                            "sequential",
                            "",
                            "schedule = shared",
                            "sequential: each job alone on an idle fabric, one after the other; shared: all jobs in one phase"
                                    + " on one fabric, each from its `start` or `after` (T1; docs/shared-fabric.md)"),
                    key(
                            "worlds",
                            "list of ina | baseline",
                            "[ina, baseline]",
                            "",
                            "worlds = [ina]",
                            "schedule = shared: the worlds the mix runs in; ina: every job in-network; baseline: every job"
                                    + " its first listed baseline (its kind's fallback when it lists none)"),
                    key(
                            "alone",
                            "boolean",
                            "true (false beside a workload)",
                            "",
                            "alone = false",
                            "schedule = shared: each job also runs alone in each world, for its `slowdown`"),
                    key(
                            "traffic",
                            "list of objects",
                            "[]",
                            "",
                            "traffic = [{ kind = permutation, load = 30%, flow-size = 64KiB, stop = 500us }]",
                            "schedule = shared: background unicast flows beside the jobs, in every world's mix and alone"
                                    + " (T3); see `traffic[]` and docs/shared-fabric.md"),
                    key(
                            "workload",
                            "object",
                            "none",
                            "",
                            "workload { model { layers = 2, hidden = 128, ffn = 512, vocab = 2048, seq = 256 }, parallel { dp = 16 }, gpu { tflops = 10 } }",
                            "a training iteration whose collectives are the file's jobs, run in one shared phase per world"
                                    + " (no `jobs` beside it); see docs/workloads.md"),
                    key("security", "object", "{}", "", "security { mac = off }", "run-wide security; see `security`"),
                    key(
                            "defaults",
                            "object",
                            "{}",
                            "",
                            "defaults { completion-timeout = 50ms }",
                            "job keys every job gets unless it sets its own (topology-configs/defaults.conf sets completion-timeout)"),
                    key(
                            "defs",
                            "object",
                            "{}",
                            "",
                            "defs { n = 4096 }",
                            "free values for HOCON substitutions (`data.elements = ${defs.n}`; `${?ENV}`: an environment variable, left out when unset); "
                                    + "never read by the loader itself")));

    public static final Section TOPOLOGY = new Section(
            "topology",
            "Either a generator or switches, hosts and links by name. Generated names: fat-tree k: `core-J` (1..(k/2)^2), `agg-P-I` and"
                    + " `edge-P-I` (pod P = 1..k, I = 1..k/2), hosts `h1`..`hN` (N = k^3/4, numbered pod by pod and edge by edge: `edge-P-I`"
                    + " holds k/2 consecutive hosts), each pod a placement pod; leaf-spine: `spine-I`, `leaf-I` (each a pod with its hosts),"
                    + " hosts `h1`..`hN` in leaf order; paper-fig1: the seed's Fig. 1, switches `s1`..`s7` and workers `w1`..`w8`.",
            List.of(
                    key(
                            "generator",
                            "object",
                            "none",
                            "",
                            "generator { kind = fat-tree, k = 8 }",
                            "a generated topology; see `topology.generator`"),
                    key(
                            "switches",
                            "list of names",
                            "[]",
                            "",
                            "switches = [s1, s2]",
                            "switch names (letters, digits, `_.-`)"),
                    key(
                            "hosts",
                            "list of names",
                            "[]",
                            "",
                            "hosts = [w1, w2, w3]",
                            "host names; their order is the host order selectors follow"),
                    key(
                            "links",
                            "list",
                            "[]",
                            "",
                            "links = [[s1, w1], { between = [s2, w3], latency = 5us }]",
                            "a pair of names, or an object (see `topology.links[]`)"),
                    key(
                            "link-defaults",
                            "object",
                            "latency 1us, bandwidth 100Gbps, mtu 4096, loss 0 (defaults.conf)",
                            "",
                            "link-defaults { latency = 2us }",
                            "every link's properties; see `topology.link-defaults`"),
                    key(
                            "pods",
                            "object of lists",
                            "generators set pods",
                            "",
                            "pods { rack1 = [w1, w2], rack2 = [w3] }",
                            "groups of nodes that `placement = by-pod` keeps on one member; numbered 1, 2, ... in the order written (`pod:N`)"),
                    key(
                            "switch-defaults",
                            "object",
                            "unlimited",
                            "",
                            "switch-defaults { state-entries = 64 }",
                            "every switch's soft-state capacity (S5) and optional speed; see `topology.switch-defaults`"),
                    key(
                            "switch-overrides",
                            "object of objects",
                            "none",
                            "",
                            "switch-overrides { leaf-2 { state-entries = 12 } }",
                            "one switch's capacity, keys as `topology.switch-defaults`")));

    public static final Section GENERATOR = new Section(
            "topology.generator",
            "A generated topology; the node names it makes are under `topology`.",
            "generators",
            List.of(
                    key(
                            "kind",
                            "all",
                            "fat-tree | leaf-spine | paper-fig1",
                            "required",
                            "",
                            "kind = fat-tree",
                            "which generator"),
                    key(
                            "k",
                            "fat-tree",
                            "even whole number 2..64",
                            "required",
                            "ports per switch",
                            "k = 8",
                            "the fat-tree's arity"),
                    key("spines", "leaf-spine", "whole number", "required", "switches", "spines = 4", "spine switches"),
                    key(
                            "leaves",
                            "leaf-spine",
                            "whole number",
                            "required",
                            "switches",
                            "leaves = 8",
                            "leaf switches, each linked to every spine"),
                    key(
                            "hosts-per-leaf",
                            "leaf-spine",
                            "whole number",
                            "required",
                            "hosts",
                            "hosts-per-leaf = 16",
                            "hosts under each leaf")));

    public static final Section LINK = new Section(
            "topology.link-defaults",
            "A link's properties; a link object may override each.",
            List.of(
                    key(
                            "latency",
                            "duration",
                            "1us (defaults.conf)",
                            "ns, us, ms, s",
                            "latency = 1us",
                            "propagation delay"),
                    key(
                            "bandwidth",
                            "bit rate",
                            "100Gbps (defaults.conf)",
                            "bps, Kbps, Mbps, Gbps, Tbps",
                            "bandwidth = 100Gbps",
                            "serialisation: bytes / bandwidth"),
                    key(
                            "mtu",
                            "bytes",
                            "4096 (defaults.conf)",
                            "bytes",
                            "mtu = 4096",
                            "largest packet; chunks must fit, with the S2 tag"),
                    key("loss", "fraction or percent", "0", "", "loss = 1%", "seeded random loss on the link"),
                    key(
                            "buffer",
                            "bytes",
                            "unlimited",
                            "B, KiB, MiB",
                            "buffer = 256KiB",
                            "a switch port's egress buffer per direction (drop-tail; a host's NIC waits"
                                    + " instead): a packet that would take the bytes waiting behind the one on the"
                                    + " wire above it is dropped as `queue full`"),
                    key(
                            "ecn-threshold",
                            "bytes",
                            "none",
                            "B, KiB, MiB",
                            "ecn-threshold = 64KiB",
                            "a switch port marks a packet that joins its queue above this many waiting bytes"
                                    + " (itself included) and counts it (`ecnMarks`); no congestion control reacts")));

    public static final Section LINK_OBJECT = new Section(
            "topology.links[]",
            "A link written as an object: its ends and any property of"
                    + " `topology.link-defaults` (latency, bandwidth, mtu, loss, buffer, ecn-threshold) for this"
                    + " link alone.",
            List.of(
                    key("between", "[a, b]", "required", "", "between = [s1, w1]", "the two nodes the link joins"),
                    key(
                            "latency",
                            "duration",
                            "link-defaults.latency",
                            "ns, us, ms, s",
                            "latency = 5us",
                            "this link's propagation delay"),
                    key(
                            "bandwidth",
                            "bit rate",
                            "link-defaults.bandwidth",
                            "bps, Kbps, Mbps, Gbps, Tbps",
                            "bandwidth = 10Gbps",
                            "this link's rate"),
                    key("mtu", "bytes", "link-defaults.mtu", "bytes", "mtu = 9000", "this link's largest packet"),
                    key(
                            "loss",
                            "fraction or percent",
                            "link-defaults.loss",
                            "",
                            "loss = 2%",
                            "this link's seeded random loss"),
                    key(
                            "buffer",
                            "bytes",
                            "link-defaults.buffer",
                            "B, KiB, MiB",
                            "buffer = 64KiB",
                            "this link's switch egress buffer per direction"),
                    key(
                            "ecn-threshold",
                            "bytes",
                            "link-defaults.ecn-threshold",
                            "B, KiB, MiB",
                            "ecn-threshold = 32KiB",
                            "this link's ECN marking threshold")));

    public static final Section SWITCH = new Section(
            "topology.switch-defaults",
            "A switch's capacity (S5 admission control) and optional speed; the same keys"
                    + " in `switch-overrides.<switch>` for one switch.",
            List.of(
                    key(
                            "state-entries",
                            "whole number",
                            "unlimited",
                            "aggregation entries",
                            "state-entries = 64",
                            "the aggregation entries a job may hold at once on the switch; a job whose declaration does not fit is not admitted"),
                    key(
                            "processing",
                            "duration",
                            "0 (off)",
                            "ns, us, ms, s",
                            "processing = 300ns",
                            "optional realism: every packet waits this long in the switch before its egress"),
                    key(
                            "aggregation-rate",
                            "bit rate",
                            "unlimited (off)",
                            "bps, Kbps, Mbps, Gbps, Tbps",
                            "aggregation-rate = 3.2Tbps",
                            "optional realism: how fast the switch adds; a packet toward a root with B payload bytes holds its one adder for B*8/rate, so sums arriving together queue")));

    public static final Section CLUSTER = new Section(
            "cluster",
            "Where the devices run (E2).",
            List.of(
                    key(
                            "jvms",
                            "whole number 1..64",
                            "1",
                            "members",
                            "jvms = 3",
                            "cluster members; `--jvms` overrides"),
                    key(
                            "placement",
                            "by-pod | round-robin | explicit",
                            "by-pod",
                            "",
                            "placement = round-robin",
                            "how devices are spread over the members"),
                    key(
                            "explicit",
                            "object: node = member index",
                            "required with placement = explicit",
                            "",
                            "explicit { s1 = 0, h1 = 1 }",
                            "each device's member (0 is the coordinator's)")));

    public static final Section SECURITY = new Section(
            "security",
            "Run-wide security (S2, S4, S5).",
            List.of(
                    key(
                            "mac",
                            "on | off",
                            "on",
                            "",
                            "mac = off",
                            "S2: HMAC-SHA256 tags (over the header and the payload's SHA-256) on endpoints' packets, checked at the"
                                    + " first switch"),
                    key(
                            "max-completion-timeout",
                            "duration",
                            "10s",
                            "ns, us, ms, s",
                            "max-completion-timeout = 1s",
                            "S5: the longest completion timeout a job may set"),
                    key(
                            "rate-limit",
                            "object",
                            "none",
                            "",
                            "rate-limit { packets-per-second = 2000000, burst = 64 }",
                            "S4: a token bucket per job and host port")));

    public static final Section REPEAT = new Section(
            "repeat",
            "Repetitions: the file run several times, each run (draw) with every seed moved (data, MoE gating, traffic"
                    + " arrivals, the links' loss draws; run 1 is the file's own seeds). docs/reference.md, \"Repetitions\".",
            List.of(
                    key(
                            "runs",
                            "whole number 1..1000",
                            "1",
                            "runs",
                            "runs = 10",
                            "how many draws; figures are printed as mean and 95 % confidence interval (Student's t) over them")));

    public static final Section RATE_LIMIT = new Section(
            "security.rate-limit",
            "S4's per-port token bucket.",
            List.of(
                    key(
                            "packets-per-second",
                            "whole number",
                            "required",
                            "packets/s",
                            "packets-per-second = 2000000",
                            "the bucket's rate"),
                    key("burst", "whole number", "required", "packets", "burst = 64", "the bucket's depth")));

    private static final String NODE_FAULTS = "switch-crash, switch-recover, straggler, silent, malicious-switch";

    public static final Section FAULT = new Section(
            "faults[]",
            "One fault; each kind takes its own keys (a key of another kind is refused). See docs/faults.md.",
            "fault kinds",
            List.of(
                    key(
                            "at",
                            "all",
                            "duration",
                            "0ms",
                            "ns, us, ms, s",
                            "at = 20us",
                            "when: modelled time (virtual clock) or wall time (real)"),
                    key(
                            "kind",
                            "all",
                            "link-down | link-up | switch-crash | switch-recover | loss | duplicate | reorder | delay | straggler"
                                    + " | silent | member-loss | malicious-switch",
                            "required",
                            "",
                            "kind = straggler",
                            "what happens"),
                    key(
                            "node",
                            NODE_FAULTS,
                            "node name; straggler and silent: a host selector",
                            "required",
                            "",
                            "node = w3",
                            "the switch or host it happens to; a straggler or silent fault naming several hosts (`\"rack:edge-1-1\"`) is one"
                                    + " fault per host"),
                    key(
                            "link",
                            "link-down, link-up, delay, loss, duplicate, reorder",
                            "[a, b]",
                            "required; loss, duplicate, reorder: every link",
                            "",
                            "link = [s1, s5]",
                            "the link it happens to"),
                    key(
                            "delay",
                            "straggler, delay",
                            "duration",
                            "required",
                            "ns, us, ms, s",
                            "delay = 20ms",
                            "a straggler's or a link's added delay"),
                    key(
                            "jitter",
                            "straggler",
                            "duration",
                            "0",
                            "ns, us, ms, s",
                            "jitter = 5ms",
                            "a straggler's seeded random extra delay"),
                    key(
                            "rate",
                            "loss, duplicate, reorder",
                            "fraction or percent",
                            "required",
                            "",
                            "rate = 5%",
                            "how often loss, duplication or reordering strikes"),
                    key(
                            "chunks",
                            "straggler, malicious-switch",
                            "list of whole numbers",
                            "all",
                            "chunks",
                            "chunks = [3, 4]",
                            "the chunks a straggler delays or a malicious switch corrupts"),
                    key(
                            "member",
                            "member-loss",
                            "member index",
                            "required",
                            "",
                            "member = 1",
                            "the cluster member a member-loss halts (not 0)")));

    public static final Section ATTACK = new Section(
            "attacks[]",
            "A hostile endpoint on a member host (S1-S4); each kind takes its own keys. See docs/security.md.",
            "attack kinds",
            List.of(
                    key("at", "all", "duration", "0ms", "ns, us, ms, s", "at = 5us", "when the attack packets leave"),
                    key(
                            "kind",
                            "all",
                            "forged-mac | replay | spoof-bits | non-member-bits | amplify | foreign-job | soft-state-flood | rate-flood"
                                    + " | spoofed-ack",
                            "required",
                            "",
                            "kind = replay",
                            "what the attacker sends"),
                    key("node", "all", "host name", "required", "", "node = h1", "the member host it runs on"),
                    key("job", "all", "job name", "required", "", "job = ar", "the job it attacks"),
                    key(
                            "as",
                            "spoof-bits, spoofed-ack",
                            "list of hosts (selectors)",
                            "required",
                            "",
                            "as = [h2]",
                            "whose bits it claims"),
                    key(
                            "count",
                            "soft-state-flood, rate-flood",
                            "whole number 1..1000000",
                            "1000",
                            "packets",
                            "count = 500",
                            "a flood's packets")));

    public static final Section TRAFFIC = new Section(
            "traffic[]",
            "Background traffic under schedule = shared (T3): open-loop unicast flows of MTU-sized packets through the"
                    + " jobs' ports, queues and buffers, whose starts are Poisson arrivals at `load` of each sender's link"
                    + " rate; a flow with a lost packet ends unfinished (no retransmission). See docs/shared-fabric.md.",
            List.of(
                    key(
                            "kind",
                            "permutation | incast | uniform | all-to-all",
                            "required",
                            "",
                            "kind = permutation",
                            "who sends to whom: a random permutation without fixed points, every host to `to`, a uniformly"
                                    + " drawn other host per flow, or each sender round the others in turn"),
                    key(
                            "hosts",
                            "list of hosts (selectors)",
                            "\"all\"",
                            "",
                            "hosts = \"pod:1-2\"",
                            "the hosts that send and receive (at least two)"),
                    key(
                            "to",
                            "host name",
                            "required for incast",
                            "",
                            "to = h1",
                            "incast's destination, one of `hosts`"),
                    key(
                            "load",
                            "fraction",
                            "required",
                            "",
                            "load = 30%",
                            "each sender's offered load, a fraction of its link's bandwidth (above 0, below 100%)"),
                    key(
                            "flow-size",
                            "size",
                            "64KiB",
                            "bytes",
                            "flow-size = 256KiB",
                            "every flow's bytes, sent as MTU-sized packets"),
                    key("start", "duration", "0us", "ns, us, ms, s", "start = 10us", "no flow starts before it"),
                    key(
                            "stop",
                            "duration",
                            "required",
                            "ns, us, ms, s",
                            "stop = 500us",
                            "no flow starts at or after it"),
                    key("seed", "whole number", "1", "", "seed = 3", "the arrivals' and the pattern's seed")));

    public static final List<Section> ALL = List.of(
            ROOT,
            TOPOLOGY,
            GENERATOR,
            LINK,
            LINK_OBJECT,
            SWITCH,
            CLUSTER,
            SECURITY,
            RATE_LIMIT,
            REPEAT,
            FAULT,
            ATTACK,
            TRAFFIC);
}
