package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import org.bitina.scenario.Schedule;
import org.bitina.workload.StepScheduler;

/**
 * One rank's steps of a workload in one world, on the modelled time axis (the report's {@code
 * rankTimelines[]}, drawn by the HTML page): every compute and collective it took part in.
 */
public record RankTimeline(Schedule.World world, int rank, List<Span> spans) {
    public RankTimeline {
        spans = List.copyOf(spans);
    }

    /**
     * One step: its iteration (1 for the first), name, type ({@code COMPUTE}, {@code ALL_REDUCE},
     * ...), the job that ran it (a collective's row in {@code jobs[]}; absent for compute) and when.
     */
    public record Span(
            int iteration,
            String step,
            String type,
            @JsonInclude(JsonInclude.Include.NON_NULL) String job,
            double startMicros,
            double endMicros) {}

    static List<RankTimeline> of(Schedule.World world, StepScheduler s) {
        List<RankTimeline> out = new ArrayList<>();
        for (int r = 0; r < s.graph().worldSize(); r++) {
            out.add(new RankTimeline(
                    world,
                    r,
                    s.timeline(r).stream()
                            .map(x -> new Span(
                                    x.iteration(),
                                    x.label(),
                                    x.type().name(),
                                    x.job(),
                                    x.startNanos() / 1000.0,
                                    x.endNanos() / 1000.0))
                            .toList()));
        }
        return out;
    }
}
