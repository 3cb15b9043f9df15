package org.bitina.usecase.traffic;

import java.util.List;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.TrafficFlows;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.References;

/**
 * What one host does for one background-traffic entry (T3): the flows it sends and those it
 * receives, as the entry's schedule ({@link TrafficFlows}) gives them, so the host needs nothing
 * else to run them and count what arrived.
 *
 * @param entry        the entry's index in the scenario's {@code traffic} list
 * @param sends        the flows this host sends, in start order
 * @param policies     each sent flow's retransmission rule, in {@code sends} order
 * @param receives     the flows addressed to this host, in start order
 * @param payloadBytes the application bytes a full packet carries (the MTU less header, bitmap and tag)
 * @param overheadBytes the bytes of a packet that are not payload (header, bitmap and tag)
 * @param giveUpNanos  modelled time after which a flow still missing bytes counts as unfinished (its
 *                     sender gave up on it before)
 * @param congestion   DCQCN's settings when the entry's senders run it; null: none (each flow's packets
 *                     go to the NIC at once)
 * @param lineBps      the host's link rate: where a DCQCN flow's rate starts and the most it recovers to
 */
public record TrafficDriverSpec(
        String host,
        int tenant,
        int wireJob,
        int entry,
        List<TrafficFlows.Flow> sends,
        List<RecoveryPolicy> policies,
        List<TrafficFlows.Flow> receives,
        int payloadBytes,
        int overheadBytes,
        long giveUpNanos,
        Dcqcn.Settings congestion,
        long lineBps)
        implements DriverSpec {

    public TrafficDriverSpec {
        sends = List.copyOf(sends);
        policies = List.copyOf(policies);
        if (policies.size() != sends.size()) {
            throw new IllegalArgumentException(
                    "one retransmission rule per flow sent: " + policies.size() + " for " + sends.size());
        }
        receives = List.copyOf(receives);
        if (lineBps <= 0) {
            throw new IllegalArgumentException("a traffic host's line rate must be positive, got " + lineBps);
        }
        if (payloadBytes <= 0) {
            throw new IllegalArgumentException("a traffic packet must carry payload bytes, got " + payloadBytes);
        }
    }

    @Override
    public JobPlan plan() {
        return JobPlan.of(tenant, wireJob);
    }

    @Override
    public EndpointDriver create(References references) {
        return new TrafficHost(this);
    }

    /** The packets a flow of {@code bytes} is cut into: full ones, and the rest in the last. */
    static int packets(long bytes, int payloadBytes) {
        return (int) ((bytes + payloadBytes - 1) / payloadBytes);
    }
}
