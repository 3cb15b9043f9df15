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
                    key("topology")
                            .type("object")
                            .byDefault("required")
                            .example("topology { generator { kind = fat-tree, k = 4 } }")
                            .means("the network; see `topology`"),
                    key("jobs")
                            .type("list of objects")
                            .byDefault("[]")
                            .example(
                                    "jobs = [{ name = j1, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data { elements = 4096 } }]")
                            .means("the jobs, run one after the other (or at once: `schedule = shared`); see `jobs[]`"),
                    key("faults")
                            .type("list of objects")
                            .byDefault("[]")
                            .example("faults = [{ at = 0ms, kind = straggler, node = w3, delay = 20ms }]")
                            .means("what goes wrong and when; see `faults[]`"),
                    key("attacks")
                            .type("list of objects")
                            .byDefault("[]")
                            .example("attacks = [{ at = 5us, kind = replay, node = h1, job = ar }]")
                            .means("hostile endpoints on member hosts; see `attacks[]`"),
                    key("cluster")
                            .type("object")
                            .byDefault("{}")
                            .example("cluster { jvms = 3, placement = by-pod }")
                            .means("cluster members and placement; see `cluster`"),
                    key("repeat")
                            .type("object")
                            .byDefault("{}")
                            .example("repeat { runs = 10 }")
                            .means(
                                    "run the file several times, every seed moved per run, and report each figure's mean and 95 %"
                                            + " confidence interval; see `repeat`, `--repeat` overrides"),
                    key("clock")
                            .type("virtual | real")
                            .byDefault("virtual")
                            .example("clock = real")
                            .means(
                                    "virtual: timers, stragglers and faults in modelled time (reproducible); real: wall-clock Pekko timers; `--clock` overrides"),
                    key("schedule")
                            .type("sequential | shared")
                            .byDefault("sequential")
                            .example("schedule = shared")
                            .means(
                                    "sequential: each job alone on an idle fabric, one after the other; shared: all jobs in one phase"
                                            + " on one fabric, each from its `start` or `after` (T1; docs/shared-fabric.md)"),
                    key("worlds")
                            .type("list of ina | baseline")
                            .byDefault("[ina, baseline]")
                            .example("worlds = [ina]")
                            .means(
                                    "schedule = shared: the worlds the mix runs in; ina: every job in-network; baseline: every job"
                                            + " its first listed baseline (its kind's fallback when it lists none)"),
                    key("alone")
                            .type("boolean")
                            .byDefault("true (false beside a workload)")
                            .example("alone = false")
                            .means("schedule = shared: each job also runs alone in each world, for its `slowdown`"),
                    key("traffic")
                            .type("list of objects")
                            .byDefault("[]")
                            .example("traffic = [{ kind = permutation, load = 30%, flow-size = 64KiB, stop = 500us }]")
                            .means(
                                    "schedule = shared: background unicast flows beside the jobs, in every world's mix and alone"
                                            + " (T3); see `traffic[]` and docs/shared-fabric.md"),
                    key("workload")
                            .type("object")
                            .byDefault("none")
                            .example(
                                    "workload { model { layers = 2, hidden = 128, ffn = 512, vocab = 2048, seq = 256 }, parallel { dp = 16 }, gpu { tflops = 10 } }")
                            .means(
                                    "a training iteration whose collectives are the file's jobs, run in one shared phase per world"
                                            + " (no `jobs` beside it); see docs/workloads.md"),
                    key("congestion")
                            .type("none | dcqcn | object")
                            .byDefault("none")
                            .example("congestion { control = dcqcn, kmin = 4KiB, kmax = 16KiB, pmax = 20% }")
                            .means("congestion control of the traffic's senders and the jobs' endpoints (a"
                                    + " `traffic[]` entry or a job may override it); with dcqcn every switch egress"
                                    + " queue ECN-marks with RED; see `congestion` and docs/shared-fabric.md"),
                    key("security")
                            .type("object")
                            .byDefault("{}")
                            .example("security { mac = off }")
                            .means("run-wide security; see `security`"),
                    key("defaults")
                            .type("object")
                            .byDefault("{}")
                            .example("defaults { completion-timeout = 50ms }")
                            .means(
                                    "job keys every job gets unless it sets its own (topology-configs/defaults.conf sets completion-timeout)"),
                    key("defs")
                            .type("object")
                            .byDefault("{}")
                            .example("defs { n = 4096 }")
                            .means(
                                    "free values for HOCON substitutions (`data.elements = ${defs.n}`; `${?ENV}`: an environment variable, left out when unset); "
                                            + "never read by the loader itself")));

    public static final Section TOPOLOGY = new Section(
            "topology",
            "Either a generator or switches, hosts and links by name. Generated names: fat-tree k: `core-J` (1..(k/2)^2), `agg-P-I` and"
                    + " `edge-P-I` (pod P = 1..k, I = 1..k/2), hosts `h1`..`hN` (N = k^3/4, numbered pod by pod and edge by edge: `edge-P-I`"
                    + " holds k/2 consecutive hosts), each pod a placement pod; leaf-spine: `spine-I`, `leaf-I` (each a pod with its hosts),"
                    + " hosts `h1`..`hN` in leaf order; paper-fig1: the seed's Fig. 1, switches `s1`..`s7` and workers `w1`..`w8`.",
            List.of(
                    key("generator")
                            .type("object")
                            .byDefault("none")
                            .example("generator { kind = fat-tree, k = 8 }")
                            .means("a generated topology; see `topology.generator`"),
                    key("switches")
                            .type("list of names")
                            .byDefault("[]")
                            .example("switches = [s1, s2]")
                            .means("switch names (letters, digits, `_.-`)"),
                    key("hosts")
                            .type("list of names")
                            .byDefault("[]")
                            .example("hosts = [w1, w2, w3]")
                            .means("host names; their order is the host order selectors follow"),
                    key("links")
                            .type("list")
                            .byDefault("[]")
                            .example("links = [[s1, w1], { between = [s2, w3], latency = 5us }]")
                            .means("a pair of names, or an object (see `topology.links[]`)"),
                    key("link-defaults")
                            .type("object")
                            .byDefault("latency 1us, bandwidth 100Gbps, mtu 4096, loss 0 (defaults.conf)")
                            .example("link-defaults { latency = 2us }")
                            .means("every link's properties; see `topology.link-defaults`"),
                    key("pods")
                            .type("object of lists")
                            .byDefault("generators set pods")
                            .example("pods { rack1 = [w1, w2], rack2 = [w3] }")
                            .means(
                                    "groups of nodes that `placement = by-pod` keeps on one member; numbered 1, 2, ... in the order written (`pod:N`)"),
                    key("switch-defaults")
                            .type("object")
                            .byDefault("unlimited")
                            .example("switch-defaults { state-entries = 64 }")
                            .means(
                                    "every switch's soft-state capacity (S5) and optional speed; see `topology.switch-defaults`"),
                    key("switch-overrides")
                            .type("object of objects")
                            .byDefault("none")
                            .example("switch-overrides { leaf-2 { state-entries = 12 } }")
                            .means("one switch's capacity, keys as `topology.switch-defaults`")));

    public static final Section GENERATOR = new Section(
            "topology.generator",
            "A generated topology; the node names it makes are under `topology`.",
            "generators",
            List.of(
                    key("kind")
                            .type("fat-tree | leaf-spine | paper-fig1")
                            .byDefault("required")
                            .kinds("all")
                            .example("kind = fat-tree")
                            .means("which generator"),
                    key("k").type("even whole number 2..64")
                            .byDefault("required")
                            .unit("ports per switch")
                            .kinds("fat-tree")
                            .example("k = 8")
                            .means("the fat-tree's arity"),
                    key("spines")
                            .type("whole number")
                            .byDefault("required")
                            .unit("switches")
                            .kinds("leaf-spine")
                            .example("spines = 4")
                            .means("spine switches"),
                    key("leaves")
                            .type("whole number")
                            .byDefault("required")
                            .unit("switches")
                            .kinds("leaf-spine")
                            .example("leaves = 8")
                            .means("leaf switches, each linked to every spine"),
                    key("hosts-per-leaf")
                            .type("whole number")
                            .byDefault("required")
                            .unit("hosts")
                            .kinds("leaf-spine")
                            .example("hosts-per-leaf = 16")
                            .means("hosts under each leaf")));

    public static final Section LINK = new Section(
            "topology.link-defaults",
            "A link's properties; a link object may override each.",
            List.of(
                    key("latency")
                            .type("duration")
                            .byDefault("1us (defaults.conf)")
                            .unit("ns, us, ms, s")
                            .example("latency = 1us")
                            .means("propagation delay"),
                    key("bandwidth")
                            .type("bit rate")
                            .byDefault("100Gbps (defaults.conf)")
                            .unit("bps, Kbps, Mbps, Gbps, Tbps")
                            .example("bandwidth = 100Gbps")
                            .means("serialisation: bytes / bandwidth"),
                    key("mtu")
                            .type("bytes")
                            .byDefault("4096 (defaults.conf)")
                            .unit("bytes")
                            .example("mtu = 4096")
                            .means("largest packet; chunks must fit, with the S2 tag"),
                    key("loss")
                            .type("fraction or percent")
                            .byDefault("0")
                            .example("loss = 1%")
                            .means("seeded random loss on the link"),
                    key("buffer")
                            .type("bytes")
                            .byDefault("unlimited")
                            .unit("B, KiB, MiB")
                            .example("buffer = 256KiB")
                            .means("a switch port's egress buffer per direction (drop-tail; a host's NIC waits"
                                    + " instead): a packet that would take the bytes waiting behind the one on the"
                                    + " wire above it is dropped as `queue full`"),
                    key("ecn-threshold")
                            .type("bytes")
                            .byDefault("none")
                            .unit("B, KiB, MiB")
                            .example("ecn-threshold = 64KiB")
                            .means("a switch port marks a packet that joins its queue above this many waiting bytes"
                                    + " (itself included) and counts it (`ecnMarks`); no congestion control reacts")));

    public static final Section LINK_OBJECT = new Section(
            "topology.links[]",
            "A link written as an object: its ends and any property of"
                    + " `topology.link-defaults` (latency, bandwidth, mtu, loss, buffer, ecn-threshold) for this"
                    + " link alone.",
            List.of(
                    key("between")
                            .type("[a, b]")
                            .byDefault("required")
                            .example("between = [s1, w1]")
                            .means("the two nodes the link joins"),
                    key("latency")
                            .type("duration")
                            .byDefault("link-defaults.latency")
                            .unit("ns, us, ms, s")
                            .example("latency = 5us")
                            .means("this link's propagation delay"),
                    key("bandwidth")
                            .type("bit rate")
                            .byDefault("link-defaults.bandwidth")
                            .unit("bps, Kbps, Mbps, Gbps, Tbps")
                            .example("bandwidth = 10Gbps")
                            .means("this link's rate"),
                    key("mtu")
                            .type("bytes")
                            .byDefault("link-defaults.mtu")
                            .unit("bytes")
                            .example("mtu = 9000")
                            .means("this link's largest packet"),
                    key("loss")
                            .type("fraction or percent")
                            .byDefault("link-defaults.loss")
                            .example("loss = 2%")
                            .means("this link's seeded random loss"),
                    key("buffer")
                            .type("bytes")
                            .byDefault("link-defaults.buffer")
                            .unit("B, KiB, MiB")
                            .example("buffer = 64KiB")
                            .means("this link's switch egress buffer per direction"),
                    key("ecn-threshold")
                            .type("bytes")
                            .byDefault("link-defaults.ecn-threshold")
                            .unit("B, KiB, MiB")
                            .example("ecn-threshold = 32KiB")
                            .means("this link's ECN marking threshold")));

    public static final Section SWITCH = new Section(
            "topology.switch-defaults",
            "A switch's capacity (S5 admission control) and optional speed; the same keys"
                    + " in `switch-overrides.<switch>` for one switch.",
            List.of(
                    key("state-entries")
                            .type("whole number")
                            .byDefault("unlimited")
                            .unit("aggregation entries")
                            .example("state-entries = 64")
                            .means(
                                    "the aggregation entries a job may hold at once on the switch; a job whose declaration does not fit is not admitted"),
                    key("processing")
                            .type("duration")
                            .byDefault("0 (off)")
                            .unit("ns, us, ms, s")
                            .example("processing = 300ns")
                            .means("optional realism: every packet waits this long in the switch before its egress"),
                    key("aggregation-rate")
                            .type("bit rate")
                            .byDefault("unlimited (off)")
                            .unit("bps, Kbps, Mbps, Gbps, Tbps")
                            .example("aggregation-rate = 3.2Tbps")
                            .means(
                                    "optional realism: how fast the switch adds; a packet toward a root with B payload bytes holds its one adder for B*8/rate, so sums arriving together queue")));

    public static final Section CLUSTER = new Section(
            "cluster",
            "Where the devices run (E2).",
            List.of(
                    key("jvms")
                            .type("whole number 1..64")
                            .byDefault("1")
                            .unit("members")
                            .example("jvms = 3")
                            .means("cluster members; `--jvms` overrides"),
                    key("placement")
                            .type("by-pod | round-robin | explicit")
                            .byDefault("by-pod")
                            .example("placement = round-robin")
                            .means("how devices are spread over the members"),
                    key("explicit")
                            .type("object: node = member index")
                            .byDefault("required with placement = explicit")
                            .example("explicit { s1 = 0, h1 = 1 }")
                            .means("each device's member (0 is the coordinator's)")));

    public static final Section SECURITY = new Section(
            "security",
            "Run-wide security (S2, S4, S5).",
            List.of(
                    key("mac")
                            .type("on | off")
                            .byDefault("on")
                            .example("mac = off")
                            .means(
                                    "S2: HMAC-SHA256 tags (over the header and the payload's SHA-256) on endpoints' packets, checked at the"
                                            + " first switch"),
                    key("max-completion-timeout")
                            .type("duration")
                            .byDefault("10s")
                            .unit("ns, us, ms, s")
                            .example("max-completion-timeout = 1s")
                            .means("S5: the longest completion timeout a job may set"),
                    key("rate-limit")
                            .type("object")
                            .byDefault("none")
                            .example("rate-limit { packets-per-second = 2000000, burst = 64 }")
                            .means("S4: a token bucket per job and host port")));

    public static final Section REPEAT = new Section(
            "repeat",
            "Repetitions: the file run several times, each run (draw) with every seed moved (data, MoE gating, traffic"
                    + " arrivals, the links' loss draws; run 1 is the file's own seeds). docs/reference.md, \"Repetitions\".",
            List.of(
                    key("runs")
                            .type("whole number 1..1000")
                            .byDefault("1")
                            .unit("runs")
                            .example("runs = 10")
                            .means(
                                    "how many draws; figures are printed as mean and 95 % confidence interval (Student's t) over them")));

    public static final Section RATE_LIMIT = new Section(
            "security.rate-limit",
            "S4's per-port token bucket.",
            List.of(
                    key("packets-per-second")
                            .type("whole number")
                            .byDefault("required")
                            .unit("packets/s")
                            .example("packets-per-second = 2000000")
                            .means("the bucket's rate"),
                    key("burst")
                            .type("whole number")
                            .byDefault("required")
                            .unit("packets")
                            .example("burst = 64")
                            .means("the bucket's depth")));

    private static final String NODE_FAULTS = "switch-crash, switch-recover, straggler, silent, malicious-switch";

    public static final Section FAULT = new Section(
            "faults[]",
            "One fault; each kind takes its own keys (a key of another kind is refused). See docs/faults.md.",
            "fault kinds",
            List.of(
                    key("at")
                            .type("duration")
                            .byDefault("0ms")
                            .unit("ns, us, ms, s")
                            .kinds("all")
                            .example("at = 20us")
                            .means("when: modelled time (virtual clock) or wall time (real)"),
                    key("kind")
                            .type(
                                    "link-down | link-up | switch-crash | switch-recover | loss | duplicate | reorder | delay | straggler"
                                            + " | silent | member-loss | malicious-switch")
                            .byDefault("required")
                            .kinds("all")
                            .example("kind = straggler")
                            .means("what happens"),
                    key("node")
                            .type("node name; straggler and silent: a host selector")
                            .byDefault("required")
                            .kinds(NODE_FAULTS)
                            .example("node = w3")
                            .means(
                                    "the switch or host it happens to; a straggler or silent fault naming several hosts (`\"rack:edge-1-1\"`) is one"
                                            + " fault per host"),
                    key("link")
                            .type("[a, b]")
                            .byDefault("required; loss, duplicate, reorder: every link")
                            .kinds("link-down, link-up, delay, loss, duplicate, reorder")
                            .example("link = [s1, s5]")
                            .means("the link it happens to"),
                    key("delay")
                            .type("duration")
                            .byDefault("required")
                            .unit("ns, us, ms, s")
                            .kinds("straggler, delay")
                            .example("delay = 20ms")
                            .means("a straggler's or a link's added delay"),
                    key("jitter")
                            .type("duration")
                            .byDefault("0")
                            .unit("ns, us, ms, s")
                            .kinds("straggler")
                            .example("jitter = 5ms")
                            .means("a straggler's seeded random extra delay"),
                    key("rate")
                            .type("fraction or percent")
                            .byDefault("required")
                            .kinds("loss, duplicate, reorder")
                            .example("rate = 5%")
                            .means("how often loss, duplication or reordering strikes"),
                    key("chunks")
                            .type("list of whole numbers")
                            .byDefault("all")
                            .unit("chunks")
                            .kinds("straggler, malicious-switch")
                            .example("chunks = [3, 4]")
                            .means("the chunks a straggler delays or a malicious switch corrupts"),
                    key("member")
                            .type("member index")
                            .byDefault("required")
                            .kinds("member-loss")
                            .example("member = 1")
                            .means("the cluster member a member-loss halts (not 0)")));

    public static final Section ATTACK = new Section(
            "attacks[]",
            "A hostile endpoint on a member host (S1-S4); each kind takes its own keys. See docs/security.md.",
            "attack kinds",
            List.of(
                    key("at")
                            .type("duration")
                            .byDefault("0ms")
                            .unit("ns, us, ms, s")
                            .kinds("all")
                            .example("at = 5us")
                            .means("when the attack packets leave"),
                    key("kind")
                            .type(
                                    "forged-mac | replay | spoof-bits | non-member-bits | amplify | foreign-job | soft-state-flood | rate-flood"
                                            + " | spoofed-ack")
                            .byDefault("required")
                            .kinds("all")
                            .example("kind = replay")
                            .means("what the attacker sends"),
                    key("node")
                            .type("host name")
                            .byDefault("required")
                            .kinds("all")
                            .example("node = h1")
                            .means("the member host it runs on"),
                    key("job")
                            .type("job name")
                            .byDefault("required")
                            .kinds("all")
                            .example("job = ar")
                            .means("the job it attacks"),
                    key("as")
                            .type("list of hosts (selectors)")
                            .byDefault("required")
                            .kinds("spoof-bits, spoofed-ack")
                            .example("as = [h2]")
                            .means("whose bits it claims"),
                    key("count")
                            .type("whole number 1..1000000")
                            .byDefault("1000")
                            .unit("packets")
                            .kinds("soft-state-flood, rate-flood")
                            .example("count = 500")
                            .means("a flood's packets")));

    public static final Section TRAFFIC = new Section(
            "traffic[]",
            "Background traffic under schedule = shared (T3): open-loop unicast flows of MTU-sized packets through the"
                    + " jobs' ports, queues and buffers, whose starts are Poisson arrivals at `load` of each sender's link"
                    + " rate; each flow a go-back-N reliable connection that resends what was lost. See"
                    + " docs/shared-fabric.md.",
            List.of(
                    key("kind")
                            .type("permutation | incast | uniform | all-to-all")
                            .byDefault("required")
                            .example("kind = permutation")
                            .means(
                                    "who sends to whom: a random permutation without fixed points, every host to `to`, a uniformly"
                                            + " drawn other host per flow, or each sender round the others in turn"),
                    key("hosts")
                            .type("list of hosts (selectors)")
                            .byDefault("\"all\"")
                            .example("hosts = \"pod:1-2\"")
                            .means("the hosts that send and receive (at least two)"),
                    key("to")
                            .type("host name")
                            .byDefault("required for incast")
                            .example("to = h1")
                            .means("incast's destination, one of `hosts`"),
                    key("load")
                            .type("fraction")
                            .byDefault("required")
                            .example("load = 30%")
                            .means(
                                    "each sender's offered load, a fraction of its link's bandwidth (above 0, below 100%)"),
                    key("flow-size")
                            .type("size")
                            .byDefault("64KiB")
                            .unit("bytes")
                            .example("flow-size = 256KiB")
                            .means("every flow's bytes, sent as MTU-sized packets"),
                    key("start")
                            .type("duration")
                            .byDefault("0us")
                            .unit("ns, us, ms, s")
                            .example("start = 10us")
                            .means("no flow starts before it"),
                    key("stop")
                            .type("duration")
                            .byDefault("required")
                            .unit("ns, us, ms, s")
                            .example("stop = 500us")
                            .means("no flow starts at or after it"),
                    key("seed")
                            .type("whole number")
                            .byDefault("1")
                            .example("seed = 3")
                            .means("the arrivals' and the pattern's seed"),
                    key("congestion")
                            .type("none | dcqcn")
                            .byDefault("the file's `congestion.control`")
                            .example("congestion = dcqcn")
                            .means("this entry's senders' congestion control")));

    public static final Section CONGESTION = new Section(
            "congestion",
            "Congestion control (off by default): with `control = dcqcn` every switch egress queue ECN-marks packets"
                    + " with RED (ACKs never: RoCE sends them in a class no switch marks), each receiver answers a marked"
                    + " packet with a congestion notification (CNP) on its ACK, at most one per flow per `cnp-interval`,"
                    + " and each sender paces its flow at a rate DCQCN's reaction point sets (org.bitina.protocol.Dcqcn)."
                    + " Defaults: RED as the DCQCN paper runs it, the reaction point's as HPCC's ns-3 RoCE model"
                    + " (RdmaHw) sets them. `congestion = dcqcn` alone takes every default. An AllReduce's INA"
                    + " workers react with AIMD on their window, its schedule-run host baselines (ring, tree,"
                    + " halving-doubling, hierarchical) with DCQCN per peer, its parameter server's workers with AIMD"
                    + " on the marks its results carry, an MoE job's sources with AIMD on their token window (a job's"
                    + " `congestion` key), a reliable multicast's source with DCQCN from its receivers' CNPs; BIER-INC"
                    + " does not react yet.",
            List.of(
                    key("control")
                            .type("none | dcqcn")
                            .byDefault("none")
                            .example("control = dcqcn")
                            .means(
                                    "the traffic senders' congestion control (a `traffic[]` entry's `congestion` overrides)"),
                    key("kmin")
                            .type("size")
                            .byDefault("5KiB")
                            .unit("bytes")
                            .example("kmin = 4KiB")
                            .means("RED: a packet joining an egress queue of at most this many bytes is never marked"),
                    key("kmax")
                            .type("size")
                            .byDefault("200KiB")
                            .unit("bytes")
                            .example("kmax = 16KiB")
                            .means("RED: above it every packet is marked; between kmin and kmax with a probability"
                                    + " rising linearly to pmax"),
                    key("pmax")
                            .type("fraction")
                            .byDefault("1%")
                            .example("pmax = 20%")
                            .means("RED: the marking probability just below kmax (above 0)"),
                    key("cnp-interval")
                            .type("duration")
                            .byDefault("50us")
                            .unit("ns, us, ms, s")
                            .example("cnp-interval = 10us")
                            .means("a receiver sends at most one CNP per flow per interval"),
                    key("g").type("number in (0, 1]")
                            .byDefault("0.0625")
                            .example("g = 0.00390625")
                            .means("the gain of alpha's moving average"),
                    key("alpha-timer")
                            .type("duration")
                            .byDefault("55us")
                            .unit("ns, us, ms, s")
                            .example("alpha-timer = 55us")
                            .means("alpha decays (or, after a CNP, rises) once per period"),
                    key("decrease-timer")
                            .type("duration")
                            .byDefault("4us")
                            .unit("ns, us, ms, s")
                            .example("decrease-timer = 4us")
                            .means("a sender cuts its rate at most once per period: rate * (1 - alpha/2)"),
                    key("increase-timer")
                            .type("duration")
                            .byDefault("1500us")
                            .unit("ns, us, ms, s")
                            .example("increase-timer = 55us")
                            .means("the rate rises once per period after a cut"),
                    key("fast-recovery")
                            .type("whole number 0..1000")
                            .byDefault("5")
                            .example("fast-recovery = 5")
                            .means("increase steps half way back to the target before the target itself rises"),
                    key("rate-ai")
                            .type("bandwidth")
                            .byDefault("5Mbps")
                            .unit("bits per second")
                            .example("rate-ai = 40Mbps")
                            .means("the target's step in additive increase"),
                    key("rate-hai")
                            .type("bandwidth")
                            .byDefault("50Mbps")
                            .unit("bits per second")
                            .example("rate-hai = 400Mbps")
                            .means("the target's step in hyper increase (after the first additive step)"),
                    key("min-rate")
                            .type("bandwidth")
                            .byDefault("100Mbps")
                            .unit("bits per second")
                            .example("min-rate = 1Gbps")
                            .means("a sender's rate never falls below it"),
                    key("rate-on-first-cnp")
                            .type("number in (0, 1]")
                            .byDefault("1")
                            .example("rate-on-first-cnp = 0.5")
                            .means("the fraction of its rate a flow keeps at its first CNP (before the first cut)"),
                    key("clamp-target")
                            .type("boolean")
                            .byDefault("false")
                            .example("clamp-target = true")
                            .means("every cut sets the target to the current rate (by default only the first after an"
                                    + " increase does)")));

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
            TRAFFIC,
            CONGESTION);
}
