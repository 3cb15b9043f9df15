package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.Schedule;
import org.bitina.workload.StepScheduler;
import org.bitina.workload.StepType;

/**
 * One iteration of a workload in one world (W3; the report's {@code iterations[]}): its modelled
 * time, the longest rank's compute and exposed communication (time the rank waited on
 * communication), and per collective type (Chakra's names: {@code ALL_REDUCE}, ...) its bytes, time
 * and exposed share; on an {@code ina} entry, the speedup over the same iteration in {@code baseline}.
 *
 * @param speedup baseline iteration time over this one's, three significant digits (ina entries, both worlds run)
 */
public record IterationReport(
        Schedule.World world,
        int index,
        double iterationMicros,
        double computeMicros,
        double exposedCommMicros,
        Map<String, Collectives> collectives,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double speedup) {

    /**
     * One collective type's part of an iteration.
     *
     * @param count         how many collectives of the type the iteration runs
     * @param bytes         per rank, summed over the type's collectives (the workload's bytes)
     * @param micros        the type's collectives' start-to-end times, summed
     * @param exposedMicros the longest-exposed rank's waiting for collectives of this type
     */
    public record Collectives(int count, long bytes, double micros, double exposedMicros) {}

    /** The iterations a world's scheduler ran. */
    static List<IterationReport> of(Schedule.World world, StepScheduler s) {
        List<IterationReport> out = new ArrayList<>();
        for (StepScheduler.Iteration it : s.iterationsRun()) {
            Map<String, Collectives> types = new LinkedHashMap<>();
            for (Map.Entry<StepType, Long> e : it.bytesByType().entrySet()) {
                types.put(
                        e.getKey().name(),
                        new Collectives(
                                s.graph().ofType(e.getKey()).size(),
                                e.getValue(),
                                micros(it.nanosByType().getOrDefault(e.getKey(), 0L)),
                                micros(it.exposedByType().getOrDefault(e.getKey(), 0L))));
            }
            out.add(new IterationReport(
                    world,
                    it.index(),
                    micros(it.iterationNanos()),
                    micros(it.computeNanos()),
                    micros(it.exposedCommNanos()),
                    types,
                    null));
        }
        return out;
    }

    /** The ina entries with their speedup over the baseline entry of the same index. */
    static List<IterationReport> withSpeedups(List<IterationReport> all) {
        List<IterationReport> out = new ArrayList<>();
        for (IterationReport entry : all) {
            IterationReport r = entry;
            IterationReport base = all.stream()
                    .filter(b -> b.world == Schedule.World.BASELINE && b.index == entry.index)
                    .findFirst()
                    .orElse(null);
            if (r.world == Schedule.World.INA && base != null && r.iterationMicros > 0) {
                double s = new BigDecimal(base.iterationMicros / r.iterationMicros)
                        .round(new MathContext(3))
                        .doubleValue();
                r = new IterationReport(
                        r.world, r.index, r.iterationMicros, r.computeMicros, r.exposedCommMicros, r.collectives, s);
            }
            out.add(r);
        }
        return out;
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}
