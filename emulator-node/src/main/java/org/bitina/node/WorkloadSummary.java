package org.bitina.node;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.bitina.run.IterationReport;
import org.bitina.run.Report;
import org.bitina.scenario.Schedule;

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
    }

    /**
     * "iteration: ina 383 µs, baseline 717 µs: 1.87x faster with INA; exposed communication ina
     * 101 µs, baseline 435 µs", over the last iteration (the first may differ once warm-up matters;
     * here every iteration starts from the same state, so any would do).
     */
    static Optional<String> answer(List<IterationReport> its) {
        IterationReport ina = last(its, Schedule.World.INA.configName());
        IterationReport base = last(its, Schedule.World.BASELINE.configName());
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

    private static IterationReport last(List<IterationReport> its, String world) {
        IterationReport out = null;
        for (IterationReport i : its) {
            if (i.world().equals(world)) {
                out = i;
            }
        }
        return out;
    }
}
