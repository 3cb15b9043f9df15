package org.bitina.scenario;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Section;

/** The schema's sections of a job: the keys every job has, each kind's own keys, and the sections inside a job. */
public final class JobKeys {
    private JobKeys() {}

    static final String ALLREDUCE = "allreduce";
    static final String MOE = "moe";
    static final String MULTICAST = "reliable-multicast";
    static final String BIER_INC = "bier-inc";
    private static final String ARRAY = ALLREDUCE + ", " + BIER_INC;
    private static final String EVERY = "all";

    public static final Section JOB = new Section(
            "jobs[]",
            "A job: the keys every kind has (kinds `all`), and each kind's own (a key of another kind is refused, naming the kinds"
                    + " that take it). The use-case guides in docs/ say what each kind does with them.",
            "job kinds",
            List.of(
                    key(
                            "name",
                            EVERY,
                            "name",
                            "required",
                            "",
                            "name = fig1",
                            "the job's name in the report and the trace"),
                    key(
                            "kind",
                            EVERY,
                            "allreduce | moe | reliable-multicast | bier-inc",
                            "required",
                            "",
                            "kind = allreduce",
                            "the use case"),
                    key(
                            "tenant",
                            EVERY,
                            "whole number 0..65535",
                            "0",
                            "",
                            "tenant = 2",
                            "the tenant id on the wire (S1)"),
                    key(
                            "id",
                            EVERY,
                            "whole number",
                            "the job's position (1, 2, ...)",
                            "",
                            "id = 7",
                            "the job id on the wire"),
                    key(
                            "completion-timeout",
                            EVERY,
                            "duration",
                            "defaults.completion-timeout, else " + ConfigSchema.DEFAULT_COMPLETION_TIMEOUT.toMillis()
                                    + "ms",
                            "ns, us, ms, s",
                            "completion-timeout = 50ms",
                            "how long a node waits before sending a partial result (F5)"),
                    key(
                            "baselines",
                            EVERY,
                            "list of modes",
                            "[]",
                            "",
                            "baselines = [ring, ps]",
                            "host baselines run after INA: ring, ps (allreduce, bier-inc); tree, halving-doubling, hierarchical (allreduce); all-to-all (moe); unicast-ack (reliable-multicast)"),
                    key(
                            "expect",
                            EVERY,
                            "object",
                            "what the fault plan implies",
                            "",
                            "expect { ina = partial, missing = [h16] }",
                            "how each mode must end, exactly; see `jobs[].expect`"),
                    key(
                            "members",
                            ARRAY,
                            "list of hosts (selectors) or \"all\"",
                            "required",
                            "",
                            "members = [\"pod:1-2\", h20]",
                            "the job's endpoints; bit 1 is the first (selectors expand in host order)"),
                    key(
                            "bit-space",
                            "allreduce, moe, reliable-multicast, bier-inc",
                            "members | hosts | object",
                            "members",
                            "",
                            "bit-space = hosts",
                            "who holds a bit; see `jobs[].bit-space`"),
                    key(
                            "encoding",
                            "allreduce, moe, reliable-multicast, bier-inc",
                            "flat | hierarchical | node-list | object",
                            "flat",
                            "",
                            "encoding = hierarchical",
                            "the endpoint-set encoding on the wire (H2); see `jobs[].encoding`"),
                    key(
                            "tree",
                            ALLREDUCE,
                            "object",
                            "required",
                            "",
                            "tree { mode = auto, root = core-1 }",
                            "the VAT; see `jobs[].tree`"),
                    key(
                            "data",
                            "allreduce, reliable-multicast, bier-inc",
                            "object",
                            "allreduce, bier-inc: required",
                            "",
                            "data { window = 16, seed = 7 }",
                            "what is reduced or sent; see `jobs[].data`"),
                    key(
                            "iterations",
                            ARRAY,
                            "whole number 1..99",
                            "1",
                            "iterations",
                            "iterations = 4",
                            "how often the job runs (A8)"),
                    key(
                            "membership",
                            ARRAY,
                            "list of objects",
                            "[]",
                            "",
                            "membership = [{ at-iteration = 2, leave = [h4] }]",
                            "membership changes between iterations (A8); see `jobs[].membership[]`"),
                    key(
                            "security",
                            ALLREDUCE,
                            "object",
                            "masking and checksum off",
                            "",
                            "security { masking = on }",
                            "S6 per job; see `jobs[].security`"),
                    key(
                            "partitions",
                            ALLREDUCE,
                            "by-pod | list of host lists (selectors)",
                            "none: one tree",
                            "",
                            "partitions = by-pod",
                            "parallel trees over partitions with a second stage (H2); lists are named p1, p2, ..."),
                    key(
                            "sources",
                            MOE,
                            "list of hosts (selectors)",
                            "required",
                            "",
                            "sources = [h1, h17]",
                            "the hosts holding tokens"),
                    key(
                            "experts",
                            MOE,
                            "list: hosts (selectors) or objects",
                            "required",
                            "",
                            "experts = [\"rack:edge-1-2\"]",
                            "the experts, bit 1 first; a host or selector is one expert per host named after it; see `jobs[].experts[]`"),
                    key(
                            "moe",
                            MOE,
                            "object",
                            "required",
                            "",
                            "moe { top-k = 2, hidden = 64 }",
                            "the model; see `jobs[].moe`"),
                    key("source", MULTICAST, "host name", "required", "", "source = h1", "the sender"),
                    key(
                            "receivers",
                            MULTICAST,
                            "list of hosts (selectors) or \"all\"",
                            "required",
                            "",
                            "receivers = \"all\"",
                            "the receivers; a selector leaves the source out"),
                    key(
                            "ack",
                            MULTICAST,
                            "object",
                            "per window, composed tree",
                            "",
                            "ack { per = packet }",
                            "how receivers acknowledge; see `jobs[].ack`"),
                    key(
                            "max-rounds",
                            MULTICAST,
                            "whole number 1..1000",
                            "8",
                            "rounds",
                            "max-rounds = 4",
                            "retransmission rounds before the missing receivers are reported"),
                    key(
                            "collective",
                            BIER_INC,
                            "allreduce | reduce | broadcast",
                            "allreduce",
                            "",
                            "collective = reduce",
                            "what the INC trees compute"),
                    key(
                            "root",
                            BIER_INC,
                            "member name",
                            "required for reduce and broadcast",
                            "",
                            "root = h1",
                            "the member a reduce ends at or a broadcast starts from"),
                    key(
                            "edge",
                            BIER_INC,
                            "hosts | leaf-switches",
                            "hosts",
                            "",
                            "edge = leaf-switches",
                            "who holds the bit positions: the hosts, or their leaf switches (B6)")));

    public static final Section DATA = new Section(
            "jobs[].data",
            "The array an allreduce or bier-inc job reduces (A3, A4), or what a" + " reliable-multicast job sends.",
            "job kinds",
            List.of(
                    key(
                            "elements",
                            ARRAY,
                            "whole number 1..2^28",
                            "required",
                            "elements per worker",
                            "elements = 65536",
                            "the array's length"),
                    key(
                            "type",
                            ARRAY,
                            "float32 | int32",
                            "float32",
                            "",
                            "type = int32",
                            "element type; int32 is fixed point, exact as on a switch ASIC"),
                    key("op", ARRAY, "sum | product | max | min", "sum", "", "op = max", "the reduction"),
                    key(
                            "chunk",
                            ARRAY,
                            "whole number 1..2^20",
                            "256",
                            "elements",
                            "chunk = 256",
                            "elements per chunk, one packet each (with header and tag within the MTU)"),
                    key(
                            "window",
                            "allreduce, reliable-multicast, bier-inc",
                            "whole number 1..65536",
                            "32 (allreduce, bier-inc); 16 (reliable-multicast)",
                            "chunks; packets",
                            "window = 32",
                            "chunks (packets) in flight per sender"),
                    key(
                            "seed",
                            "allreduce, reliable-multicast, bier-inc",
                            "whole number",
                            "1",
                            "",
                            "seed = 7",
                            "the seeded random data"),
                    key(
                            "scale",
                            ARRAY,
                            "whole number 1..2^24",
                            "1024",
                            "units per 1.0",
                            "scale = 1024",
                            "int32 fixed point: units per 1.0"),
                    key(
                            "bytes",
                            MULTICAST,
                            "size",
                            "1MiB",
                            "bytes (KiB, MiB, GiB)",
                            "bytes = 4MiB",
                            "what the source sends, 1 byte to 16 GiB"),
                    key(
                            "packet",
                            MULTICAST,
                            "whole number 4..2^20, a multiple of 4",
                            "1024",
                            "bytes",
                            "packet = 1024",
                            "payload bytes per data packet")));

    public static final Section TREE = new Section(
            "jobs[].tree",
            "An allreduce job's Virtual Aggregation Tree (A1, A6).",
            List.of(
                    key(
                            "mode",
                            "vat | auto",
                            "required",
                            "",
                            "mode = auto",
                            "vat: the A-BMs as written under `vat`; auto: built for the members"),
                    key(
                            "root",
                            "node name",
                            "required",
                            "",
                            "root = s6",
                            "the VAT root: a switch, or a host that is no member (parameter server, A2)"),
                    key(
                            "vat",
                            "object",
                            "required with mode = vat",
                            "",
                            "vat { s1 = [w1, w2], s6 = [s1, w3] }",
                            "see `jobs[].tree.vat`")));

    public static final Section VAT = new Section(
            "jobs[].tree.vat",
            "Each VAT node with its children (members or VAT nodes); A-BMs follow.",
            List.of(key(
                    "<node>", "list of node names", "-", "", "s7 = [w3, w4]", "a switch of the VAT and its children")));

    public static final Section BIT_SPACE = new Section(
            "jobs[].bit-space",
            "`members` (the members hold bits 1..n in order), `hosts` (every"
                    + " host holds its position, as in the seed's Fig. 1) or explicit BFR-ids as an object.",
            List.of(key(
                    "<endpoint>",
                    "whole number 1..",
                    "-",
                    "bit position",
                    "h4 = 1",
                    "the endpoint's position (1-based, unique; every member"
                            + " one; a moe job's experts exactly 1..E)")));

    public static final Section ENCODING = new Section(
            "jobs[].encoding",
            "The endpoint-set encoding (H2) as an object; a word"
                    + " (`flat`, `hierarchical`, `node-list`) is `kind` alone.",
            List.of(
                    key(
                            "kind",
                            "flat | hierarchical | node-list",
                            "required unless hosts and fabric",
                            "",
                            "kind = hierarchical",
                            "the encoding on every link"),
                    key(
                            "block",
                            "whole number 1..65535",
                            "the most bit-space endpoints of one pod",
                            "bits",
                            "block = 16",
                            "hierarchical: bits per block"),
                    key(
                            "hosts",
                            "flat | hierarchical | node-list",
                            "none (with fabric, instead of kind)",
                            "",
                            "hosts = node-list",
                            "the encoding on host links; the switch at a host's port translates (H2)"),
                    key(
                            "fabric",
                            "flat | hierarchical | node-list",
                            "none (with hosts, instead of kind)",
                            "",
                            "fabric = hierarchical",
                            "the encoding between switches")));

    public static final Section SECURITY = new Section(
            "jobs[].security",
            "An allreduce job's S6 protections (both need an int32 sum).",
            List.of(
                    key("masking", "on | off", "off", "", "masking = on", "additive masks that cancel at the root"),
                    key(
                            "checksum",
                            "on | off",
                            "off",
                            "",
                            "checksum = on",
                            "the end-to-end linear checksum, host reduction on a mismatch")));

    public static final Section MEMBERSHIP = new Section(
            "jobs[].membership[]",
            "One membership change (A8).",
            List.of(
                    key(
                            "at-iteration",
                            "whole number 1..iterations",
                            "required",
                            "",
                            "at-iteration = 3",
                            "the iteration it takes effect"),
                    key(
                            "leave",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "leave = [h4]",
                            "members that leave (from iteration 2)"),
                    key(
                            "join",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "join = [h9]",
                            "hosts that join (from iteration 2)"),
                    key(
                            "fail",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "fail = [h3]",
                            "members silent in that iteration, gone after it")));

    public static final Section EXPECT = new Section(
            "jobs[].expect",
            "How each mode the job runs must end (else the run exits non-zero).",
            List.of(
                    key(
                            "<mode>",
                            "complete | partial | failed | object",
                            "-",
                            "",
                            "ring = failed",
                            "`ina` or a baseline: its status, or `{ status, missing }` (see `jobs[].expect.<mode>`)"),
                    key(
                            "missing",
                            "list of hosts (selectors)",
                            "required for a partial mode",
                            "",
                            "missing = [h16]",
                            "who every partial mode names missing, exactly")));

    public static final Section OUTCOME = new Section(
            "jobs[].expect.<mode>",
            "One mode's expected outcome as an object.",
            List.of(
                    key(
                            "status",
                            "complete | partial | failed",
                            "required",
                            "",
                            "status = partial",
                            "how the mode ends"),
                    key(
                            "missing",
                            "list of hosts (selectors)",
                            "expect.missing",
                            "",
                            "missing = [h3]",
                            "who it names missing")));

    public static final Section EXPERT = new Section(
            "jobs[].experts[]",
            "An expert as an object: one named expert on a host, or one expert"
                    + " per selected host named by a prefix and its bit position.",
            List.of(
                    key("name", "name", "required with host", "", "name = e1", "the expert's name"),
                    key("host", "host name", "required with name", "", "host = h9", "the host it runs on"),
                    key(
                            "hosts",
                            "list of hosts (selectors)",
                            "required with prefix",
                            "",
                            "hosts = [\"h9..h16\"]",
                            "one expert on each"),
                    key(
                            "prefix",
                            "name",
                            "required with hosts",
                            "",
                            "prefix = e",
                            "names PREFIX + the expert's position in the job's expert list (e1, e2, ...)")));

    public static final Section MOE_MODEL = new Section(
            "jobs[].moe",
            "A moe job's model (M1-M5).",
            List.of(
                    key("top-k", "whole number 1..64", "2", "experts", "top-k = 2", "experts per token (D-BM bits)"),
                    key(
                            "hidden",
                            "whole number 64..4096",
                            "64",
                            "float32 values",
                            "hidden = 64",
                            "a token's hidden vector"),
                    key(
                            "tokens-per-source",
                            "whole number 1..2^20",
                            "64",
                            "tokens",
                            "tokens-per-source = 4096",
                            "tokens each source holds"),
                    key(
                            "capacity-factor",
                            "positive number",
                            "2.0",
                            "",
                            "capacity-factor = 1.25",
                            "expert capacity: ceil(factor * tokens * K / experts)"),
                    key("seed", "whole number", "1", "", "seed = 12", "the seeded gating and data"),
                    key(
                            "granularity",
                            "group | pair",
                            "group",
                            "",
                            "granularity = pair",
                            "group: tokens choosing the same experts share a packet (M4); pair: one packet per (source, expert)"),
                    key(
                            "pinned",
                            "list of objects",
                            "[]",
                            "",
                            "pinned = [{ tokens = [0], experts = [e2, e3] }]",
                            "tokens whose experts are fixed; see `jobs[].moe.pinned[]`"),
                    key(
                            "window",
                            "whole number 1..2^20",
                            "64",
                            "tokens",
                            "window = 64",
                            "tokens in flight per source")));

    public static final Section PINNED = new Section(
            "jobs[].moe.pinned[]",
            "Tokens routed to given experts instead of the gate's choice.",
            List.of(
                    key(
                            "tokens",
                            "list of token indices",
                            "required",
                            "",
                            "tokens = [0, 1]",
                            "indices 0..tokens-per-source-1"),
                    key(
                            "experts",
                            "list of expert names",
                            "required",
                            "",
                            "experts = [e2, e3, e6, e7]",
                            "exactly top-k experts")));

    public static final Section ACK = new Section(
            "jobs[].ack",
            "How a reliable-multicast job's receivers acknowledge (R2, R4).",
            List.of(
                    key(
                            "per",
                            "window | packet",
                            "window",
                            "",
                            "per = packet",
                            "one ACK per window once it is whole, or per packet"),
                    key(
                            "tree",
                            "preconfigured | self-installed | composed",
                            "composed",
                            "",
                            "tree = self-installed",
                            "the ACK tree: A-BMs, C-BMs the data installs, or A-BMs for the bulk and C-BMs for retransmissions")));

    public static final List<Section> ALL = List.of(
            JOB,
            DATA,
            TREE,
            VAT,
            BIT_SPACE,
            ENCODING,
            SECURITY,
            MEMBERSHIP,
            EXPECT,
            OUTCOME,
            EXPERT,
            MOE_MODEL,
            PINNED,
            ACK);
}
