package org.bitina.run;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.job.Mode;
import org.bitina.job.Status;

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
            out.add(j.mode().inNetwork() ? j.withSpeedup(speedup(j, jobs)) : j);
        }
        return List.copyOf(out);
    }

    private static Map<Mode, Double> speedup(Report.JobReport ina, List<Report.JobReport> jobs) {
        Map<Mode, Double> s = new LinkedHashMap<>();
        if (time(ina) <= 0) {
            return s;
        }
        for (Report.JobReport b : jobs) {
            if (b.name().equals(ina.name())
                    && !b.mode().inNetwork()
                    && sameSchedule(ina, b)
                    && b.outcome().status() == Status.COMPLETE
                    && b.outcome().verified()
                    && time(b) > 0) {
                // three significant digits: the figure a reader compares (0.00173 as well as 1.92)
                s.put(
                        b.mode(),
                        new BigDecimal(time(b) / time(ina))
                                .round(new MathContext(3))
                                .doubleValue());
            }
        }
        return s;
    }

    /** A row's modelled time: its JCT in a shared run (it may start late), else its modelled time from zero. */
    private static double time(Report.JobReport r) {
        return r.shared() == null ? r.timing().modeledMicros() : r.shared().jctMicros();
    }

    /** Shared rows compare with shared rows (the mix with the mix, alone with alone), sequential with sequential. */
    private static boolean sameSchedule(Report.JobReport a, Report.JobReport b) {
        return a.shared() == null
                ? b.shared() == null
                : b.shared() != null && a.shared().alone() == b.shared().alone();
    }
}
