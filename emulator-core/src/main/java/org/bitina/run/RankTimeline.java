package org.bitina.run;

import java.util.ArrayList;
import java.util.List;
import org.bitina.workload.StepScheduler;

/**
 * One rank's steps of a workload in one world, on the modelled time axis (the report's {@code
 * rankTimelines[]}, drawn by the HTML page): every compute and collective it took part in.
 */
public record RankTimeline(String world, int rank, List<Span> spans) {
    public RankTimeline {
        spans = List.copyOf(spans);
    }

    /** One step: its name, type ({@code COMPUTE}, {@code ALL_REDUCE}, ...) and when it ran. */
    public record Span(String step, String type, double startMicros, double endMicros) {}

    static List<RankTimeline> of(String world, StepScheduler s) {
        List<RankTimeline> out = new ArrayList<>();
        for (int r = 0; r < s.graph().worldSize(); r++) {
            out.add(new RankTimeline(
                    world,
                    r,
                    s.timeline(r).stream()
                            .map(x -> new Span(
                                    x.label(), x.type().name(), x.startNanos() / 1000.0, x.endNanos() / 1000.0))
                            .toList()));
        }
        return out;
    }
}
