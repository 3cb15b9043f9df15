package org.bitina.job;

import java.time.Duration;
import java.util.List;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;

/**
 * What every job has, whatever its kind ({@code kind} as scenario files and reports name it).
 *
 * @param expect   what the scenario says the modes end as, or null: derived from the fault plan
 * @param recovery the job's bounds on its endpoints' retransmission rule ({@code recovery { }})
 * @param congestionControl whether its endpoints react to ECN marks ({@code congestion = dcqcn}): INA's
 *                 workers cut their window when a result comes back marked (AIMD)
 */
public record JobCommon(
        String name,
        String kind,
        int tenant,
        int id,
        List<String> members,
        BitSpace bitSpace,
        EncodingSpec encoding,
        Duration completionTimeout,
        List<Mode> baselines,
        Expect expect,
        RecoverySettings recovery,
        boolean congestionControl) {
    public JobCommon {
        recovery = recovery == null ? RecoverySettings.NONE : recovery;
    }

    /** This job with {@code others} as its members (an iteration's, a broadcast's receivers), all else kept. */
    public JobCommon withMembers(List<String> others) {
        return new JobCommon(
                name,
                kind,
                tenant,
                id,
                others,
                bitSpace,
                encoding,
                completionTimeout,
                baselines,
                expect,
                recovery,
                congestionControl);
    }

    public JobCommon(
            String name,
            String kind,
            int tenant,
            int id,
            List<String> members,
            BitSpace bitSpace,
            EncodingSpec encoding,
            Duration completionTimeout,
            List<Mode> baselines,
            Expect expect) {
        this(name, kind, tenant, id, members, bitSpace, encoding, completionTimeout, baselines, expect, null, false);
    }

    public JobCommon(
            String name,
            String kind,
            int tenant,
            int id,
            List<String> members,
            BitSpace bitSpace,
            EncodingSpec encoding,
            Duration completionTimeout,
            List<Mode> baselines) {
        this(name, kind, tenant, id, members, bitSpace, encoding, completionTimeout, baselines, null, null, false);
    }
}
