package org.bitina.usecase.reduction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.WireJobs;
import org.bitina.scenario.Scenario;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Plans;
import org.bitina.wire.PacketCodec;

/**
 * The host AllReduce baselines that run a {@link HostSchedule} on every member ({@link
 * ScheduleWorker}): {@code ring}, {@code tree} (NCCL's double binary tree), {@code
 * halving-doubling} (Rabenseifner, as MPICH) and {@code hierarchical} (rack leaders). Each gets a
 * phase of its own, with a wire job of its own so that no switch holds state for it.
 */
public final class HostBaselines {
    public static final Mode RING = new Mode("ring");
    public static final Mode TREE = new Mode("tree");
    public static final Mode HALVING_DOUBLING = new Mode("halving-doubling");
    public static final Mode HIERARCHICAL = new Mode("hierarchical");
    /** Every schedule-driven baseline, in the order the docs list them. */
    public static final List<Mode> MODES = List.of(RING, TREE, HALVING_DOUBLING, HIERARCHICAL);

    private static final Map<Mode, WireJobs> WIRE_JOBS = Map.of(
            RING, WireJobs.RING,
            TREE, WireJobs.TREE,
            HALVING_DOUBLING, WireJobs.HALVING_DOUBLING,
            HIERARCHICAL, WireJobs.HIERARCHICAL);

    private HostBaselines() {}

    public static boolean handles(Mode mode) {
        return MODES.contains(mode);
    }

    /** The schedule a plan's members run, from its mode (and for {@code hierarchical}, its uplinks: each member's leader). */
    public static HostSchedule schedule(AllReducePlan plan) {
        int n = plan.members().size();
        Mode mode = plan.mode();
        if (mode.equals(TREE)) {
            return new DoubleBinaryTreeSchedule(n);
        }
        if (mode.equals(HALVING_DOUBLING)) {
            return new HalvingDoublingSchedule(n, plan.data().chunks());
        }
        if (mode.equals(HIERARCHICAL)) {
            int[] leaderOf = new int[n];
            for (int i = 0; i < n; i++) {
                String leader = plan.uplink().get(plan.members().get(i));
                leaderOf[i] = leader == null ? i : plan.members().indexOf(leader);
            }
            return new HierarchicalSchedule(leaderOf);
        }
        return new RingSchedule(n);
    }

    /** Per member its rack's leader: the first member (in member order) under the same edge switch. */
    static Map<String, String> leaders(Scenario s, List<String> members) {
        Map<String, String> leaderOfRack = new LinkedHashMap<>();
        Map<String, String> out = new LinkedHashMap<>();
        for (String m : members) {
            List<String> up = s.topology().neighbors(m);
            String rack = up.isEmpty() ? m : up.get(0);
            out.put(m, leaderOfRack.computeIfAbsent(rack, r -> m));
        }
        return out;
    }

    /** A baseline's plan before its timeout is known (timeout 0), what it was made with, and its schedule. */
    private record Draft(int wireJob, Map<String, String> uplink, AllReducePlan plan, HostSchedule schedule) {}

    private static Draft draft(Scenario s, ArrayPhases.JobSpecWithData job, Mode mode) {
        int wireJob = WIRE_JOBS.get(mode).of(job.common().id());
        Map<String, String> uplink =
                mode.equals(HIERARCHICAL) ? leaders(s, job.common().members()) : Map.of();
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, wireJob, uplink, null, 0);
        return new Draft(wireJob, uplink, plan, schedule(plan));
    }

    /** The retransmission timeout of baseline {@code mode}'s members in {@code job} ({@link #retransmissionTimeout}). */
    public static long retransmissionTimeout(Scenario s, Routing routing, ArrayPhases.JobSpecWithData job, Mode mode) {
        Draft d = draft(s, job, mode);
        return retransmissionTimeout(
                s, routing == null ? Routing.compute(s.topology()) : routing, d.plan(), d.schedule());
    }

    /** The phase of baseline {@code mode} for {@code job}. */
    public static Phase phase(Scenario s, Routing routing, ArrayPhases.JobSpecWithData job, Mode mode) {
        Draft d = draft(s, job, mode);
        long rto = retransmissionTimeout(
                s, routing == null ? Routing.compute(s.topology()) : routing, d.plan(), d.schedule());
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, d.wireJob(), d.uplink(), null, rto);
        HostSchedule schedule = d.schedule();
        List<DriverSpec> drivers = new ArrayList<>();
        job.common()
                .members()
                .forEach(m -> drivers.add(new AllReduceDriver(AllReduceDriver.Role.RING_WORKER, plan, m)));
        int n = job.common().members().size();
        String shape;
        if (mode.equals(TREE)) {
            shape = "double binary tree of " + n + " members";
        } else if (mode.equals(HALVING_DOUBLING)) {
            shape = "halving-doubling over " + n + " members (" + ((HalvingDoublingSchedule) schedule).pof2()
                    + " halve and double)";
        } else if (mode.equals(HIERARCHICAL)) {
            shape = ((HierarchicalSchedule) schedule).racks() + " racks of " + n + " members, leaders "
                    + new ArrayList<>(new LinkedHashSet<>(d.uplink().values()));
        } else {
            shape = "ring of " + n + " members";
        }
        return ArrayPhases.hostPhase(job, plan, ArrayPhases.deadline(job, n), shape, "a " + mode, rto)
                .tables(Plans.bareTables(s, job, d.wireJob(), mode))
                .drivers(drivers)
                .build();
    }

    /**
     * A mode's bus factor: the most payload any one host sends or receives, per byte of one member's
     * array, in a lossless run (busbw = algbw x this, so busbw is the busiest host link's payload rate
     * and never above line rate). INA: 1 (each member sends its array once and receives the sum once);
     * parameter server: N (the server takes every member's array and sends the sum to each); a
     * schedule: counted from its sends (ring and halving-doubling 2(N-1)/N, double binary tree about 2,
     * hierarchical the leaders' R-1 + 2(L-1)/L). NaN for a mode it does not know.
     */
    public static double busFactor(Scenario s, ArrayPhases.JobSpecWithData job, Mode mode) {
        List<String> members = job.common().members();
        int n = members.size();
        if (mode.inNetwork()) {
            return 1;
        }
        if (mode.equals(ArrayPhases.PS)) {
            return n;
        }
        if (!handles(mode)) {
            return Double.NaN;
        }
        Map<String, String> uplink = mode.equals(HIERARCHICAL) ? leaders(s, members) : Map.of();
        AllReducePlan plan = ArrayPhases.plan(s, job, mode, 0, uplink, null, 1);
        HostSchedule schedule = schedule(plan);
        DataSpec data = plan.data(); // chunk lengths only: no inputs drawn
        long[] sent = new long[n];
        long[] got = new long[n];
        for (int m = 0; m < n; m++) {
            for (int c = 0; c < data.chunks(); c++) {
                for (HostSchedule.Send x : schedule.sends(m, c)) {
                    sent[m] += data.chunkLength(c);
                    got[x.to()] += data.chunkLength(c);
                }
            }
        }
        long most = 0;
        for (int m = 0; m < n; m++) {
            most = Math.max(most, Math.max(sent[m], got[m]));
        }
        return (double) most / plan.data().elements();
    }

    /**
     * The per-hop retransmission timeout's floor, from the modelled network: the longest round trip
     * between a member and a peer it sends to (a data packet out, its acknowledgement back: latency
     * and serialisation per link of the routed path), plus the most queueing the packet and its
     * acknowledgement can meet on the way. On each directed link that is every packet the windows
     * let into the network that crosses it: a window of data packets for each member whose sends
     * are routed over it, and a window of acknowledgements for each member whose acknowledgements
     * come back over it (a member has at most a window unacknowledged), each at that link's rate. A
     * straggler's own delay is added to its send's deadline where it is sent. No packet of a lossless
     * run is late by this bound, so no timer fires without a loss; and a loss waits about one round
     * trip of the links it crosses, not every member's window on the slowest link.
     */
    public static long retransmissionTimeout(Scenario s, Routing routing, AllReducePlan plan, HostSchedule schedule) {
        int n = plan.members().size();
        int capacity = plan.space().capacity();
        long ackBytes = PacketCodec.HEADER_BYTES + (capacity + 7) / 8 + 16;
        long dataBytes =
                ackBytes + (long) plan.data().chunk() * plan.data().type().bytes();
        Set<Long> pairs = new LinkedHashSet<>();
        int chunks = plan.data().chunks();
        for (int m = 0; m < n; m++) {
            for (int c = 0; c < chunks; c++) {
                for (HostSchedule.Send x : schedule.sends(m, c)) {
                    pairs.add(((long) m << 32) | x.to());
                }
            }
        }
        // each pair's routes, and per directed link "a>b" the members whose data, and whose acknowledgements, cross it
        List<Trip> trips = new ArrayList<>();
        Map<String, Set<Integer>> dataOf = new HashMap<>();
        Map<String, Set<Integer>> acksFor = new HashMap<>();
        for (long pair : pairs) {
            int from = (int) (pair >>> 32);
            String a = plan.members().get(from);
            String b = plan.members().get((int) pair);
            Trip trip = new Trip(routing.path(a, b), routing.path(b, a));
            trips.add(trip);
            for (int i = 0; i + 1 < trip.out().size(); i++) {
                dataOf.computeIfAbsent(trip.out().get(i) + ">" + trip.out().get(i + 1), k -> new HashSet<>())
                        .add(from);
            }
            for (int i = 0; i + 1 < trip.back().size(); i++) {
                acksFor.computeIfAbsent(trip.back().get(i) + ">" + trip.back().get(i + 1), k -> new HashSet<>())
                        .add(from);
            }
        }
        long window = plan.data().window();
        long rtt = 0;
        for (Trip trip : trips) {
            long t =
                    s.topology().pathNanos(trip.out(), dataBytes) + s.topology().pathNanos(trip.back(), ackBytes);
            for (List<String> path : List.of(trip.out(), trip.back())) {
                for (int i = 0; i + 1 < path.size(); i++) {
                    String link = path.get(i) + ">" + path.get(i + 1);
                    LinkSpec l = s.topology().specBetween(path.get(i), path.get(i + 1));
                    t += window * dataOf.getOrDefault(link, Set.of()).size() * l.serializationNanos(dataBytes);
                    t += window * acksFor.getOrDefault(link, Set.of()).size() * l.serializationNanos(ackBytes);
                }
            }
            rtt = Math.max(rtt, t);
        }
        return Math.max(1, rtt);
    }

    /** A member's data route to a peer and the acknowledgement's route back. */
    private record Trip(List<String> out, List<String> back) {}
}
