package org.bitina.usecase.reduction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.scenario.Scenario;
import org.bitina.time.Durations;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Plans;
import org.bitina.usecase.UseCase;

/**
 * The phases every kind that reduces a seeded data array shares (AllReduce, BIER-INC's
 * collectives): the host baselines (A7, L2: parameter server and the schedules of {@link HostBaselines}), the endpoints' plan of a
 * mode, its timing and deadline, and the S5 and heap estimates of such a job.
 */
public final class ArrayPhases {
    /** The parameter-server baseline (A2, A7): every member sends its array to one host, which sends the sum back. */
    public static final Mode PS = new Mode("ps");

    private ArrayPhases() {}

    /** What an AllReduce-like job over {@code data} with {@code members} keeps (BIER-INC alike). */
    public static long dataBytes(DataSpec data, int members) {
        return 32L * data.elements() + 128L * data.chunks() * members;
    }

    /** S5's declaration of an AllReduce-like job (BIER-INC alike): two windows of chunks, at most every chunk. */
    public static int windows(DataSpec data) {
        return (int) Math.min(data.chunks(), 2L * data.window());
    }

    /** One host-based baseline (A7, L2): parameter server, or a schedule ({@link HostBaselines}: ring, tree, ...). */
    public static Phase baseline(Scenario s, JobSpecWithData job, Mode mode, String treeRoot) {
        return baseline(s, null, job, mode, treeRoot);
    }

    /** As {@link #baseline(Scenario, JobSpecWithData, String, String)}, with the routing when the caller has it. */
    public static Phase baseline(Scenario s, Routing routing, JobSpecWithData job, Mode mode, String treeRoot) {
        return mode.equals(PS) ? ps(s, routing, job, treeRoot) : HostBaselines.phase(s, routing, job, mode);
    }

    /** The host-based baselines (A7) a job lists, in its order. */
    public static List<Phase> baselines(Scenario s, Routing routing, JobSpecWithData job, String treeRoot) {
        List<Phase> phases = new ArrayList<>();
        for (Mode b : job.common().baselines()) {
            phases.add(baseline(s, routing, job, b, treeRoot));
        }
        return phases;
    }

    static Phase ps(Scenario s, Routing routing, JobSpecWithData job, String treeRoot) {
        int wireJob = WireJobs.PS.of(job.common().id());
        String psHost = psHost(s, job.common().members(), treeRoot);
        Map<String, String> uplink = new LinkedHashMap<>();
        job.common().members().forEach(m -> uplink.put(m, psHost));
        long timeout = job.common().completionTimeout().toNanos();
        // L1: the workers time their retransmissions by the modelled round trip to the server, as INA's
        // do; every member's window queues at the server's one port (the incast), so that is in it too
        int members = job.common().members().size();
        AllReducePlan plan = plan(s, job, PS, wireJob, uplink, psHost, timeout)
                .withRtt(RoundTrip.of(
                        s,
                        routing == null ? Routing.compute(s.topology()) : routing,
                        job.common().members(),
                        uplink::get,
                        psHost,
                        RoundTrip.packetBytes(
                                job.data(), job.common().bitSpace().capacity()),
                        members * job.data().window()));
        List<DriverSpec> drivers = new ArrayList<>();
        drivers.add(new AllReduceDriver(AllReduceDriver.Role.PARAMETER_SERVER, plan, psHost));
        job.common().members().forEach(m -> drivers.add(new AllReduceDriver(AllReduceDriver.Role.WORKER, plan, m)));
        return Phase.builder()
                .job(job)
                .mode(PS)
                .wireJob(wireJob)
                .tables(Plans.bareTables(s, job, wireJob, PS))
                .drivers(drivers)
                .awaited(Plans.awaited(job.common().members(), plan.silent()))
                .roots(List.of(psHost))
                .bitSpace(job.common().bitSpace())
                .timing(timing(plan, deadline(job, 1)))
                .expected(PsRepair.expected(s, psHost, plan))
                .note("parameter server " + psHost)
                .build();
    }

    /** The PS is the VAT root when that is a host; else the first host that is not a member; else the first member. */
    public static String psHost(Scenario s, List<String> members, String treeRoot) {
        if (treeRoot != null && s.topology().node(treeRoot).isHost()) {
            return treeRoot;
        }
        Set<String> in = new HashSet<>(members);
        return s.topology().hosts().stream()
                .map(Node::name)
                .filter(h -> !in.contains(h))
                .findFirst()
                .orElse(members.get(0));
    }

    /** What the endpoints of one mode need: data, uplinks, and the fault plan as it touches them. */
    public static AllReducePlan plan(
            Scenario s,
            JobSpecWithData job,
            Mode mode,
            int wireJob,
            Map<String, String> uplink,
            String psHost,
            long timeoutNanos) {
        Plans.EndpointFaults f = Plans.EndpointFaults.of(s, job.common().members(), true);
        return AllReducePlan.builder()
                .jobName(job.name())
                .mode(mode)
                .tenant(job.common().tenant())
                .wireJob(wireJob)
                .space(job.common().bitSpace())
                .members(job.common().members())
                .data(job.data())
                .uplink(uplink)
                .psHost(psHost)
                .timeoutNanos(timeoutNanos)
                .stragglers(f.stragglers())
                .silent(f.silent())
                .seed(job.data().seed())
                .recovery(job.common().recovery())
                .congestion(
                        job.common().congestionControl() ? s.congestion() : null,
                        job.common().congestionControl()
                                ? job.common().members().stream()
                                        .collect(Collectors.toMap(
                                                m -> m, m -> s.topology().hostBps(m)))
                                : Map.of())
                .values(job.values())
                .build();
    }

    /** A job whose members share a seeded data array: AllReduce, and BIER-INC's collectives. */
    public interface JobSpecWithData extends JobSpec {
        DataSpec data();

        /** S6: masking and checksum; off unless the kind has them (AllReduce). */
        default ValueSecurity values() {
            return ValueSecurity.OFF;
        }
    }

    /**
     * What a phase whose hosts run the collective among themselves (a ring, a double binary tree, an
     * all-gather's multicast) is, whatever the schedule: every member awaited but the silent, whom no
     * schedule can do without (the phase fails naming them), one unit a chunk under the completion
     * timeout, and a note with the schedule's {@code shape}, its window and retransmission timeout. The
     * caller adds the tables, the drivers and, where the hosts are sources, the roots.
     *
     * @param what the phase as the note names it when a member is silent ("a ring")
     */
    public static Phase.Builder hostPhase(
            JobSpecWithData job, AllReducePlan plan, Duration deadline, String shape, String what, long rtoNanos) {
        Set<String> silent = plan.silent();
        return Phase.builder()
                .job(job)
                .mode(plan.mode())
                .wireJob(plan.wireJob())
                .awaited(Plans.awaited(job.common().members(), silent))
                .bitSpace(job.common().bitSpace())
                .timing(new Phase.Timing(
                        plan.data().chunks(),
                        job.common().completionTimeout().toNanos(),
                        plan.maxStraggleNanos(),
                        deadline))
                .expected(Phase.Expected.unless(silent, Status.FAILED))
                .note((silent.isEmpty() ? shape : what + " cannot complete with a silent member: " + silent)
                        + "; window " + plan.data().window() + ", retransmission timeout " + Durations.of(rtoNanos));
    }

    public static Phase.Timing timing(AllReducePlan plan, Duration deadline) {
        return new Phase.Timing(plan.data().chunks(), plan.timeoutNanos(), plan.maxStraggleNanos(), deadline);
    }

    /**
     * A generous bound: every window of chunks may wait for the root's timeout, plus room for
     * the data itself. A phase that passes it ends as failed, naming who did not finish.
     */
    public static Duration deadline(JobSpecWithData job, int depth) {
        long rounds =
                (job.data().chunks() + job.data().window() - 1) / job.data().window();
        long timeoutMs = job.common().completionTimeout().toMillis();
        return Duration.ofMillis(30_000 + rounds * (depth + 2) * timeoutMs * 2);
    }

    /** nccl-tests' terms of one mode of an array job ({@link UseCase#bandwidth}): its array's bytes (elements x 4), its bus factor. */
    public static UseCase.Bandwidth bandwidth(Scenario s, JobSpecWithData job, Mode mode) {
        return new UseCase.Bandwidth(4L * job.data().elements(), HostBaselines.busFactor(s, job, mode));
    }
}
