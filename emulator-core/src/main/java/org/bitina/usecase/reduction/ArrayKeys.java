package org.bitina.usecase.reduction;

import static org.bitina.scenario.ConfigSchema.key;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.ConfigSchema.Key;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobKeys;

/** The keys every kind that reduces a seeded array takes (AllReduce, BIER-INC): members, data, iterations, membership. */
public final class ArrayKeys {
    private ArrayKeys() {}

    /** The {@code jobs[]} keys of an array job. */
    public static final List<Key> JOB = List.of(
            key(
                    "members",
                    "list of hosts (selectors) or \"all\"",
                    "required",
                    "",
                    "members = [\"pod:1-2\", h20]",
                    "the job's endpoints; bit 1 is the first (selectors expand in host order)"),
            key(
                    "data",
                    "object",
                    "required",
                    "",
                    "data { window = 16, seed = 7 }",
                    "what is reduced or sent; see `jobs[].data`"),
            key("iterations", "whole number 1..99", "1", "iterations", "iterations = 4", "how often the job runs (A8)"),
            key(
                    "membership",
                    "list of objects",
                    "[]",
                    "",
                    "membership = [{ at-iteration = 2, leave = [h4] }]",
                    "membership changes between iterations (A8); see `jobs[].membership[]`"));

    /** The {@code jobs[].data} keys of an array job. */
    public static final List<Key> DATA = List.of(
            key(
                    "elements",
                    "whole number 1..2^28",
                    "required",
                    "elements per worker",
                    "elements = 65536",
                    "the array's length"),
            key(
                    "type",
                    "float32 | int32",
                    "float32",
                    "",
                    "type = int32",
                    "element type; int32 is fixed point, exact as on a switch ASIC"),
            key("op", "sum | product | max | min", "sum", "", "op = max", "the reduction"),
            key(
                    "chunk",
                    "whole number 1..2^20",
                    "256",
                    "elements",
                    "chunk = 256",
                    "elements per chunk, one packet each (with header and tag within the MTU)"),
            key(
                    "window",
                    "whole number 1..65536",
                    "32",
                    "chunks",
                    "window = 32",
                    "chunks (packets) in flight per sender"),
            key("seed", "whole number", "1", "", "seed = 7", "the seeded random data"),
            key(
                    "scale",
                    "whole number 1..2^24",
                    "1024",
                    "units per 1.0",
                    "scale = 1024",
                    "int32 fixed point: units per 1.0"));

    public static final Section MEMBERSHIP = new Section(
            "jobs[].membership[]",
            "One membership change (A8).",
            List.of(
                    key(
                            "at-iteration",
                            "whole number 1..iterations",
                            "required",
                            "",
                            "at-iteration = 3",
                            "the iteration it takes effect"),
                    key(
                            "leave",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "leave = [h4]",
                            "members that leave (from iteration 2)"),
                    key(
                            "join",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "join = [h9]",
                            "hosts that join (from iteration 2)"),
                    key(
                            "fail",
                            "list of hosts (selectors)",
                            "[]",
                            "",
                            "fail = [h3]",
                            "members silent in that iteration, gone after it")));

    /** An array job's keys by section, for its reader, with {@code own} (its kind's) after the shared job keys. */
    public static Map<String, List<Key>> with(List<Key> own) {
        List<Key> job = new ArrayList<>(JOB);
        job.addAll(own);
        return Map.of(JobKeys.JOB_PATH, List.copyOf(job), JobKeys.DATA_PATH, DATA);
    }
}
