package org.bitina.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.device.DeviceCommand;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficFigures;
import org.bitina.usecases.PhasePlanner;
import org.bitina.workload.StepScheduler;

/**
 * What a phase's end adds to the report once every live device has answered: each job's row from
 * its devices' counters, each traffic entry's figures, and a workload's iterations when its
 * scheduler is done.
 */
final class PhaseClose {
    private final Scenario scenario;
    private final Routing routing;
    private final Fleet fleet;
    private final ReportAssembler report;

    PhaseClose(Scenario scenario, Routing routing, Fleet fleet, ReportAssembler report) {
        this.scenario = scenario;
        this.routing = routing;
        this.fleet = fleet;
        this.report = report;
    }

    /** @param stats per device, one answer per job of the phase and then per traffic entry, in the order asked */
    void close(PhaseRun run, Map<String, List<DeviceCommand.DeviceStats>> stats) {
        // a fault planned for later than the phase lasted never happened: the row says so (the report's
        // faultsNotApplied, the console's verdict line), never passed over and no warning (the run is right)
        List<String> notApplied = run.pendingFaults.stream()
                .map(f -> f.kind().configName() + " at " + modelled(f.at()))
                .toList();
        for (int k = 0; k < run.jobs.size(); k++) {
            PhaseRun.JobRun j = run.jobs.get(k);
            Phase p = run.pendingFaults.isEmpty() ? j.phase : expectingWhatApplied(run, j);
            ReportAssembler.Links links = !run.group.shared() || run.group.alone()
                    ? ReportAssembler.Links.ofJob(p)
                    // the jobs share the links: their traffic is the world's, reported once
                    : k == 0 ? ReportAssembler.Links.ofWorld(run.group.world()) : null;
            SharedRun shared = run.group.shared()
                    ? SharedRun.started(run.group.world(), run.group.alone(), j.begunAt < 0 ? -1 : j.begunAt)
                    : null;
            report.phase(
                    p,
                    fleet.answers(stats, k),
                    run.wall,
                    run.ended,
                    notApplied,
                    PhaseTimeline.faults(scenario.faults(), run.appliedFaults, j.phase),
                    links,
                    shared);
            report.packetBound(run.bound);
        }
        for (int k = 0; k < run.traffic.size(); k++) {
            List<DriverReport> reports = new ArrayList<>();
            fleet.answers(stats, run.jobs.size() + k).forEach(s -> reports.addAll(s.drivers()));
            PhaseRun.TrafficRun t = run.traffic.get(k);
            report.traffic(TrafficReport.of(
                    t.plan, run.group.alone() ? null : run.group.world(), TrafficFigures.of(t.plan, reports)));
        }
        if (run.group.starts() instanceof StepScheduler s && s.done()) {
            report.workload(run.group.world(), s);
        }
    }

    /** A fault's time in ms when whole, else in the unit that holds it exactly: 133 us, not "0 ms". */
    static String modelled(Duration d) {
        long ns = d.toNanos();
        if (ns % 1_000_000L == 0) {
            return ns / 1_000_000L + " ms";
        }
        return ns % 1_000L == 0 ? ns / 1_000L + " us" : ns + " ns";
    }

    /**
     * The job expecting what the faults that did apply explain: planned again without those
     * that never did (a switch crash after the phase ended cut nobody off, so nothing is expected
     * partial for it). The plan is the use case's own, as at the start: the phase at the same place
     * of the sequential plan, or a shared world's mix's job of the same name and mode.
     */
    private Phase expectingWhatApplied(PhaseRun run, PhaseRun.JobRun j) {
        List<FaultSpec> applied = new ArrayList<>(scenario.faults());
        applied.removeAll(run.pendingFaults);
        Scenario s = scenario.withFaults(applied);
        Phase p = j.phase;
        List<Phase> again =
                run.group.shared() ? PhasePlanner.world(s, routing, run.group.world()) : PhasePlanner.plan(s, routing);
        int at = run.group.shared() ? run.jobs.indexOf(j) : run.index;
        if (at >= again.size()) {
            return p;
        }
        Phase same = again.get(at);
        boolean matches =
                same.job().name().equals(p.job().name()) && same.mode().equals(p.mode());
        return matches ? p.withExpected(same.expected()) : p;
    }
}
