package org.bitina.usecase.multicast;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/** A reliable-multicast job's own keys: source, receivers, acknowledgments, rounds, and what it sends. */
public final class MulticastKeys {
    private MulticastKeys() {}

    /** The rounds a source sends again before it names the receivers still missing a window (a broadcast's too). */
    public static final Key MAX_ROUNDS = key("max-rounds")
            .type("whole number 1..1000")
            .byDefault("16")
            .unit("rounds")
            .example("max-rounds = 4")
            .means("retransmission rounds before the missing receivers are reported");

    /** The {@code jobs[]} keys of a reliable-multicast job. */
    static final List<Key> JOB = List.of(
            key("data")
                    .type("object")
                    .byDefault("1MiB in packets of 1024 bytes")
                    .example("data { window = 16, seed = 7 }")
                    .means("what is reduced or sent; see `jobs[].data`"),
            key("source")
                    .type("host name")
                    .byDefault("required")
                    .example("source = h1")
                    .means("the sender"),
            key("receivers")
                    .type("list of hosts (selectors) or \"all\"")
                    .byDefault("required")
                    .example("receivers = \"all\"")
                    .means("the receivers; a selector leaves the source out"),
            key("ack")
                    .type("object")
                    .byDefault("per window, composed tree")
                    .example("ack { per = packet }")
                    .means("how receivers acknowledge; see `jobs[].ack`"),
            MAX_ROUNDS);

    /** The {@code jobs[].data} keys of a reliable-multicast job. */
    static final List<Key> DATA = List.of(
            key("window")
                    .type("whole number 1..65536")
                    .byDefault("16")
                    .unit("packets")
                    .example("window = 32")
                    .means("chunks (packets) in flight per sender"),
            key("seed").type("whole number").byDefault("1").example("seed = 7").means("the seeded random data"),
            key("bytes")
                    .type("size")
                    .byDefault("1MiB")
                    .unit("bytes (KiB, MiB, GiB)")
                    .example("bytes = 4MiB")
                    .means("what the source sends, 1 byte to 16 GiB"),
            key("packet")
                    .type("whole number 4..2^20, a multiple of 4")
                    .byDefault("1024")
                    .unit("bytes")
                    .example("packet = 1024")
                    .means("payload bytes per data packet"));

    static final Section ACK = new Section(
            "jobs[].ack",
            "How a reliable-multicast job's receivers acknowledge (R2, R4).",
            List.of(
                    key("per")
                            .type("window | packet")
                            .byDefault("window")
                            .example("per = packet")
                            .means("one ACK per window once it is whole, or per packet"),
                    key("tree")
                            .type("preconfigured | self-installed | composed")
                            .byDefault("composed")
                            .example("tree = self-installed")
                            .means(
                                    "the ACK tree: A-BMs, C-BMs the data installs, or A-BMs for the bulk and C-BMs for retransmissions")));
}
