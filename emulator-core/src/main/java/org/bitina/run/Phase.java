package org.bitina.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.device.DriverSpec;
import org.bitina.job.AllReducePlan;
import org.bitina.job.MoePlan;
import org.bitina.job.MulticastPlan;
import org.bitina.protocol.JobTables;
import org.bitina.topology.JobSpec;
import org.bitina.topology.Vat;

/**
 * One phase of a run: a job in one mode (INA, or a baseline), with everything the
 * coordinator installs and starts for it, and what the scenario expects of it.
 *
 * @param tables          control-plane state per node
 * @param awaited         endpoints whose completion ends the phase
 * @param roots           the nodes whose incoming packets the report counts (VAT root, PS,
 *                        MoE sources), or null to take the busiest member (ring)
 * @param expectedStatus  complete, partial (with {@code expectedMissing}) or failed
 */
public record Phase(JobSpec job, String mode, int wireJob, AllReducePlan plan, MoePlan moe, MulticastPlan multicast, Vat vat,
                    Map<String, JobTables> tables, List<DriverSpec> drivers, Set<String> awaited, List<String> roots,
                    Duration deadline, String expectedStatus, Set<String> expectedMissing, String note) {

    /** Results each awaited endpoint waits for: chunks, or tokens. */
    public int units() {
        return plan != null ? plan.data().chunks() : moe != null ? moe.params().tokensPerSource() : multicast.params().windows();
    }

    public long timeoutNanos() {
        return plan != null ? plan.timeoutNanos() : moe != null ? moe.timeoutNanos() : multicast.roundTimeoutNanos();
    }

    public long maxStraggleNanos() {
        if (multicast != null) {
            return 0;
        }
        var stragglers = plan != null ? plan.stragglers() : moe.stragglers();
        return stragglers.values().stream().mapToLong(s -> s.delayNanos() + s.jitterNanos()).max().orElse(0);
    }
}
