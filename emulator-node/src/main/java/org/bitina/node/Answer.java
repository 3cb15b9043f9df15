package org.bitina.node;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.bitina.job.Mode;
import org.bitina.run.Report;

/**
 * The answer a reader looks for first, one sentence per job from the report's {@code speedup}:
 * {@code ft4: ina finished in 95.5 µs, 1.92x faster than ring (183 µs) and 3.07x faster than tree
 * (293 µs); it moved 50 % of ring's bytes (58.5 MiB vs 117 MiB); busiest link 1.06 MiB vs 2.09 MiB}.
 * The bytes are compared with the fastest baseline, the one INA has to beat. The console and the
 * HTML page open with these sentences.
 */
final class Answer {
    private Answer() {}

    /**
     * One sentence per job (per iteration of an elastic job), in the report's order; a shared run's
     * from each job's own JCT ({@link SharedAnswer}); a workload's for the iteration and per collective
     * type instead ({@link WorkloadSummary#sentences}).
     */
    static List<String> sentences(Report r) {
        List<String> workload = WorkloadSummary.sentences(r);
        if (!workload.isEmpty()) {
            return workload;
        }
        if (SharedAnswer.applies(r)) {
            return SharedAnswer.sentences(r);
        }
        List<String> out = new ArrayList<>();
        List<String> done = new ArrayList<>();
        for (Report.JobReport j : r.jobs()) {
            String key = j.name()
                    + (j.plan().iteration() == null
                            ? ""
                            : "#" + j.plan().iteration().index());
            if (done.contains(key)) {
                continue;
            }
            Report.JobReport ina = r.jobs().stream()
                    .filter(x ->
                            x.name().equals(j.name()) && x.mode().inNetwork() && Objects.equals(index(x), index(j)))
                    .findFirst()
                    .orElse(null);
            done.add(key);
            out.add(ina == null ? alone(j) : sentence(ina, r.jobs()));
        }
        return out;
    }

    private static Integer index(Report.JobReport j) {
        return j.plan().iteration() == null ? null : j.plan().iteration().index();
    }

    private static String label(Report.JobReport j) {
        return j.name()
                + (j.plan().iteration() == null
                        ? ""
                        : " iteration " + j.plan().iteration().index());
    }

    /** "finished in 95.5 µs", "ended partial after 1.2 ms (3 missing)", "failed after 50 ms". */
    private static String outcome(Report.JobReport j) {
        String t = Units.micros(j.timing().modeledMicros());
        return switch (j.outcome().status()) {
            case COMPLETE -> "finished in " + t + (j.outcome().verified() ? "" : " with a WRONG result");
            case PARTIAL ->
                "ended partial after " + t
                        + (j.outcome().missing().isEmpty()
                                ? ""
                                : " (" + Hosts.summary(j.outcome().missing()) + " missing)");
            default -> "failed after " + t;
        };
    }

    /** A job that ran no INA phase (baselines only, or INA not admitted and reported under its fallback). */
    private static String alone(Report.JobReport j) {
        return label(j) + ": " + j.mode() + " " + outcome(j);
    }

    static String sentence(Report.JobReport ina, List<Report.JobReport> rows) {
        StringBuilder s = new StringBuilder(label(ina)).append(": ina ").append(outcome(ina));
        Map<Mode, Double> speedup = ina.speedup() == null ? Map.of() : ina.speedup();
        long baselines = rows.stream()
                .filter(x -> x.name().equals(ina.name()) && !x.mode().inNetwork())
                .map(Report.JobReport::mode)
                .distinct()
                .count();
        if (speedup.isEmpty()) {
            return s.append(
                            baselines == 0
                                    ? " (no baseline in the file to compare with)"
                                    : "; no baseline completed verified to compare with")
                    .toString();
        }
        // fastest baseline first: the one INA has to beat
        List<Map.Entry<Mode, Double>> order = speedup.entrySet().stream()
                .sorted(Map.Entry.<Mode, Double>comparingByValue()
                        .thenComparing(e -> e.getKey().name()))
                .toList();
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Mode, Double> e : order) {
            Report.JobReport b = baseline(ina, rows, e.getKey());
            parts.add(ratio(e.getValue()) + " than " + e.getKey()
                    + (b == null ? "" : " (" + Units.micros(b.timing().modeledMicros()) + ")"));
        }
        s.append(", ").append(joined(parts));
        Report.JobReport best = baseline(ina, rows, order.get(0).getKey());
        if (best != null && best.traffic().totalLinkBytes() > 0) {
            s.append("; it moved ")
                    .append(percent(ina.traffic().totalLinkBytes()
                            / (double) best.traffic().totalLinkBytes()))
                    .append(" of ")
                    .append(best.mode())
                    .append("'s bytes (")
                    .append(Units.bytes(ina.traffic().totalLinkBytes()))
                    .append(" vs ")
                    .append(Units.bytes(best.traffic().totalLinkBytes()))
                    .append("); busiest link ")
                    .append(Units.bytes(ina.traffic().maxLinkBytes()))
                    .append(" vs ")
                    .append(Units.bytes(best.traffic().maxLinkBytes()));
        }
        return s.toString();
    }

    private static Report.JobReport baseline(Report.JobReport ina, List<Report.JobReport> rows, Mode mode) {
        return rows.stream()
                .filter(x ->
                        x.name().equals(ina.name()) && x.mode().equals(mode) && Objects.equals(index(x), index(ina)))
                .findFirst()
                .or(() -> rows.stream()
                        .filter(x -> x.name().equals(ina.name()) && x.mode().equals(mode))
                        .min(Comparator.comparingDouble(jr -> jr.timing().modeledMicros())))
                .orElse(null);
    }

    /** {@code 1.92} -> "1.92x faster", {@code 0.8} -> "1.25x slower". */
    static String ratio(double speedup) {
        return speedup >= 1 ? times(speedup) + " faster" : times(1 / speedup) + " slower";
    }

    /** Three significant digits and an x: 1.92x, 15.5x, 150x. */
    static String times(double x) {
        if (x < 9.995) {
            return String.format(Locale.ROOT, "%.2fx", x);
        }
        if (x < 99.95) {
            return String.format(Locale.ROOT, "%.1fx", x);
        }
        return String.format(Locale.ROOT, "%.0fx", x);
    }

    /** 0.5 -> "50 %", 0.0312 -> "3.1 %", 2.4 -> "240 %". */
    static String percent(double f) {
        double p = 100 * f;
        return (p < 9.95 ? String.format(Locale.ROOT, "%.1f", p) : String.format(Locale.ROOT, "%.0f", p)) + " %";
    }

    /** "a", "a and b", "a, b and c". */
    private static String joined(List<String> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
