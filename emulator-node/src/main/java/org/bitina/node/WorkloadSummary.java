package org.bitina.node;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bitina.run.IterationReport;
import org.bitina.run.Report;
import org.bitina.scenario.Schedule;
import org.bitina.workload.StepScheduler;

/**
 * The console's lines of a workload (W3): one per iteration and world (its time, the longest
 * rank's compute and exposed communication), then the answer: the iteration with and without INA.
 * Nothing for a run without a workload.
 */
final class WorkloadSummary {
    private WorkloadSummary() {}

    static void print(Report r, PrintStream out) {
        List<IterationReport> its = r.iterations();
        if (its == null || its.isEmpty()) {
            return;
        }
        for (IterationReport i : its) {
            out.println(String.format(
                    Locale.ROOT,
                    "iteration %d %s: %s (compute %s, exposed communication %s)",
                    i.index(),
                    i.world(),
                    Units.micros(i.iterationMicros()),
                    Units.micros(i.computeMicros()),
                    Units.micros(i.exposedCommMicros())));
        }
        answer(its).ifPresent(out::println);
        StepScheduler.Plan.skippedLine(r.skippedTraceNodes()).ifPresent(out::println);
    }

    /**
     * What a workload run answers, in place of one sentence per collective (each collective's rows
     * share a fabric with the rest of the step, so its end time and its world's bytes say little):
     * the iteration with and without INA, then per collective type the count, bytes and time per
     * iteration in each world, over the last iteration: {@code ALL_REDUCE: 4 per iteration, 2 MiB;
     * ina 201 µs (101 µs exposed), baseline 568 µs (435 µs exposed)}. Empty for a run without a workload.
     */
    static List<String> sentences(Report r) {
        List<IterationReport> its = r.iterations();
        if (its == null || its.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        answer(its).ifPresent(out::add);
        List<IterationReport> worlds = new ArrayList<>();
        for (Schedule.World w : Schedule.World.values()) {
            IterationReport i = last(its, w);
            if (i != null) {
                worlds.add(i);
            }
        }
        Set<String> types = new LinkedHashSet<>();
        worlds.forEach(i -> types.addAll(i.collectives().keySet()));
        for (String type : types) {
            IterationReport.Collectives first = worlds.stream()
                    .map(i -> i.collectives().get(type))
                    .filter(Objects::nonNull)
                    .findFirst()
                    .orElseThrow();
            List<String> parts = new ArrayList<>();
            for (IterationReport i : worlds) {
                IterationReport.Collectives c = i.collectives().get(type);
                if (c != null) {
                    parts.add(i.world() + " " + Units.micros(c.micros()) + " (" + Units.micros(c.exposedMicros())
                            + " exposed)");
                }
            }
            out.add(type + ": " + first.count() + " per iteration, " + Units.bytes(first.bytes()) + "; "
                    + String.join(", ", parts));
        }
        if (!types.isEmpty()) {
            out.add("(per collective type: the bytes are each collective's per rank, summed; the time is the"
                    + " collectives' start to end, summed, overlapping one another and the compute; exposed: the"
                    + " longest-waiting rank's time waiting for them)");
        }
        return out;
    }

    /**
     * "iteration: ina 383 µs, baseline 717 µs: 1.87x faster with INA; exposed communication ina
     * 101 µs, baseline 435 µs", over the last iteration (the first may differ once warm-up matters;
     * here every iteration starts from the same state, so any would do).
     */
    static Optional<String> answer(List<IterationReport> its) {
        IterationReport ina = last(its, Schedule.World.INA);
        IterationReport base = last(its, Schedule.World.BASELINE);
        if (ina == null || base == null || ina.speedup() == null) {
            return Optional.empty();
        }
        double s = ina.speedup();
        String verdict = s >= 1
                ? String.format(Locale.ROOT, "%.2fx faster with INA", s)
                : String.format(Locale.ROOT, "%.2fx slower with INA", 1 / s);
        return Optional.of(String.format(
                Locale.ROOT,
                "iteration: ina %s, baseline %s: %s; exposed communication ina %s, baseline %s",
                Units.micros(ina.iterationMicros()),
                Units.micros(base.iterationMicros()),
                verdict,
                Units.micros(ina.exposedCommMicros()),
                Units.micros(base.exposedCommMicros())));
    }

    private static IterationReport last(List<IterationReport> its, Schedule.World world) {
        IterationReport out = null;
        for (IterationReport i : its) {
            if (i.world() == world) {
                out = i;
            }
        }
        return out;
    }
}
