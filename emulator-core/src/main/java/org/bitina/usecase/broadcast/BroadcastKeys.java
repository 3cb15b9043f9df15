package org.bitina.usecase.broadcast;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.JobKeys;
import org.bitina.usecase.multicast.MulticastKeys;
import org.bitina.usecase.reduction.ArrayKeys;

/** A broadcast job's keys: the array kinds' members and data (nothing reduced: no op, no scale), its root and rounds. */
final class BroadcastKeys {
    private BroadcastKeys() {}

    private static final List<String> SHARED = List.of("members", "data");

    static final Map<String, List<Key>> KEYS = Map.of(
            JobKeys.JOB_PATH,
            Stream.concat(
                            ArrayKeys.JOB.stream().filter(k -> SHARED.contains(k.name())),
                            Stream.of(
                                    key("root")
                                            .type("host name")
                                            .byDefault("the first member")
                                            .example("root = h3")
                                            .means("the member whose array every other member ends with (broadcast)"),
                                    MulticastKeys.MAX_ROUNDS))
                    .toList(),
            JobKeys.DATA_PATH,
            ArrayKeys.DATA.stream()
                    .filter(k -> !k.name().equals("op") && !k.name().equals("scale"))
                    .toList());
}
