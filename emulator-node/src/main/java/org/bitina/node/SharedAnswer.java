package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.run.Report;
import org.bitina.run.SharedRun;
import org.bitina.run.TrafficReport;
import org.bitina.scenario.Schedule;

/**
 * The answer of a shared run (schedule = shared, T1), one sentence per job from each world's own
 * JCT and slowdown, not from the world's bytes and end time (a mix row's link figures are the whole
 * world's): {@code ar1: ina 53.3 µs (1.69x its time alone), ring 136 µs (1.44x its time alone); ina
 * 2.55x faster in the shared fabric}.
 */
final class SharedAnswer {
    private SharedAnswer() {}

    /** Whether {@code r} is a shared run's report: then {@link #sentences} answers, not the sequential sentence. */
    static boolean applies(Report r) {
        return r.jobs().stream().anyMatch(j -> j.shared() != null);
    }

    /** One sentence per job of the mix, in the report's order; its worlds in theirs. */
    static List<String> sentences(Report r) {
        List<String> jobs = new ArrayList<>();
        for (Report.JobReport j : r.jobs()) {
            if (j.shared() != null && !j.shared().alone() && !jobs.contains(j.name())) {
                jobs.add(j.name());
            }
        }
        List<String> out = new ArrayList<>();
        for (String job : jobs) {
            List<Report.JobReport> mix = r.jobs().stream()
                    .filter(j -> j.name().equals(job)
                            && j.shared() != null
                            && !j.shared().alone())
                    .toList();
            out.add(sentence(job, mix));
        }
        for (TrafficReport t : r.traffic()) {
            if (t.alone()) {
                out.add(traffic(r, t.entry()));
            }
        }
        return out;
    }

    /**
     * {@code traffic 1 (incast, dcqcn): p99 2.73 ms in the ina mix (1.10x its p99 alone), 2.93 ms in the
     * baseline mix (1.19x its p99 alone); 2.47 ms alone}: one entry's p99 flow completion time per world.
     */
    static String traffic(Report r, int entry) {
        List<TrafficReport> rows =
                r.traffic().stream().filter(t -> t.entry() == entry).toList();
        TrafficReport first = rows.get(0);
        List<String> parts = new ArrayList<>();
        String alone = null;
        for (TrafficReport t : rows) {
            String p99 = t.finished() == 0 ? "no flow finished" : Units.micros(t.fctP99Micros());
            if (t.alone()) {
                alone = p99 + " alone";
            } else {
                parts.add(p99 + " in the " + t.world().configName() + " mix"
                        + (t.slowdown() == null ? "" : " (" + Answer.times(t.slowdown()) + " its p99 alone)"));
            }
        }
        String control =
                first.congestion() == null ? "" : ", " + first.congestion().control();
        return "traffic " + (entry + 1) + " (" + first.kind() + control + "): p99 " + String.join(", ", parts)
                + (alone == null ? "" : (parts.isEmpty() ? "" : "; ") + alone);
    }

    /** {@code mix}: the job's rows in the mix, one per world. */
    static String sentence(String job, List<Report.JobReport> mix) {
        List<String> parts = new ArrayList<>();
        for (Report.JobReport j : mix) {
            parts.add(part(j));
        }
        StringBuilder s = new StringBuilder(job).append(": ").append(String.join(", ", parts));
        Report.JobReport ina = world(mix, Schedule.World.INA);
        Report.JobReport baseline = world(mix, Schedule.World.BASELINE);
        if (ina != null
                && baseline != null
                && done(ina)
                && done(baseline)
                && ina.shared().jctMicros() > 0) {
            s.append("; ")
                    // refused by admission, the ina world ran a baseline in INA's place
                    .append(ina.mode().inNetwork() ? ina.mode().name() : "the ina world (" + ina.mode() + ")")
                    .append(" ")
                    .append(Answer.ratio(
                            baseline.shared().jctMicros() / ina.shared().jctMicros()))
                    .append(" in the shared fabric");
        }
        return s.toString();
    }

    /** "ina 53.3 µs (1.69x its time alone)", "ring failed after 136 µs", "ina never started". */
    private static String part(Report.JobReport j) {
        SharedRun s = j.shared();
        // a baseline world's rows, and the ina world's in-network ones, are named by their mode alone
        String who = s.world() == Schedule.World.BASELINE || j.mode().inNetwork()
                ? j.mode().name()
                : j.mode() + " (" + s.world() + " world)";
        if (s.startMicros() < 0) {
            return who + " never started (it waited for a job that did not complete)";
        }
        String jct = Units.micros(s.jctMicros());
        String alone = s.slowdown() == null ? "" : " (" + Answer.times(s.slowdown()) + " its time alone)";
        if (done(j)) {
            return who + " " + jct + alone;
        }
        return switch (j.outcome().status()) {
            case COMPLETE -> who + " " + jct + " with a WRONG result";
            case PARTIAL -> who + " partial after " + jct;
            default -> who + " failed after " + jct;
        };
    }

    private static boolean done(Report.JobReport j) {
        return j.outcome().status() == Status.COMPLETE
                && j.outcome().verified()
                && j.shared().startMicros() >= 0;
    }

    private static Report.JobReport world(List<Report.JobReport> mix, Schedule.World world) {
        return mix.stream().filter(j -> j.shared().world() == world).findFirst().orElse(null);
    }
}
