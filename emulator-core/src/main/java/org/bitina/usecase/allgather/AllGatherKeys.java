package org.bitina.usecase.allgather;

import java.util.List;
import java.util.Map;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.JobKeys;
import org.bitina.usecase.reduction.ArrayKeys;

/** An all-gather job's keys: the array kinds' members and data, without iterations, and without an op (nothing is reduced). */
final class AllGatherKeys {
    private AllGatherKeys() {}

    static final Map<String, List<Key>> KEYS = Map.of(
            JobKeys.JOB_PATH,
            ArrayKeys.JOB.stream()
                    .filter(k -> k.name().equals("members") || k.name().equals("data"))
                    .toList(),
            JobKeys.DATA_PATH,
            ArrayKeys.DATA.stream().filter(k -> !k.name().equals("op")).toList());
}
