package org.bitina.device;

import org.bitina.job.AllReducePlan;
import org.bitina.job.AllReduceWorker;
import org.bitina.job.EndpointDriver;
import org.bitina.job.MoeExpert;
import org.bitina.job.MoePlan;
import org.bitina.job.MoeSource;
import org.bitina.job.MulticastPlan;
import org.bitina.job.MulticastReceiver;
import org.bitina.job.MulticastSource;
import org.bitina.job.PsServer;
import org.bitina.job.RingWorker;

/**
 * Which driver a host runs for a job phase; the host builds it, so a spec can cross JVMs.
 * Exactly one of {@code allReduce} and {@code moe} is set; {@code endpoint} names the
 * expert for {@link Role#MOE_EXPERT} and is the host otherwise.
 */
public record DriverSpec(Role role, AllReducePlan allReduce, MoePlan moe, MulticastPlan multicast, org.bitina.job.IncPlan inc, String host,
                         String endpoint) {
    public enum Role {
        ALLREDUCE_WORKER,
        RING_WORKER,
        PARAMETER_SERVER,
        MOE_SOURCE,
        MOE_EXPERT,
        MULTICAST_SOURCE,
        MULTICAST_RECEIVER,
        INC_MEMBER
    }

    public DriverSpec(Role role, AllReducePlan plan, String host) {
        this(role, plan, null, null, null, host, host);
    }

    public static DriverSpec moe(Role role, MoePlan plan, String host, String endpoint) {
        return new DriverSpec(role, null, plan, null, null, host, endpoint);
    }

    public static DriverSpec multicast(Role role, MulticastPlan plan, String host) {
        return new DriverSpec(role, null, null, plan, null, host, host);
    }

    public static DriverSpec inc(org.bitina.job.IncPlan plan, String host) {
        return new DriverSpec(Role.INC_MEMBER, plan.base(), null, null, plan, host, host);
    }

    public EndpointDriver create() {
        return switch (role) {
            case ALLREDUCE_WORKER -> new AllReduceWorker(allReduce, host);
            case RING_WORKER -> new RingWorker(allReduce, host);
            case PARAMETER_SERVER -> new PsServer(allReduce);
            case MOE_SOURCE -> new MoeSource(moe, host);
            case MOE_EXPERT -> new MoeExpert(moe, endpoint);
            case MULTICAST_SOURCE -> new MulticastSource(multicast, host);
            case MULTICAST_RECEIVER -> new MulticastReceiver(multicast, host);
            case INC_MEMBER -> new org.bitina.job.IncMember(inc, host);
        };
    }

    public int tenant() {
        return allReduce != null ? allReduce.tenant() : moe != null ? moe.tenant() : multicast.tenant();
    }

    public int job() {
        return allReduce != null ? allReduce.wireJob() : moe != null ? moe.wireJob() : multicast.wireJob();
    }
}
