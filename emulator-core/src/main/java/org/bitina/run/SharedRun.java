package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.math.MathContext;
import org.bitina.scenario.Schedule;

/**
 * A row's place in a shared run (schedule = shared, T1), flat in the row: the world it ran in,
 * whether it ran alone (the reference of its slowdown) or with the other jobs, and when on the
 * phase's modelled time axis. Absent from the rows of a sequential run.
 *
 * @param startMicros when its drivers began (-1: never: a job after others that did not complete)
 * @param endMicros   its latest endpoint's completion ({@code modeledMicros})
 * @param jctMicros   end minus start: the job's completion time
 * @param aloneMicros the same job's JCT alone in the same world, on a row of the mix whose alone run completed verified
 * @param slowdown    jct over alone (above 1: the other jobs slowed it down), three significant digits
 */
public record SharedRun(
        Schedule.World world,
        boolean alone,
        double startMicros,
        double endMicros,
        double jctMicros,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double aloneMicros,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double slowdown) {

    /** A row that began at {@code startNanos}, its end still to be read from its endpoints. */
    static SharedRun started(Schedule.World world, boolean alone, long startNanos) {
        double start = startNanos < 0 ? -1 : startNanos / 1000.0;
        return new SharedRun(world, alone, start, 0, 0, null, null);
    }

    /** This row ended at its latest completion, {@code endMicros}. */
    SharedRun ended(double endMicros) {
        double jct = startMicros < 0 ? 0 : Math.max(0, endMicros - startMicros);
        return new SharedRun(world, alone, startMicros, endMicros, jct, null, null);
    }

    /** This row beside its job's alone run, which took {@code aloneJct}. */
    SharedRun against(double aloneJct) {
        double s =
                new BigDecimal(jctMicros / aloneJct).round(new MathContext(3)).doubleValue();
        return new SharedRun(world, alone, startMicros, endMicros, jctMicros, aloneJct, s);
    }
}
