package org.bitina.usecases;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;

/**
 * Validation's check of a fault plan's times against the phases (issue 26, item 10): every
 * phase starts its modelled clock at zero, so a fault planned after the longest phase could end
 * never applies (most phases last micro- or milliseconds; faults are often written in seconds).
 * The phases' lengths are their use cases' estimates ({@link PhaseEstimate#latestEndNanos}).
 */
public final class FaultTimes {
    private FaultTimes() {}

    /**
     * A fault no phase lasts long enough for.
     *
     * @param index     its place in the scenario's {@code faults} list
     * @param latestEnd the latest any phase could end, in modelled nanoseconds
     * @param phase     which phase that is ("job mode")
     */
    public record Late(int index, FaultSpec fault, long latestEnd, String phase) {
        /** One line, as validation prints it after the file's name. */
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "warning: faults[%d] (%s at %s) is planned after the longest phase could end"
                            + " (about %s of modelled time: %s), so it would not apply; plan it earlier",
                    index,
                    fault.kind().configName(),
                    time(fault.at().toNanos()),
                    time(latestEnd),
                    phase);
        }
    }

    /** The faults of {@code s} planned after every phase could end, in the plan's order. */
    public static List<Late> late(Scenario s) {
        if (s.faults().isEmpty()) {
            return List.of();
        }
        Routing routing = Routing.compute(s.topology());
        List<Phase> phases = PhasePlanner.plan(s, routing);
        List<PhaseEstimate> estimates = new ArrayList<>();
        for (Phase p : phases) {
            estimates.add(UseCases.estimate(p, s, routing));
        }
        List<Late> out = new ArrayList<>();
        for (int i = 0; i < s.faults().size(); i++) {
            FaultSpec f = s.faults().get(i);
            long at = f.at().toNanos();
            if (at == 0) {
                continue;
            }
            List<FaultSpec> before =
                    s.faults().stream().filter(g -> g.at().toNanos() < at).toList();
            long latest = -1;
            String which = null;
            boolean unknown = false;
            for (int k = 0; k < phases.size(); k++) {
                PhaseEstimate e = estimates.get(k);
                if (e == null) {
                    unknown = true; // a kind without an estimate: its phase may last any time
                    break;
                }
                long end = e.latestEndNanos(phases.get(k), s, routing, before);
                if (end > latest) {
                    latest = end;
                    which = "job " + phases.get(k).job().name() + " "
                            + phases.get(k).mode();
                }
            }
            if (!unknown && which != null && at > latest) {
                out.add(new Late(i, f, latest, which));
            }
        }
        return out;
    }

    private static String time(long ns) {
        if (ns >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3g s", ns / 1e9);
        }
        if (ns >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g us", ns / 1e3);
    }
}
