package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;
import org.bitina.wire.PacketCodec;

/**
 * One background-traffic entry of a scenario as a run installs and starts it (T3): its flows, the
 * tables every node holds for it (so its unicast packets are routed on the topology's shortest
 * paths, tagged and checked as any job's when MACs are on), and one driver per host.
 *
 * @param index       the entry's index in the scenario's {@code traffic} list
 * @param tenant      the tenant id its packets carry (background traffic's own, S1)
 * @param wireJob     the job id its packets carry (index + 1)
 * @param flows       every flow, in start order
 * @param tables      what each node holds for it
 * @param drivers     one per host of the entry
 * @param packets     the packets its flows send when nothing is lost
 * @param giveUpNanos modelled time after which a flow still missing packets counts as unfinished
 */
public record TrafficPlan(
        int index,
        TrafficFlows.Spec spec,
        int tenant,
        int wireJob,
        List<TrafficFlows.Flow> flows,
        Map<String, JobTables> tables,
        List<TrafficDriverSpec> drivers,
        long packets,
        long giveUpNanos) {

    /** The tenant background traffic's packets carry: one no job may have (the loader refuses it). */
    public static final int TENANT = TrafficFlows.TENANT;

    /** What the tables name as the phase's mode: traffic is no job's mode. */
    public static final Mode MODE = Mode.of("background");

    /**
     * How long after its entry's {@code stop} a flow may take to arrive in full before it counts as
     * unfinished: far beyond any queue here (256 KiB drains in 21 us at 100 Gbps), short enough that a
     * lost packet does not hold the phase for long in modelled time.
     */
    public static final long GIVE_UP_AFTER_STOP_NANOS = 10_000_000L;

    public TrafficPlan {
        flows = List.copyOf(flows);
        tables = Map.copyOf(tables);
        drivers = List.copyOf(drivers);
    }

    /** Every entry of {@code s}, in order. */
    public static List<TrafficPlan> of(Scenario s) {
        List<TrafficPlan> out = new ArrayList<>();
        for (int i = 0; i < s.traffic().size(); i++) {
            out.add(of(s, i));
        }
        return out;
    }

    /** Entry {@code index} of {@code s}. */
    public static TrafficPlan of(Scenario s, int index) {
        Topology topology = s.topology();
        TrafficFlows.Spec spec = s.traffic().get(index);
        int job = index + 1;
        String name = "traffic-" + job;
        List<TrafficFlows.Flow> flows = TrafficFlows.flows(spec, h -> linkBps(topology, h));
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : topology.nodes()) {
            tables.put(
                    n.name(),
                    JobTables.builder(name, TENANT, job, 1, 0).mode(MODE).build());
        }
        int payload = payloadBytes(topology, s.security().tagBytes());
        long giveUp = spec.stopNanos() + GIVE_UP_AFTER_STOP_NANOS;
        List<TrafficDriverSpec> drivers = new ArrayList<>();
        long packets = 0;
        for (String h : spec.hosts()) {
            List<TrafficFlows.Flow> sends =
                    flows.stream().filter(f -> f.from().equals(h)).toList();
            List<TrafficFlows.Flow> receives =
                    flows.stream().filter(f -> f.to().equals(h)).toList();
            for (TrafficFlows.Flow f : sends) {
                packets += TrafficDriverSpec.packets(f.bytes(), payload);
            }
            drivers.add(new TrafficDriverSpec(h, TENANT, job, index, sends, receives, payload, giveUp));
        }
        return new TrafficPlan(index, spec, TENANT, job, flows, tables, drivers, packets, giveUp);
    }

    /**
     * The application bytes of a full packet: the smallest MTU of the topology (a flow crosses links
     * the plan does not pick) less the header, the one-bit bitmap and the S2 tag, in whole int32s.
     */
    static int payloadBytes(Topology topology, int tagBytes) {
        int mtu = topology.links().stream()
                .mapToInt((Link l) -> l.spec().mtu())
                .min()
                .orElse(4096);
        int overhead = PacketCodec.HEADER_BYTES + PacketCodec.setBodyBytes(FlatBitmap.of(1)) + tagBytes;
        return (mtu - overhead) / 4 * 4;
    }

    /** A host's link rate: the fastest of its links (a host has one in every shipped topology). */
    static long linkBps(Topology topology, String host) {
        return topology.linksOf(host).stream()
                .mapToLong((Link l) -> l.spec().bandwidthBps())
                .max()
                .orElse(1);
    }
}
