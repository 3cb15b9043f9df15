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
            key("members")
                    .type("list of hosts (selectors) or \"all\"")
                    .byDefault("required")
                    .example("members = [\"pod:1-2\", h20]")
                    .means("the job's endpoints; bit 1 is the first (selectors expand in host order)"),
            key("data")
                    .type("object")
                    .byDefault("required")
                    .example("data { window = 16, seed = 7 }")
                    .means("what is reduced or sent; see `jobs[].data`"),
            key("iterations")
                    .type("whole number 1..99")
                    .byDefault("1")
                    .unit("iterations")
                    .example("iterations = 4")
                    .means("how often the job runs (A8)"),
            key("membership")
                    .type("list of objects")
                    .byDefault("[]")
                    .example("membership = [{ at-iteration = 2, leave = [h4] }]")
                    .means("membership changes between iterations (A8); see `jobs[].membership[]`"));

    /** The {@code jobs[].data} keys of an array job. */
    public static final List<Key> DATA = List.of(
            key("elements")
                    .type("whole number 1..2^28")
                    .byDefault("required")
                    .unit("elements per worker")
                    .example("elements = 65536")
                    .means("the array's length"),
            key("type")
                    .type("float32 | int32")
                    .byDefault("float32")
                    .example("type = int32")
                    .means("element type; int32 is fixed point, exact as on a switch ASIC"),
            key("op")
                    .type("sum | product | max | min")
                    .byDefault("sum")
                    .example("op = max")
                    .means("the reduction"),
            key("chunk")
                    .type("whole number 1..2^20")
                    .byDefault("256")
                    .unit("elements")
                    .example("chunk = 256")
                    .means("elements per chunk, one packet each (with header and tag within the MTU)"),
            key("window")
                    .type("whole number 1..65536")
                    .byDefault("32")
                    .unit("chunks")
                    .example("window = 32")
                    .means("chunks (packets) in flight per sender"),
            key("seed").type("whole number").byDefault("1").example("seed = 7").means("the seeded random data"),
            key("scale")
                    .type("whole number 1..2^24")
                    .byDefault("1024")
                    .unit("units per 1.0")
                    .example("scale = 1024")
                    .means("int32 fixed point: units per 1.0"));

    public static final Section MEMBERSHIP = new Section(
            "jobs[].membership[]",
            "One membership change (A8).",
            List.of(
                    key("at-iteration")
                            .type("whole number 1..iterations")
                            .byDefault("required")
                            .example("at-iteration = 3")
                            .means("the iteration it takes effect"),
                    key("leave")
                            .type("list of hosts (selectors)")
                            .byDefault("[]")
                            .example("leave = [h4]")
                            .means("members that leave (from iteration 2)"),
                    key("join")
                            .type("list of hosts (selectors)")
                            .byDefault("[]")
                            .example("join = [h9]")
                            .means("hosts that join (from iteration 2)"),
                    key("fail")
                            .type("list of hosts (selectors)")
                            .byDefault("[]")
                            .example("fail = [h3]")
                            .means("members silent in that iteration, gone after it")));

    /** An array job's keys by section, for its reader, with {@code own} (its kind's) after the shared job keys. */
    public static Map<String, List<Key>> with(List<Key> own) {
        List<Key> job = new ArrayList<>(JOB);
        job.addAll(own);
        return Map.of(JobKeys.JOB_PATH, List.copyOf(job), JobKeys.DATA_PATH, DATA);
    }
}
