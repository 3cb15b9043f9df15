package org.bitina.run;

import java.util.ArrayList;
import java.util.List;
import org.bitina.job.Status;

/**
 * The report's {@code aloneMicros} and {@code slowdown} on the rows of a shared run's mix (T1):
 * the same job's JCT alone in the same world, and the mix's JCT over it. Left out when the job
 * alone, or in the mix, did not complete verified: a time that is not a completion compares nothing.
 */
final class Slowdowns {
    private Slowdowns() {}

    static List<Report.JobReport> of(List<Report.JobReport> jobs) {
        List<Report.JobReport> out = new ArrayList<>(jobs.size());
        for (Report.JobReport j : jobs) {
            Report.JobReport alone = j.shared() == null || j.shared().alone() || !completed(j) ? null : alone(j, jobs);
            out.add(
                    alone == null
                            ? j
                            : j.toBuilder()
                                    .shared(j.shared().against(alone.shared().jctMicros()))
                                    .build());
        }
        return out;
    }

    private static Report.JobReport alone(Report.JobReport mixed, List<Report.JobReport> jobs) {
        return jobs.stream()
                .filter(r -> r.shared() != null
                        && r.shared().alone()
                        && r.name().equals(mixed.name())
                        && r.shared().world() == mixed.shared().world()
                        && completed(r)
                        && r.shared().jctMicros() > 0)
                .findFirst()
                .orElse(null);
    }

    private static boolean completed(Report.JobReport r) {
        return r.outcome().status() == Status.COMPLETE && r.outcome().verified();
    }
}
