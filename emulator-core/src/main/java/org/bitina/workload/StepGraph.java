package org.bitina.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One iteration of a workload: its steps in an order where every step comes after all it waits
 * for, over {@code worldSize} ranks. Built by {@link ModelExpansion} or the Chakra importer; the
 * constructor refuses an unknown dependency, a duplicate id and a cycle.
 */
public record StepGraph(int worldSize, List<Step> steps) {
    public StepGraph {
        steps = topological(steps);
        for (Step s : steps) {
            if (s.op() instanceof Step.Compute c) {
                checkRank(s, c.rank(), worldSize);
            } else if (s.op() instanceof Step.Transfer t) {
                checkRank(s, t.rank(), worldSize);
                checkRank(s, t.peer(), worldSize);
            } else {
                Step.Collective c = (Step.Collective) s.op();
                checkRank(s, c.group().ranks().get(c.group().size() - 1), worldSize);
            }
        }
    }

    private static void checkRank(Step s, int rank, int worldSize) {
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException(
                    "step " + s.id() + " (" + s.name() + ") names rank " + rank + " of a world of " + worldSize);
        }
    }

    /** The steps sorted so that dependencies come first (Kahn's algorithm, first ready first out: the same steps give the same order). */
    private static List<Step> topological(List<Step> steps) {
        Map<Integer, Step> byId = new LinkedHashMap<>();
        for (Step s : steps) {
            if (byId.put(s.id(), s) != null) {
                throw new IllegalArgumentException("two steps have id " + s.id());
            }
        }
        Map<Integer, Integer> waiting = new HashMap<>();
        Map<Integer, List<Integer>> dependents = new HashMap<>();
        for (Step s : steps) {
            List<Integer> deps = new ArrayList<>(s.dataDeps());
            deps.addAll(s.ctrlDeps());
            for (int d : deps) {
                if (!byId.containsKey(d)) {
                    throw new IllegalArgumentException(
                            "step " + s.id() + " (" + s.name() + ") depends on unknown step " + d);
                }
                dependents.computeIfAbsent(d, k -> new ArrayList<>()).add(s.id());
            }
            waiting.put(s.id(), deps.size());
        }
        Deque<Integer> ready = new ArrayDeque<>();
        for (Step s : steps) {
            if (waiting.get(s.id()) == 0) {
                ready.add(s.id());
            }
        }
        List<Step> out = new ArrayList<>(steps.size());
        while (!ready.isEmpty()) {
            int id = ready.poll();
            out.add(byId.get(id));
            for (int next : dependents.getOrDefault(id, List.of())) {
                if (waiting.merge(next, -1, Integer::sum) == 0) {
                    ready.add(next);
                }
            }
        }
        if (out.size() != steps.size()) {
            Step stuck = steps.stream()
                    .filter(s -> waiting.get(s.id()) > 0)
                    .findFirst()
                    .orElseThrow();
            throw new IllegalArgumentException(
                    "the steps' dependencies form a cycle (through step " + stuck.id() + ", " + stuck.name() + ")");
        }
        return List.copyOf(out);
    }

    /** The steps {@code rank} takes part in, in graph order. */
    public List<Step> stepsOf(int rank) {
        return steps.stream().filter(s -> s.involves(rank)).toList();
    }

    /** Steps of {@code type}. */
    public List<Step> ofType(StepType type) {
        return steps.stream().filter(s -> s.type() == type).toList();
    }

    public Step step(int id) {
        return steps.stream().filter(s -> s.id() == id).findFirst().orElseThrow();
    }
}
