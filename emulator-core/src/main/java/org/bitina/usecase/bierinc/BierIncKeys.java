package org.bitina.usecase.bierinc;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;

/** A bier-inc job's own keys, after the array kinds' ones: the collective, its root, the edge. */
final class BierIncKeys {
    private BierIncKeys() {}

    static final List<Key> JOB = List.of(
            key("collective")
                    .type("allreduce | reduce | broadcast")
                    .byDefault("allreduce")
                    .example("collective = reduce")
                    .means("what the INC trees compute"),
            key("root")
                    .type("member name")
                    .byDefault("required for reduce and broadcast")
                    .example("root = h1")
                    .means("the member a reduce ends at or a broadcast starts from"),
            key("edge")
                    .type("hosts | leaf-switches")
                    .byDefault("hosts")
                    .example("edge = leaf-switches")
                    .means("who holds the bit positions: the hosts, or their leaf switches (B6)"));
}
