package org.bitina.usecase.traffic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.job.RecoverySettings;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.usecase.RecoveryPolicy;
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
 * @param giveUpNanos modelled time after which a flow still missing packets counts as unfinished:
 *                    after the last flow's sender gave up on it
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

    public TrafficPlan {
        flows = List.copyOf(flows);
        tables = Map.copyOf(tables);
        drivers = List.copyOf(drivers);
    }

    /** Every entry of {@code s}, in order, its flows' timeouts from the topology's shortest paths. */
    public static List<TrafficPlan> of(Scenario s) {
        return of(s, Routing.compute(s.topology()));
    }

    /** Every entry of {@code s}, in order, its flows' timeouts from {@code routing}'s paths. */
    public static List<TrafficPlan> of(Scenario s, Routing routing) {
        List<TrafficPlan> out = new ArrayList<>();
        for (int i = 0; i < s.traffic().size(); i++) {
            out.add(of(s, i, routing));
        }
        return out;
    }

    /** Entry {@code index} of {@code s}. */
    public static TrafficPlan of(Scenario s, int index) {
        return of(s, index, Routing.compute(s.topology()));
    }

    /** Entry {@code index} of {@code s}, its flows' timeouts from {@code routing}'s paths. */
    public static TrafficPlan of(Scenario s, int index, Routing routing) {
        Topology topology = s.topology();
        TrafficFlows.Spec spec = s.traffic().get(index);
        int job = index + 1;
        String name = "traffic-" + job;
        List<TrafficFlows.Flow> flows = TrafficFlows.flows(spec, topology::hostBps);
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : topology.nodes()) {
            tables.put(
                    n.name(),
                    JobTables.builder(name, TENANT, job, 1, 0).mode(MODE).build());
        }
        int payload = payloadBytes(topology, s.security().tagBytes());
        long overhead = packetOverhead(s.security().tagBytes());
        Map<TrafficFlows.Flow, RecoveryPolicy> policies = new LinkedHashMap<>();
        long giveUp = spec.stopNanos();
        Map<String, Long> pairBits = new HashMap<>();
        if (spec.congestion() != null) {
            Map<String, Long> bits = new HashMap<>();
            for (TrafficFlows.Flow f : flows) {
                bits.merge(
                        f.from() + ">" + f.to(),
                        TrafficDriverSpec.packets(f.bytes(), payload) * (payload + overhead) * 8L,
                        Long::sum);
            }
            // as time at the lowest rate, rounded up (in double: the product can pass a long)
            bits.forEach((k, b) -> pairBits.put(k, (long) Math.min(
                    Long.MAX_VALUE / 4, Math.ceil(b * 1e9 / spec.congestion().minRateBps()))));
        }
        for (TrafficFlows.Flow f : flows) {
            long rto = rtoNanos(topology, routing, f, payload, overhead);
            RecoveryPolicy p = RecoveryPolicy.doubling(
                    rto, RecoveryPolicy.DOUBLINGS, RecoveryPolicy.TRAFFIC_SENDS, RecoverySettings.NONE);
            policies.put(f, p);
            // the receiver waits until the sender's last try could have arrived: with DCQCN, after every
            // flow of its queue pair (the same sender and receiver) sent at the lowest rate
            long paced = spec.congestion() == null ? 0 : pairBits.get(f.from() + ">" + f.to());
            giveUp = Math.max(giveUp, f.startNanos() + paced + p.horizonNanos() + p.rtoNanos());
        }
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
            List<RecoveryPolicy> rules = sends.stream().map(policies::get).toList();
            drivers.add(new TrafficDriverSpec(
                    h,
                    TENANT,
                    job,
                    index,
                    sends,
                    rules,
                    receives,
                    payload,
                    (int) overhead,
                    giveUp,
                    spec.congestion(),
                    topology.hostBps(h)));
        }
        return new TrafficPlan(index, spec, TENANT, job, flows, tables, drivers, packets, giveUp);
    }

    /**
     * A flow's first retransmission timeout: twice its modelled round trip on an idle fabric, that is
     * the whole flow serialised at the sender's link, each of its packets' hops (latency and one
     * packet's serialisation) out and the ACK's back, so that queueing up to as long again as the
     * flow itself costs no spurious resend. The timer restarts at each acknowledgement that moves, so
     * this bounds the wait between two of them, not the flow's completion.
     */
    static long rtoNanos(Topology topology, Routing routing, TrafficFlows.Flow f, int payload, long overhead) {
        long packets = TrafficDriverSpec.packets(f.bytes(), payload);
        long serialised = topology.fastestLink(f.from())
                .map(l -> l.serializationNanos(packets * (payload + overhead)))
                .orElse(0L);
        long out = topology.pathNanos(routing.path(f.from(), f.to()), payload + overhead);
        long back = topology.pathNanos(routing.path(f.to(), f.from()), overhead);
        return Math.max(1, 2 * (serialised + out + back));
    }

    /** The bytes of a packet that are not payload: header, the one-bit bitmap and the S2 tag (an ACK's all). */
    static long packetOverhead(int tagBytes) {
        return PacketCodec.HEADER_BYTES + PacketCodec.setBodyBytes(FlatBitmap.of(1)) + tagBytes;
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
        return (int) (mtu - packetOverhead(tagBytes)) / 4 * 4;
    }
}
