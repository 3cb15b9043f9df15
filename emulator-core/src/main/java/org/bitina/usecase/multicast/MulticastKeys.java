package org.bitina.usecase.multicast;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/** A reliable-multicast job's own keys: source, receivers, acknowledgments, rounds, and what it sends. */
public final class MulticastKeys {
    private MulticastKeys() {}

    /** The rounds a source sends again before it names the receivers still missing a window (a broadcast's too). */
    public static final Key MAX_ROUNDS = key(
            "max-rounds",
            "whole number 1..1000",
            "16",
            "rounds",
            "max-rounds = 4",
            "retransmission rounds before the missing receivers are reported");

    /** The {@code jobs[]} keys of a reliable-multicast job. */
    static final List<Key> JOB = List.of(
            key(
                    "data",
                    "object",
                    "1MiB in packets of 1024 bytes",
                    "",
                    "data { window = 16, seed = 7 }",
                    "what is reduced or sent; see `jobs[].data`"),
            key("source", "host name", "required", "", "source = h1", "the sender"),
            key(
                    "receivers",
                    "list of hosts (selectors) or \"all\"",
                    "required",
                    "",
                    "receivers = \"all\"",
                    "the receivers; a selector leaves the source out"),
            key(
                    "ack",
                    "object",
                    "per window, composed tree",
                    "",
                    "ack { per = packet }",
                    "how receivers acknowledge; see `jobs[].ack`"),
            MAX_ROUNDS);

    /** The {@code jobs[].data} keys of a reliable-multicast job. */
    static final List<Key> DATA = List.of(
            key(
                    "window",
                    "whole number 1..65536",
                    "16",
                    "packets",
                    "window = 32",
                    "chunks (packets) in flight per sender"),
            key("seed", "whole number", "1", "", "seed = 7", "the seeded random data"),
            key(
                    "bytes",
                    "size",
                    "1MiB",
                    "bytes (KiB, MiB, GiB)",
                    "bytes = 4MiB",
                    "what the source sends, 1 byte to 16 GiB"),
            key(
                    "packet",
                    "whole number 4..2^20, a multiple of 4",
                    "1024",
                    "bytes",
                    "packet = 1024",
                    "payload bytes per data packet"));

    static final Section ACK = new Section(
            "jobs[].ack",
            "How a reliable-multicast job's receivers acknowledge (R2, R4).",
            List.of(
                    key(
                            "per",
                            "window | packet",
                            "window",
                            "",
                            "per = packet",
                            "one ACK per window once it is whole, or per packet"),
                    key(
                            "tree",
                            "preconfigured | self-installed | composed",
                            "composed",
                            "",
                            "tree = self-installed",
                            "the ACK tree: A-BMs, C-BMs the data installs, or A-BMs for the bulk and C-BMs for retransmissions")));
}
