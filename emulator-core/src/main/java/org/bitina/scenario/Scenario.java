package org.bitina.scenario;

import org.bitina.topology.FaultSpec;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.Topology;

import org.bitina.usecase.JobSpec;

import java.util.List;

/** One scenario file, validated: topology, jobs, fault plan, cluster layout and the clock that runs it. */
public record Scenario(String file, Topology topology, List<JobSpec> jobs, List<FaultSpec> faults, ClusterSpec cluster, Clock clock,
                       Security security, List<org.bitina.security.AttackSpec> attacks) {

    /**
     * The scenario's {@code security} section.
     *
     * @param mac                  packets of endpoints carry their job's tag, checked at the first switch (S2); on by default
     * @param maxCompletionTimeout the longest completion timeout a job may set: how long a switch may be made to hold
     *                             soft state for one aggregation (S5); 10 s by default
     */
    public record Security(boolean mac, java.time.Duration maxCompletionTimeout) {
        private static final java.time.Duration DEFAULT_MAX_TIMEOUT = java.time.Duration.ofSeconds(10);
        public static final Security DEFAULT = new Security(true, DEFAULT_MAX_TIMEOUT);

        public Security(boolean mac) {
            this(mac, DEFAULT_MAX_TIMEOUT);
        }
    }

    /** The same scenario under another clock (the command line's {@code --clock}). */
    public Scenario withClock(Clock c) {
        return new Scenario(file, topology, jobs, faults, cluster, c, security, attacks);
    }

    /** The same scenario with other security settings. */
    public Scenario withSecurity(Security s) {
        return new Scenario(file, topology, jobs, faults, cluster, clock, s, attacks);
    }
}
