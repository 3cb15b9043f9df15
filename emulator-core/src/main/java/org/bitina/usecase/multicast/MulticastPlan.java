package org.bitina.usecase.multicast;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.Straggler;

/**
 * One phase of a reliable-multicast job: INA (ACKs aggregated in the network) or the
 * unicast-ACK baseline (R6).
 *
 * @param uplink         per receiver, its VAT parent on the pre-configured ACK tree
 * @param roundTimeoutNanos how long the source waits for a round's ACK before it takes what it has
 */
public record MulticastPlan(
        String jobName,
        Mode mode,
        int tenant,
        int wireJob,
        String source,
        BitSpace receivers,
        MulticastSpec.Params params,
        Map<String, String> uplink,
        long roundTimeoutNanos,
        Map<String, Straggler> stragglers,
        Set<String> silent,
        List<String> members)
        implements JobPlan {

    public boolean aggregated() {
        return mode.inNetwork();
    }

    /** Whether the ACKs of this round climb the self-installed tree (toward the frame's via) or the pre-configured one. */
    public boolean selfInstalled(int round) {
        return aggregated()
                && (params.ackTree().equals("self-installed")
                        || (params.ackTree().equals("composed") && round > 0));
    }
}
