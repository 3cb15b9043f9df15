package org.bitina.scenario;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/**
 * The schema's sections of a job: the keys every job has, and the sections every kind shares
 * (bit space, encoding, expectations). Each kind's own keys come from its reader
 * ({@link JobReader#schemaKeys()}, {@link JobReader#sections()}): the {@code jobs[]} and
 * {@code jobs[].data} sections are the kinds' keys merged, each key naming the kinds that take it.
 */
public final class JobKeys {
    private JobKeys() {}

    /** The path of a job's own section, and of its data section. */
    public static final String JOB_PATH = "jobs[]";

    public static final String DATA_PATH = "jobs[].data";

    private static final String EVERY = "all";

    /** The keys every job has, whatever its kind (its {@code kind} and {@code baselines} listed from {@code readers}). */
    static List<Key> common(List<JobReader> readers) {
        Map<List<String>, List<String>> baselines = new LinkedHashMap<>();
        readers.forEach(r -> baselines
                .computeIfAbsent(r.baselines().stream().map(Mode::name).toList(), b -> new ArrayList<>())
                .add(r.kind()));
        String modes = baselines.entrySet().stream()
                .filter(e -> !e.getKey().isEmpty())
                .map(e -> String.join(", ", e.getKey()) + " (" + String.join(", ", e.getValue()) + ")")
                .collect(Collectors.joining("; "));
        return List.of(
                key("name")
                        .type("name")
                        .byDefault("required")
                        .kinds(EVERY)
                        .example("name = fig1")
                        .means("the job's name in the report and the trace"),
                key("kind")
                        .type(readers.stream().map(JobReader::kind).collect(Collectors.joining(" | ")))
                        .byDefault("required")
                        .kinds(EVERY)
                        .example("kind = " + readers.get(0).kind())
                        .means("the use case"),
                key("tenant")
                        .type("whole number 0..65535")
                        .byDefault("0")
                        .kinds(EVERY)
                        .example("tenant = 2")
                        .means("the tenant id on the wire (S1)"),
                key("id")
                        .type("whole number 1..999999 (an elastic job's 1..9999, over partitions 1..94999)")
                        .byDefault("the job's position (1, 2, ...)")
                        .kinds(EVERY)
                        .example("id = 7")
                        .means("the job id on the wire"),
                key("completion-timeout")
                        .type("duration")
                        .byDefault("defaults.completion-timeout, else "
                                + ConfigSchema.DEFAULT_COMPLETION_TIMEOUT.toMillis() + "ms")
                        .unit("ns, us, ms, s")
                        .kinds(EVERY)
                        .example("completion-timeout = 50ms")
                        .means("how long a node waits before sending a partial result (F5)"),
                key("baselines")
                        .type("list of modes")
                        .byDefault("[]")
                        .kinds(EVERY)
                        .example("baselines = [ring, ps]")
                        .means("host baselines run after INA: " + modes),
                key("expect")
                        .type("object")
                        .byDefault("what the fault plan implies")
                        .kinds(EVERY)
                        .example("expect { ina = partial, missing = [h16] }")
                        .means("how each mode must end, exactly; see `jobs[].expect`"),
                key("recovery")
                        .type("object")
                        .byDefault("each endpoint's modelled rule")
                        .kinds(EVERY)
                        .example("recovery { rto-min = 20us, max-sends = 8 }")
                        .means("bounds on the one retransmission rule of every mode, INA and baselines alike; see"
                                + " `jobs[].recovery`"),
                key("congestion")
                        .type("none | dcqcn")
                        .byDefault("the file's `congestion.control`")
                        .kinds(EVERY)
                        .example("congestion = none")
                        .means("whether the job's endpoints react to ECN marks: an AllReduce's INA workers halve"
                                + " their window when a result comes back marked and grow it by one per window"
                                + " of unmarked results (AIMD, as ATP's); its ring, tree, halving-doubling and"
                                + " hierarchical members pace each peer at DCQCN's rate, cut by the CNPs their"
                                + " peers' acknowledgements carry; a parameter server's workers run the same AIMD"
                                + " on the marks its results carry; an MoE job's sources halve their window of"
                                + " tokens on a marked combine; a reliable multicast's source paces its rounds at"
                                + " DCQCN's rate; BIER-INC does not react yet"),
                key("start")
                        .type("duration")
                        .byDefault("0us")
                        .unit("ns, us, ms, s")
                        .kinds(EVERY)
                        .example("start = 20us")
                        .means("schedule = shared: when the job starts, in modelled time"),
                key("after")
                        .type("list of job names")
                        .byDefault("[]")
                        .kinds(EVERY)
                        .example("after = [ar1]")
                        .means("schedule = shared: the job starts when these jobs have completed"),
                key("admission")
                        .type("strict | best-effort")
                        .byDefault("strict")
                        .kinds(EVERY)
                        .example("admission = best-effort")
                        .means(
                                "when a switch's pool of state-entries has too little free at the job's start: strict runs"
                                        + " its host baseline instead, best-effort takes what is free and passes the rest on"
                                        + " unaggregated to the root (T2)"),
                key("bit-space")
                        .type("members | hosts | object")
                        .byDefault("members")
                        .kinds(EVERY)
                        .example("bit-space = hosts")
                        .means("who holds a bit; see `jobs[].bit-space`"),
                key("encoding")
                        .type("flat | hierarchical | node-list | object")
                        .byDefault("flat")
                        .kinds(EVERY)
                        .example("encoding = hierarchical")
                        .means("the endpoint-set encoding on the wire (H2); see `jobs[].encoding`"));
    }

    /** The names of the keys every job has. */
    static final Set<String> COMMON = Set.of(
            "name",
            "kind",
            "tenant",
            "id",
            "completion-timeout",
            "baselines",
            "expect",
            "recovery",
            "congestion",
            "bit-space",
            "encoding",
            "start",
            "after",
            "admission");

    /** A job's section: the keys every job has, then each kind's own, in the order of {@code readers}. */
    public static Section job(List<JobReader> readers) {
        List<Key> keys = new ArrayList<>(common(readers));
        keys.addAll(merged(JOB_PATH, readers));
        return new Section(
                JOB_PATH,
                "A job: the keys every kind has (kinds `all`), and each kind's own (a key of another kind is refused, naming the kinds"
                        + " that take it). The use-case guides in docs/ say what each kind does with them.",
                "job kinds",
                keys);
    }

    /** A job's {@code data} section: the keys of the kinds that have one. */
    public static Section data(List<JobReader> readers) {
        return new Section(
                DATA_PATH,
                "What a job reduces or sends: the keys each kind takes (job kinds).",
                "job kinds",
                merged(DATA_PATH, readers));
    }

    /**
     * The keys {@code readers} declare for the section at {@code path}, one row per key in the
     * order first declared; the kinds that declare a key take it, and where they give it different
     * defaults, units or meanings, each says its own ({@code 32 (allreduce); 16 (reliable-multicast)}).
     */
    static List<Key> merged(String path, List<JobReader> readers) {
        Map<String, Map<String, Key>> byName = new LinkedHashMap<>();
        for (JobReader r : readers) {
            for (Key k : r.schemaKeys().getOrDefault(path, List.of())) {
                byName.computeIfAbsent(k.name(), n -> new LinkedHashMap<>()).put(r.kind(), k);
            }
        }
        List<Key> out = new ArrayList<>();
        byName.forEach((name, byKind) -> {
            Key first = byKind.values().iterator().next();
            out.add(new Key(
                    name,
                    each(byKind, Key::type),
                    each(byKind, Key::defaultValue),
                    each(byKind, Key::unit),
                    String.join(", ", byKind.keySet()),
                    first.example(),
                    each(byKind, Key::doc)));
        });
        return out;
    }

    /** The one value every kind gives, or each value with the kinds that give it. */
    private static String each(Map<String, Key> byKind, Function<Key, String> field) {
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        byKind.forEach((kind, k) ->
                kinds.computeIfAbsent(field.apply(k), v -> new ArrayList<>()).add(kind));
        if (kinds.size() == 1) {
            return kinds.keySet().iterator().next();
        }
        return kinds.entrySet().stream()
                .map(e -> e.getKey() + " (" + String.join(", ", e.getValue()) + ")")
                .collect(Collectors.joining("; "));
    }

    public static final Section BIT_SPACE = new Section(
            "jobs[].bit-space",
            "`members` (the members hold bits 1..n in order), `hosts` (every"
                    + " host holds its position, as in the seed's Fig. 1) or explicit BFR-ids as an object.",
            List.of(key("<endpoint>")
                    .type("whole number 1..")
                    .byDefault("-")
                    .unit("bit position")
                    .example("h4 = 1")
                    .means("the endpoint's position (1-based, unique; every member"
                            + " one; a moe job's experts exactly 1..E)")));

    public static final Section ENCODING = new Section(
            "jobs[].encoding",
            "The endpoint-set encoding (H2) as an object; a word"
                    + " (`flat`, `hierarchical`, `node-list`) is `kind` alone.",
            List.of(
                    key("kind")
                            .type("flat | hierarchical | node-list")
                            .byDefault("required unless hosts and fabric")
                            .example("kind = hierarchical")
                            .means("the encoding on every link"),
                    key("block")
                            .type("whole number 1..65535")
                            .byDefault("the most bit-space endpoints of one pod")
                            .unit("bits")
                            .example("block = 16")
                            .means("hierarchical: bits per block"),
                    key("hosts")
                            .type("flat | hierarchical | node-list")
                            .byDefault("none (with fabric, instead of kind)")
                            .example("hosts = node-list")
                            .means("the encoding on host links; the switch at a host's port translates (H2)"),
                    key("fabric")
                            .type("flat | hierarchical | node-list")
                            .byDefault("none (with hosts, instead of kind)")
                            .example("fabric = hierarchical")
                            .means("the encoding between switches")));

    public static final Section EXPECT = new Section(
            "jobs[].expect",
            "How each mode the job runs must end (else the run exits non-zero).",
            List.of(
                    key("<mode>")
                            .type("complete | partial | failed | object")
                            .byDefault("-")
                            .example("ring = failed")
                            .means(
                                    "`ina` or a baseline: its status, or `{ status, missing }` (see `jobs[].expect.<mode>`)"),
                    key("missing")
                            .type("list of hosts (selectors)")
                            .byDefault("required for a partial mode")
                            .example("missing = [h16]")
                            .means("who every partial mode names missing, exactly")));

    public static final Section RECOVERY = new Section(
            "jobs[].recovery",
            "Bounds on the retransmission rule every endpoint of the job uses, INA and host baselines alike"
                    + " (RFC 6298 style): after the n-th send of a packet its sender waits min(rto * 2^(n-1), cap)"
                    + " for its answer, then sends it again, at most max-sends times. Each endpoint's rto is the"
                    + " modelled round trip of its own packets, queueing behind its job's windows included, so that"
                    + " a lossless run never retransmits; these keys bound it for every mode at once.",
            List.of(
                    key("rto-min")
                            .type("duration")
                            .byDefault("none: the modelled round trip")
                            .unit("ns, us, ms, s")
                            .example("rto-min = 20us")
                            .means("the shortest first timeout (RFC 6298's floor); the cap rises to it"),
                    key("rto-max")
                            .type("duration")
                            .byDefault("each mode's cap (64 first timeouts; INA's workers: the completion timeout)")
                            .unit("ns, us, ms, s")
                            .example("rto-max = 2ms")
                            .means(
                                    "the longest timeout: the backoff's cap, and the first timeout at most (below the modelled"
                                            + " round trip a lossless run retransmits)"),
                    key("max-sends")
                            .type("whole number 1..32 (the storm guard allows 32 sends of each planned packet)")
                            .byDefault("each mode's (INA workers 16, fallback ring 16, host baselines 10, AllGather 10,"
                                    + " BIER-INC 32, MoE 24)")
                            .example("max-sends = 8")
                            .means(
                                    "sends of one packet, the first included, before its sender gives up and names it")));

    public static final Section OUTCOME = new Section(
            "jobs[].expect.<mode>",
            "One mode's expected outcome as an object.",
            List.of(
                    key("status")
                            .type("complete | partial | failed")
                            .byDefault("required")
                            .example("status = partial")
                            .means("how the mode ends"),
                    key("missing")
                            .type("list of hosts (selectors)")
                            .byDefault("expect.missing")
                            .example("missing = [h3]")
                            .means("who it names missing")));

    /**
     * Every job section: the job's, its data, the shared ones, then each kind's own (a section two
     * kinds share, as the array kinds' membership, once).
     */
    public static List<Section> all(List<JobReader> readers) {
        List<Section> all =
                new ArrayList<>(List.of(job(readers), data(readers), BIT_SPACE, ENCODING, EXPECT, OUTCOME, RECOVERY));
        for (JobReader r : readers) {
            for (Section s : r.sections()) {
                if (!all.contains(s)) {
                    all.add(s);
                }
            }
        }
        return List.copyOf(all);
    }
}
