package org.bitina.topology;

import java.util.List;

/** One scenario file, validated: topology, jobs, fault plan and cluster layout. */
public record Scenario(String file, Topology topology, List<JobSpec> jobs, List<FaultSpec> faults, ClusterSpec cluster) {
}
