package org.bitina.usecase.allreduce;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.List;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;

/** An allreduce job's own keys: its tree, its S6 protections, its partitions. */
final class AllReduceKeys {
    private AllReduceKeys() {}

    /** The {@code jobs[]} keys only an allreduce job takes, after the array kinds' ones. */
    static final List<Key> JOB = List.of(
            key("tree")
                    .type("object")
                    .byDefault("required")
                    .example("tree { mode = auto, root = core-1 }")
                    .means("the VAT; see `jobs[].tree`"),
            key("security")
                    .type("object")
                    .byDefault("masking and checksum off")
                    .example("security { masking = on }")
                    .means("S6 per job; see `jobs[].security`"),
            key("partitions")
                    .type("by-pod | list of host lists (selectors)")
                    .byDefault("none: one tree")
                    .example("partitions = by-pod")
                    .means("parallel trees over partitions with a second stage (H2); lists are named p1, p2, ..."));

    static final Section TREE = new Section(
            "jobs[].tree",
            "An allreduce job's Virtual Aggregation Tree (A1, A6).",
            List.of(
                    key("mode")
                            .type("vat | auto")
                            .byDefault("required")
                            .example("mode = auto")
                            .means("vat: the A-BMs as written under `vat`; auto: built for the members"),
                    key("root")
                            .type("node name")
                            .byDefault("required")
                            .example("root = s6")
                            .means("the VAT root: a switch, or a host that is no member (parameter server, A2)"),
                    key("vat")
                            .type("object")
                            .byDefault("required with mode = vat")
                            .example("vat { s1 = [w1, w2], s6 = [s1, w3] }")
                            .means("see `jobs[].tree.vat`")));

    static final Section VAT = new Section(
            "jobs[].tree.vat",
            "Each VAT node with its children (members or VAT nodes); A-BMs follow.",
            List.of(key("<node>")
                    .type("list of node names")
                    .byDefault("-")
                    .example("s7 = [w3, w4]")
                    .means("a switch of the VAT and its children")));

    static final Section SECURITY = new Section(
            "jobs[].security",
            "An allreduce job's S6 protections (both need an int32 sum).",
            List.of(
                    key("masking")
                            .type("on | off")
                            .byDefault("off")
                            .example("masking = on")
                            .means("additive masks that cancel at the root"),
                    key("checksum")
                            .type("on | off")
                            .byDefault("off")
                            .example("checksum = on")
                            .means("the end-to-end linear checksum, host reduction on a mismatch")));
}
