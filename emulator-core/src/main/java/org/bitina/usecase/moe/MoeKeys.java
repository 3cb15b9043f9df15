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
            key("sources")
                    .type("list of hosts (selectors)")
                    .byDefault("required")
                    .example("sources = [h1, h17]")
                    .means("the hosts holding tokens"),
            key("experts")
                    .type("list: hosts (selectors) or objects")
                    .byDefault("required")
                    .example("experts = [\"rack:edge-1-2\"]")
                    .means(
                            "the experts, bit 1 first; a host or selector is one expert per host named after it; see `jobs[].experts[]`"),
            key("moe")
                    .type("object")
                    .byDefault("required")
                    .example("moe { top-k = 2, hidden = 64 }")
                    .means("the model; see `jobs[].moe`"));

    static final Section EXPERT = new Section(
            "jobs[].experts[]",
            "An expert as an object: one named expert on a host, or one expert"
                    + " per selected host named by a prefix and its bit position.",
            List.of(
                    key("name")
                            .type("name")
                            .byDefault("required with host")
                            .example("name = e1")
                            .means("the expert's name"),
                    key("host")
                            .type("host name")
                            .byDefault("required with name")
                            .example("host = h9")
                            .means("the host it runs on"),
                    key("hosts")
                            .type("list of hosts (selectors)")
                            .byDefault("required with prefix")
                            .example("hosts = [\"h9..h16\"]")
                            .means("one expert on each"),
                    key("prefix")
                            .type("name")
                            .byDefault("required with hosts")
                            .example("prefix = e")
                            .means("names PREFIX + the expert's position in the job's expert list (e1, e2, ...)")));

    static final Section MOE_MODEL = new Section(
            "jobs[].moe",
            "A moe job's model (M1-M5).",
            List.of(
                    key("top-k")
                            .type("whole number 1..64")
                            .byDefault("2")
                            .unit("experts")
                            .example("top-k = 2")
                            .means("experts per token (D-BM bits)"),
                    key("hidden")
                            .type("whole number 64..4096")
                            .byDefault("64")
                            .unit("float32 values")
                            .example("hidden = 64")
                            .means("a token's hidden vector"),
                    key("tokens-per-source")
                            .type("whole number 1..2^20")
                            .byDefault("64")
                            .unit("tokens")
                            .example("tokens-per-source = 4096")
                            .means("tokens each source holds"),
                    key("capacity-factor")
                            .type("positive number")
                            .byDefault("2.0")
                            .example("capacity-factor = 1.25")
                            .means("expert capacity: ceil(factor * tokens * K / experts)"),
                    key("seed")
                            .type("whole number")
                            .byDefault("1")
                            .example("seed = 12")
                            .means("the seeded gating and data"),
                    key("granularity")
                            .type("group | pair")
                            .byDefault("group")
                            .example("granularity = pair")
                            .means(
                                    "group: tokens choosing the same experts share a packet (M4); pair: one packet per (source, expert)"),
                    key("pinned")
                            .type("list of objects")
                            .byDefault("[]")
                            .example("pinned = [{ tokens = [0], experts = [e2, e3] }]")
                            .means("tokens whose experts are fixed; see `jobs[].moe.pinned[]`"),
                    key("window")
                            .type("whole number 1..2^20")
                            .byDefault("64")
                            .unit("tokens")
                            .example("window = 64")
                            .means("tokens in flight per source"),
                    key("routing")
                            .type("uniform | object")
                            .byDefault("uniform")
                            .example("routing { zipf = 1.2 }")
                            .means("which experts a token chooses; see `jobs[].moe.routing`")));

    static final Section ROUTING = new Section(
            "jobs[].moe.routing",
            "Which experts a token chooses before capacity drops any: `uniform` (the seeded router's top-k), or one"
                    + " of these keys. A pinned route overrides it for its tokens.",
            List.of(
                    key("zipf")
                            .type("number 0..10")
                            .byDefault("none (uniform)")
                            .example("zipf = 1.2")
                            .means(
                                    "expert i (0-based, as listed) has popularity 1/(i+1)^s; each token draws top-k experts"
                                            + " without replacement, seeded by the job's seed, source and token"),
                    key("trace")
                            .type("file name")
                            .byDefault("none (uniform)")
                            .example("trace = routes.csv")
                            .means(
                                    "one line source,token,experts per token (h1,0,e2 e5), relative to the file naming it")));

    static final Section PINNED = new Section(
            "jobs[].moe.pinned[]",
            "Tokens routed to given experts instead of the gate's choice.",
            List.of(
                    key("tokens")
                            .type("list of token indices")
                            .byDefault("required")
                            .example("tokens = [0, 1]")
                            .means("indices 0..tokens-per-source-1"),
                    key("experts")
                            .type("list of expert names")
                            .byDefault("required")
                            .example("experts = [e2, e3, e6, e7]")
                            .means("exactly top-k experts")));
}
