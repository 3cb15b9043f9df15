package org.bitina.usecase.bierinc;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;

/** A bier-inc job's own keys, after the array kinds' ones: the collective, its root, the edge. */
final class BierIncKeys {
    private BierIncKeys() {}

    static final List<Key> JOB = List.of(
            key(
                    "collective",
                    "allreduce | reduce | broadcast",
                    "allreduce",
                    "",
                    "collective = reduce",
                    "what the INC trees compute"),
            key(
                    "root",
                    "member name",
                    "required for reduce and broadcast",
                    "",
                    "root = h1",
                    "the member a reduce ends at or a broadcast starts from"),
            key(
                    "edge",
                    "hosts | leaf-switches",
                    "hosts",
                    "",
                    "edge = leaf-switches",
                    "who holds the bit positions: the hosts, or their leaf switches (B6)"));
}
