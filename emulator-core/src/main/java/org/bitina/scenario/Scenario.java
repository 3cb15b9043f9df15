package org.bitina.scenario;

import org.bitina.topology.FaultSpec;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.Topology;

import org.bitina.usecase.JobSpec;

import java.util.List;

/** One scenario file, validated: topology, jobs, fault plan and cluster layout. */
public record Scenario(String file, Topology topology, List<JobSpec> jobs, List<FaultSpec> faults, ClusterSpec cluster) {
}
