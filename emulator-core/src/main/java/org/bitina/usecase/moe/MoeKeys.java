package org.bitina.usecase.moe;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/** A moe job's own keys: sources, experts and the model. */
final class MoeKeys {
    private MoeKeys() {}

    /** The {@code jobs[]} keys of a moe job. */
    static final List<Key> JOB = List.of(
            key(
                    "sources",
                    "list of hosts (selectors)",
                    "required",
                    "",
                    "sources = [h1, h17]",
                    "the hosts holding tokens"),
            key(
                    "experts",
                    "list: hosts (selectors) or objects",
                    "required",
                    "",
                    "experts = [\"rack:edge-1-2\"]",
                    "the experts, bit 1 first; a host or selector is one expert per host named after it; see `jobs[].experts[]`"),
            key("moe", "object", "required", "", "moe { top-k = 2, hidden = 64 }", "the model; see `jobs[].moe`"));

    static final Section EXPERT = new Section(
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

    static final Section MOE_MODEL = new Section(
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
                    key("window", "whole number 1..2^20", "64", "tokens", "window = 64", "tokens in flight per source"),
                    key(
                            "routing",
                            "uniform | object",
                            "uniform",
                            "",
                            "routing { zipf = 1.2 }",
                            "which experts a token chooses; see `jobs[].moe.routing`")));

    static final Section ROUTING = new Section(
            "jobs[].moe.routing",
            "Which experts a token chooses before capacity drops any: `uniform` (the seeded router's top-k), or one"
                    + " of these keys. A pinned route overrides it for its tokens.",
            List.of(
                    key(
                            "zipf",
                            "number 0..10",
                            "none (uniform)",
                            "",
                            "zipf = 1.2",
                            "expert i (0-based, as listed) has popularity 1/(i+1)^s; each token draws top-k experts"
                                    + " without replacement, seeded by the job's seed, source and token"),
                    key(
                            "trace",
                            "file name",
                            "none (uniform)",
                            "",
                            "trace = routes.csv",
                            "one line source,token,experts per token (h1,0,e2 e5), relative to the file naming it")));

    static final Section PINNED = new Section(
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
}
