package org.bitina.usecases;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.JobKinds;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;
import org.bitina.workload.ModelExpansion;
import org.bitina.workload.ModelSpec;
import org.bitina.workload.RankPlacement;
import org.bitina.workload.Step;
import org.bitina.workload.StepGraph;
import org.bitina.workload.StepScheduler;
import org.bitina.workload.StepType;
import org.bitina.workload.TransferPairs;
import org.bitina.workload.WorkloadSettings;
import org.bitina.workload.WorkloadSource;
import org.bitina.workload.chakra.ChakraImport;
import org.bitina.workload.chakra.ChakraReader;
import org.bitina.workload.chakra.ChakraTraceException;

/**
 * A workload's collectives as jobs (docs/workloads.md "Running a workload"): each collective of
 * each iteration becomes one job of the matching kind over its ranks' hosts, tenant 1, its own job
 * id, named as {@link StepScheduler#jobName} names it, started when the scheduler says. The only
 * place that maps a step type onto a kind, so it lives beside the list of kinds.
 *
 * <ul>
 *   <li>ALL_REDUCE: {@code allreduce} over a VAT built automatically ({@code tree.mode = auto});
 *   <li>REDUCE_SCATTER: {@code reduce-scatter}; ALL_GATHER: {@code all-gather} (its bytes are the
 *       gathered array, each member's shard a chunk in turn);
 *   <li>ALL_TO_ALL: {@code moe} over the group, every rank's host both a source and one expert: the
 *       all-to-all's bytes are carried half by the dispatch and half by the combine of one moe job
 *       (the kind always does both), tokens of 256 float32 elements, top-2 (capped at the group);
 *   <li>BROADCAST and REDUCE: {@code bier-inc} with {@code collective = broadcast} or {@code reduce}
 *       rooted at the step's root rank (the group's first: Chakra's schema names none), the tree built
 *       by the data (seed 001);
 *   <li>a SEND and its RECV ({@link TransferPairs}): a {@code bier-inc} broadcast from the sender over
 *       the pair, one receiver's bit in the bitstring.
 * </ul>
 *
 * <p>Bytes become float32 elements ({@code bytes / 4}, rounded up), so the array on the wire has the
 * workload's bytes whatever its {@code dtype}. The root of a tree (AllReduce, ReduceScatter) is the
 * switch nearest to all the group's hosts (least greatest hop count, then least total), spread over
 * the equally near ones by job id. Baselines, for the {@code baseline} world: ring for the array kinds (the
 * bandwidth-optimal host collective that NCCL uses for large buffers; for Broadcast and Reduce NCCL's
 * ring, a pipelined chain from or to the root, and for a send/recv a unicast), all-to-all unicast for MoE.
 */
final class WorkloadJobs {
    private static final int TENANT = 1;
    /** Header room under the MTU for a chunk's payload (INA header, bitmap, tag). */
    private static final int HEADER_ROOM = 256;

    private WorkloadJobs() {}

    static JobKinds.Workload read(ConfigReader w, Topology topology, Path dir) {
        WorkloadSettings settings = WorkloadSettings.fromConfig(w);
        if (settings == null) {
            return null;
        }
        StepGraph graph;
        Map<String, Integer> skipped = Map.of();
        if (settings.source() instanceof WorkloadSource.Model m) {
            graph = ModelExpansion.expand(m);
        } else {
            Path traces = dir.resolve(((WorkloadSource.Chakra) settings.source()).directory());
            try {
                ChakraImport in = ChakraReader.read(traces);
                graph = in.graph();
                skipped = in.skipped();
            } catch (ChakraTraceException e) {
                w.problem("chakra", e.getMessage());
                return null;
            }
        }
        List<String> hosts;
        try {
            hosts = RankPlacement.hosts(
                    settings.ranks(), topology.hosts().stream().map(Node::name).toList(), graph.worldSize());
        } catch (IllegalArgumentException e) {
            w.problem(w.origin(settings.ranks().isEmpty() ? "model" : "ranks"), e.getMessage());
            return null;
        }
        try {
            graph = TransferPairs.merge(graph);
        } catch (IllegalArgumentException e) {
            w.problem(w.origin("chakra"), e.getMessage());
            return null;
        }
        for (Step s : graph.steps()) {
            if (s.op() instanceof Step.Collective c && c.group().size() < 2) {
                w.problem(w.origin(), "step " + s.id() + " (" + s.name() + ") is a collective over one rank");
                return null;
            }
        }
        StepScheduler names = new StepScheduler(graph, settings.iterations());
        int chunk = chunkElements(topology);
        List<Config> jobs = new ArrayList<>();
        // a model's MoE routing (issue 45 item 4) goes to every all-to-all's moe job; traces carry none
        Double zipf = settings.source() instanceof WorkloadSource.Model m
                ? m.model().moe().map(ModelSpec.MoeSpec::zipf).orElse(null)
                : null;
        for (String name : names.jobs()) {
            Step s = names.stepOf(name);
            jobs.add(ConfigValueFactory.fromMap(
                            job(name, jobs.size() + 1, s, hosts, topology, chunk, zipf),
                            "workload collective " + name + " (" + s.name() + ")")
                    .toConfig());
        }
        return new JobKinds.Workload(jobs, new StepScheduler.Plan(graph, settings.iterations(), skipped));
    }

    private static Map<String, Object> job(
            String name, int id, Step s, List<String> hosts, Topology topology, int chunk, Double zipf) {
        Step.Collective c = (Step.Collective) s.op();
        List<String> members = c.group().ranks().stream().map(hosts::get).toList();
        long elements = Math.max(1, (c.bytes() + 3) / 4);
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("name", name);
        j.put("tenant", TENANT);
        j.put("id", id);
        switch (c.type()) {
            case ALL_REDUCE -> {
                j.put("kind", "allreduce");
                j.put("members", members);
                j.put("tree", Map.of("mode", "auto", "root", root(topology, members, id)));
                j.put("data", data(elements, chunk, id, true));
                j.put("baselines", List.of("ring"));
            }
            case REDUCE_SCATTER -> {
                j.put("kind", "reduce-scatter");
                j.put("members", members);
                j.put("root", root(topology, members, id));
                j.put("data", data(elements, chunk, id, true));
                j.put("baselines", List.of("ring"));
            }
            case ALL_GATHER -> {
                j.put("kind", "all-gather");
                j.put("members", members);
                j.put("data", data(elements, chunk, id, false));
                j.put("baselines", List.of("ring"));
            }
            case ALL_TO_ALL -> {
                int topK = Math.min(2, members.size());
                int hidden = Math.max(1, Math.min(chunk, 256));
                // half the bytes each way: the dispatch, then the combine
                long tokens = Math.max(1, c.bytes() / 2 / ((long) topK * hidden * 4));
                j.put("kind", "moe");
                j.put("sources", members);
                j.put("experts", List.of(Map.of("prefix", "e", "hosts", members)));
                Map<String, Object> moe = new LinkedHashMap<>(Map.of(
                        "top-k",
                        topK,
                        "hidden",
                        hidden,
                        "tokens-per-source",
                        (int) Math.min(Integer.MAX_VALUE, tokens),
                        "capacity-factor",
                        2.0,
                        "seed",
                        id,
                        "granularity",
                        "group"));
                if (zipf != null) {
                    moe.put("routing", Map.of("zipf", zipf));
                }
                j.put("moe", moe);
                j.put("baselines", List.of("all-to-all"));
            }
            case BROADCAST, REDUCE, SEND_RECV -> {
                boolean reduce = c.type() == StepType.REDUCE;
                j.put("kind", "bier-inc");
                j.put("members", members);
                j.put("collective", reduce ? "reduce" : "broadcast");
                j.put("root", hosts.get(c.root()));
                j.put("data", data(elements, chunk, id, reduce));
                j.put("baselines", List.of("ring"));
            }
            default -> throw new IllegalArgumentException(c.type() + " is not mapped onto a kind");
        }
        return j;
    }

    private static Map<String, Object> data(long elements, int chunk, int seed, boolean reduce) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("elements", elements);
        d.put("type", "float32");
        if (reduce) {
            d.put("op", "sum");
        }
        d.put("chunk", (int) Math.min(chunk, elements));
        d.put("window", 64);
        d.put("seed", seed);
        return d;
    }

    /** Float32 elements per packet: what the smallest MTU holds under the header room, in multiples of 64. */
    static int chunkElements(Topology topology) {
        int mtu = topology.links().stream().mapToInt(l -> l.spec().mtu()).min().orElse(4096);
        return Math.max(16, (mtu - HEADER_ROOM) / 4 / 64 * 64);
    }

    /**
     * The switch nearest to all of {@code members}: least greatest hop count, then least total;
     * among switches equally near (the cores of a fat-tree) the {@code spread}-th modulo their
     * number, so that concurrent collectives do not all meet at one root.
     */
    static String root(Topology topology, List<String> members, int spread) {
        List<String> best = new ArrayList<>();
        long bestMax = Long.MAX_VALUE;
        long bestSum = Long.MAX_VALUE;
        for (Node sw : topology.switches()) {
            int[] d = hops(topology, sw.name());
            long max = 0;
            long sum = 0;
            for (String m : members) {
                int h = d[topology.indexOf(m)];
                max = Math.max(max, h < 0 ? Integer.MAX_VALUE : h);
                sum += h;
            }
            if (max < bestMax || (max == bestMax && sum < bestSum)) {
                best.clear();
                bestMax = max;
                bestSum = sum;
            }
            if (max == bestMax && sum == bestSum) {
                best.add(sw.name());
            }
        }
        if (best.isEmpty()) {
            throw new IllegalArgumentException("the topology has no switch to root a collective at");
        }
        return best.get(Math.floorMod(spread, best.size()));
    }

    /** Hop counts from {@code from} through switches (a host forwards nothing), -1: unreachable. */
    private static int[] hops(Topology t, String from) {
        int[] d = new int[t.size()];
        Arrays.fill(d, -1);
        int start = t.indexOf(from);
        d[start] = 0;
        Deque<Integer> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            int v = queue.poll();
            if (v != start && t.isHost(v)) {
                continue;
            }
            for (Link l : t.linksOf(v)) {
                int u = t.indexOf(l.other(t.nodes().get(v).name()));
                if (d[u] < 0) {
                    d[u] = d[v] + 1;
                    queue.add(u);
                }
            }
        }
        return d;
    }
}
