package org.bitina.run;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's {@code speedup} on INA rows: for each baseline of the same job that completed
 * verified, the baseline's modelled time over the INA row's. A baseline that failed or did not
 * finish has no meaningful time and is left out; so is every baseline when the INA row took no
 * modelled time (it did not run).
 */
final class Speedups {
    private Speedups() {}

    static List<Report.JobReport> of(List<Report.JobReport> jobs) {
        List<Report.JobReport> out = new ArrayList<>(jobs.size());
        for (Report.JobReport j : jobs) {
            out.add(j.mode().equals("ina") ? j.withSpeedup(speedup(j, jobs)) : j);
        }
        return List.copyOf(out);
    }

    private static Map<String, Double> speedup(Report.JobReport ina, List<Report.JobReport> jobs) {
        Map<String, Double> s = new LinkedHashMap<>();
        if (ina.modeledMicros() <= 0) {
            return s;
        }
        for (Report.JobReport b : jobs) {
            if (b.name().equals(ina.name())
                    && !b.mode().equals("ina")
                    && b.status().equals("complete")
                    && b.verified()
                    && b.modeledMicros() > 0) {
                // three significant digits: the figure a reader compares (0.00173 as well as 1.92)
                s.put(
                        b.mode(),
                        new BigDecimal(b.modeledMicros() / ina.modeledMicros())
                                .round(new MathContext(3))
                                .doubleValue());
            }
        }
        return s;
    }
}
