package org.bitina.run;

import java.util.ArrayList;
import java.util.List;
import org.bitina.chaos.ChaosPlans;
import org.bitina.job.Status;
import org.bitina.scenario.AdmissionMode;
import org.bitina.scenario.Scenario;
import org.bitina.usecase.traffic.TrafficPlan;

/**
 * The invariants every chaos run must keep (issue: never silently wrong, never hung): every
 * job and mode ended verified or named what is missing; no result was wrong (a value counted
 * twice or not at all shows up as a failed verification); no device failed on a message; the
 * virtual clock never went back in time; a plan that loses nothing ends complete, within
 * the soft state its jobs reserved (S5); and so does a plan whose only faults besides duplication
 * and reordering are losses of at most {@link ChaosPlans#RECOVERABLE_LOSS} % (L1: lossy plans
 * without other faults complete).
 */
public final class ChaosCheck {
    private ChaosCheck() {}

    /** What the run of {@code s} broke, its jobs' and its background traffic's, one line each. */
    public static List<String> violations(ChaosPlans.Plan plan, Scenario s, Report r) {
        List<String> v = violations(plan, r);
        v.addAll(trafficViolations(plan, s, r));
        return v;
    }

    /**
     * Background traffic's accounts (T3): one {@code traffic[]} entry per traffic entry and world, and
     * one alone when the jobs ran alone; each started exactly the flows its seeded schedule has (open
     * loop: a start is never skipped), finished no more than it started, and received at least every
     * finished flow's bytes and no more than all flows' (a flow's packets are counted once, duplicates
     * apart). When the plan can lose nothing, every flow finished; else every flow that did not is one
     * its sender gave up on (lost packets are resent).
     */
    public static List<String> trafficViolations(ChaosPlans.Plan plan, Scenario s, Report r) {
        List<String> v = new ArrayList<>();
        List<TrafficPlan> plans = TrafficPlan.of(s);
        int perEntry = s.schedule().worlds().size() + (s.schedule().alone() ? 1 : 0);
        if (r.traffic().size() != plans.size() * perEntry) {
            v.add("traffic: " + r.traffic().size() + " entries in the report, expected " + plans.size() + " x "
                    + perEntry);
        }
        for (TrafficReport t : r.traffic()) {
            String at = "traffic " + (t.entry() + 1) + "/"
                    + (t.alone() ? "alone" : t.world().configName()) + ": ";
            if (t.entry() < 0 || t.entry() >= plans.size()) {
                v.add(at + "no such entry in the scenario");
                continue;
            }
            TrafficPlan p = plans.get(t.entry());
            long flowBytes = p.spec().flowBytes();
            if (t.flows() != p.flows().size()) {
                v.add(at + t.flows() + " flows started, its schedule has "
                        + p.flows().size());
            }
            if (t.finished() > t.flows()) {
                v.add(at + t.finished() + " flows finished of " + t.flows() + " started");
            }
            if (t.bytes() < t.finished() * flowBytes || t.bytes() > t.flows() * flowBytes) {
                v.add(at + t.bytes() + " bytes arrived, outside [" + t.finished() * flowBytes + ", "
                        + t.flows() * flowBytes + "] (finished and started flows of " + flowBytes + " bytes)");
            }
            if (plan.lossless() && t.finished() != t.flows()) {
                v.add(at + "nothing could be lost, yet " + (t.flows() - t.finished()) + " flows did not finish");
            } else if (t.flows() - t.finished() > t.gaveUp().size()) {
                // a lost packet is resent: a flow ends unfinished only when its sender gave up on it, named
                v.add(at + (t.flows() - t.finished()) + " flows did not finish, "
                        + t.gaveUp().size() + " named as given up");
            }
            if (t.finished() > 0 && !(t.fctP50Micros() <= t.fctP99Micros() && t.fctP99Micros() <= t.fctMaxMicros())) {
                v.add(at + "FCT percentiles out of order: p50 " + t.fctP50Micros() + ", p99 " + t.fctP99Micros()
                        + ", max " + t.fctMaxMicros());
            }
        }
        return v;
    }

    /** What the run broke, one line each; empty when it kept every invariant. */
    public static List<String> violations(ChaosPlans.Plan plan, Report r) {
        List<String> v = new ArrayList<>();
        for (Report.JobReport j : r.jobs()) {
            String at = j.name() + "/" + j.mode() + ": ";
            for (String m : j.problems().mismatches()) {
                // giving up on a result, named, is an honest end (the row's gaveUp); a mismatch is a wrong result
                v.add(at + "wrong result: " + m);
            }
            for (String d : j.problems().deviceFailures()) {
                v.add(at + "a device failed: " + d);
            }
            boolean bestEffort =
                    j.pool() != null && j.pool().admission().equals(AdmissionMode.BEST_EFFORT.configName());
            if (plan.lossless()
                    && !bestEffort
                    && j.plan().admission() != null
                    && j.plan().admission().refused() > 0) {
                // a best-effort job (T2) passes chunks on past its grant by design: counted, not a wrong declaration
                // S5: a job's declaration is its quota. Under loss, timers let windows overlap and the
                // excess passes on unaggregated (counted); without loss, needing more is a wrong declaration
                v.add(at + j.plan().admission().refused() + " aggregations refused over the "
                        + j.plan().admission().entries() + " entries it reserved");
            }
            if (j.outcome().ended() != null && j.outcome().ended().cause() == Ending.Cause.CLOCK_STOPPED) {
                v.add(at + j.outcome().ended().why());
            }
            switch (j.outcome().status()) {
                case COMPLETE -> {
                    if (!j.outcome().verified() || !j.outcome().missing().isEmpty()) {
                        v.add(at + "complete but verified=" + j.outcome().verified() + ", missing "
                                + j.outcome().missing());
                    }
                }
                case PARTIAL -> {
                    if (j.outcome().missing().isEmpty()
                            && j.problems().partialChunks().isEmpty()) {
                        v.add(at + "partial without naming what is missing");
                    }
                }
                default -> {
                    if (j.outcome().missing().isEmpty()
                            && j.problems().unfinished().isEmpty()
                            && j.problems().partialChunks().isEmpty()
                            && (j.outcome().note() == null || j.outcome().note().isBlank())) {
                        v.add(at + "failed without saying who or why");
                    }
                }
            }
            if (plan.recoverable()
                    && !(j.outcome().status() == Status.COMPLETE && j.outcome().verified())) {
                // L1: loss up to ChaosPlans.RECOVERABLE_LOSS is recovered by every mode
                v.add(at + (plan.lossless() ? "nothing could be lost" : "only recoverable loss")
                        + ", yet it ended " + j.outcome().status() + " (verified "
                        + j.outcome().verified() + ") "
                        + j.problems().unfinished() + j.problems().mismatches() + " "
                        + j.outcome().note());
            }
        }
        return v;
    }
}
