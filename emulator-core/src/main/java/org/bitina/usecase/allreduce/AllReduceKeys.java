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
            key("tree", "object", "required", "", "tree { mode = auto, root = core-1 }", "the VAT; see `jobs[].tree`"),
            key(
                    "security",
                    "object",
                    "masking and checksum off",
                    "",
                    "security { masking = on }",
                    "S6 per job; see `jobs[].security`"),
            key(
                    "partitions",
                    "by-pod | list of host lists (selectors)",
                    "none: one tree",
                    "",
                    "partitions = by-pod",
                    "parallel trees over partitions with a second stage (H2); lists are named p1, p2, ..."));

    static final Section TREE = new Section(
            "jobs[].tree",
            "An allreduce job's Virtual Aggregation Tree (A1, A6).",
            List.of(
                    key(
                            "mode",
                            "vat | auto",
                            "required",
                            "",
                            "mode = auto",
                            "vat: the A-BMs as written under `vat`; auto: built for the members"),
                    key(
                            "root",
                            "node name",
                            "required",
                            "",
                            "root = s6",
                            "the VAT root: a switch, or a host that is no member (parameter server, A2)"),
                    key(
                            "vat",
                            "object",
                            "required with mode = vat",
                            "",
                            "vat { s1 = [w1, w2], s6 = [s1, w3] }",
                            "see `jobs[].tree.vat`")));

    static final Section VAT = new Section(
            "jobs[].tree.vat",
            "Each VAT node with its children (members or VAT nodes); A-BMs follow.",
            List.of(key(
                    "<node>", "list of node names", "-", "", "s7 = [w3, w4]", "a switch of the VAT and its children")));

    static final Section SECURITY = new Section(
            "jobs[].security",
            "An allreduce job's S6 protections (both need an int32 sum).",
            List.of(
                    key("masking", "on | off", "off", "", "masking = on", "additive masks that cancel at the root"),
                    key(
                            "checksum",
                            "on | off",
                            "off",
                            "",
                            "checksum = on",
                            "the end-to-end linear checksum, host reduction on a mismatch")));
}
