package org.bitina.usecase.reducescatter;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.JobKeys;
import org.bitina.usecase.reduction.ArrayKeys;

/** A reduce-scatter job's keys: the array kinds' members and data (it runs once: no iterations), and the tree's root. */
final class ReduceScatterKeys {
    private ReduceScatterKeys() {}

    static final Key ROOT = key("root")
            .type("node name")
            .byDefault("required")
            .example("root = core-1")
            .means("the root of the aggregation tree built for the members (a switch, or a host that is no member)");

    static final Map<String, List<Key>> KEYS = Map.of(JobKeys.JOB_PATH, job(), JobKeys.DATA_PATH, ArrayKeys.DATA);

    private static List<Key> job() {
        List<Key> keys = new ArrayList<>(ArrayKeys.JOB.stream()
                .filter(k -> k.name().equals("members") || k.name().equals("data"))
                .toList());
        keys.add(ROOT);
        return List.copyOf(keys);
    }
}
