package org.bitina.node;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.bitina.job.Mode;
import org.bitina.run.Report;

/**
 * INA's figures over each baseline's, per metric, for the ratio charts: the baselines are those of
 * the report's {@code speedup} (completed and verified), so a ratio never compares with a run that
 * did not finish.
 */
final class Ratios {
    private Ratios() {}

    /**
     * Baseline mode -> metric -> INA's value over the baseline's, for the first INA row of {@code
     * job}; empty when it has none or no baseline to compare with. A metric a baseline has 0 of is
     * left out.
     */
    static Map<String, Map<String, Double>> of(
            Report r, String job, List<Map.Entry<String, ToDoubleFunction<Report.JobReport>>> metrics) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        Report.JobReport ina = r.jobs().stream()
                .filter(j -> j.name().equals(job) && j.mode().inNetwork())
                .findFirst()
                .orElse(null);
        if (ina == null || ina.speedup() == null) {
            return out;
        }
        for (Mode baseline : ina.speedup().keySet()) {
            String mode = baseline.name();
            Report.JobReport base = r.jobs().stream()
                    .filter(j -> j.name().equals(job) && j.mode().equals(baseline))
                    .findFirst()
                    .orElse(null);
            if (base == null) {
                continue;
            }
            Map<String, Double> byMetric = new LinkedHashMap<>();
            for (Map.Entry<String, ToDoubleFunction<Report.JobReport>> m : metrics) {
                double b = m.getValue().applyAsDouble(base);
                if (b > 0) {
                    byMetric.put(m.getKey(), m.getValue().applyAsDouble(ina) / b);
                }
            }
            out.put(mode, byMetric);
        }
        return out;
    }
}
