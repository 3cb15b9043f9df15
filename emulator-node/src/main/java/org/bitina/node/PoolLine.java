package org.bitina.node;

import org.bitina.run.PoolReport;
import org.bitina.run.Report;

/** The console's one line of a row's use of the switches' pools of aggregation entries (T2). */
final class PoolLine {
    private PoolLine() {}

    static String of(Report.JobReport j) {
        PoolReport p = j.pool();
        int least = Integer.MAX_VALUE;
        int most = 0;
        int full = 0;
        for (PoolReport.Switch s : p.switches()) {
            least = Math.min(least, s.granted());
            most = Math.max(most, s.granted());
            if (s.peak() >= s.capacity()) {
                full++;
            }
        }
        String granted = least == most ? String.valueOf(least) : least + "-" + most;
        int declared = j.plan().admission() == null ? 0 : j.plan().admission().entries();
        return "pool (" + p.admission() + "): granted " + granted + " of the " + declared + " entries it declared on "
                + p.switches().size() + " switches, its own entries filled " + full + " of those pools; "
                + p.passThroughs()
                + " contributions passed on unaggregated, " + p.rootFolds()
                + " chunks folded at the root outside the pool";
    }
}
