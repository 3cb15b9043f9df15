package org.bitina.usecases;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.FaultSpec;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Repair;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.allgather.AllGatherUseCase;
import org.bitina.usecase.allreduce.AllReduceUseCase;
import org.bitina.usecase.attack.AttackDriverSpec;
import org.bitina.usecase.bierinc.BierIncUseCase;
import org.bitina.usecase.broadcast.BroadcastUseCase;
import org.bitina.usecase.moe.MoeUseCase;
import org.bitina.usecase.multicast.MulticastUseCase;
import org.bitina.usecase.reducescatter.ReduceScatterUseCase;
import org.bitina.usecase.traffic.TrafficDriverSpec;

/** The use cases a scenario may have. Adding one is a package under {@code usecase} and a line in {@link #ALL}. */
public final class UseCases {
    public static final List<UseCase<?>> ALL = List.of(
            new AllReduceUseCase(),
            new MoeUseCase(),
            new MulticastUseCase(),
            new BierIncUseCase(),
            new ReduceScatterUseCase(),
            new AllGatherUseCase(),
            new BroadcastUseCase());

    private UseCases() {}

    /** The jobs of {@code s} whose packets do not fit a link they cross ({@link WireBudget}). */
    public static List<WireBudget.Excess> wireBudget(Scenario s) {
        return WireBudget.check(s, job -> packets(job, s), routing -> PhasePlanner.plan(s, routing));
    }

    /** How each kind's jobs are read, in the order error messages list the kinds. */
    public static List<JobReader> readers() {
        return ALL.stream().map(UseCase::reader).toList();
    }

    /** Every driver spec a host may be sent, for serialisation. */
    public static List<Class<? extends DriverSpec>> driverTypes() {
        List<Class<? extends DriverSpec>> types =
                new ArrayList<>(ALL.stream().flatMap(u -> u.drivers().stream()).toList());
        // the attackers a scenario's attacks section puts beside any AllReduce job's workers
        types.add(AttackDriverSpec.class);
        // background traffic's hosts (T3), beside the jobs of a shared run
        types.add(TrafficDriverSpec.class);
        return List.copyOf(types);
    }

    /** Every kind's report part, for serialisation. */
    public static List<Class<? extends KindReport>> reportTypes() {
        return ALL.stream().flatMap(u -> u.reportTypes().stream()).toList();
    }

    /** What phase {@code p} sends when nothing is lost, by its job's use case ({@link UseCase#estimate}); null: none. */
    public static PhaseEstimate estimate(Phase p, Scenario s, Routing routing) {
        return Bound.of(p.job()).estimate(p, s, routing);
    }

    /** The repair of phase {@code p}'s tree over {@code routing}, by its job's use case ({@link UseCase#retree}); null: none. */
    public static Repair retree(Phase p, Scenario s, Routing routing) {
        return Bound.of(p.job()).retree(p, s, routing);
    }

    /** Phase {@code p}'s tree rebuilt with a switch that came back ({@link UseCase#rejoin}); null: none. */
    public static Repair rejoin(Phase p, Scenario s, Routing routing) {
        return Bound.of(p.job()).rejoin(p, s, routing);
    }

    /** What {@code job}'s packets carry besides header, endpoint set and tag ({@link UseCase#packets}). */
    public static WireBudget.Packets packets(JobSpec job, Scenario s) {
        return Bound.of(job).packets(s);
    }

    /** What the jobs ask of the fault plan that this version does not build, job by job ({@link UseCase#unbuiltFaults}). */
    public static List<String> unbuiltFaults(List<JobSpec> jobs, List<FaultSpec> faults) {
        List<String> out = new ArrayList<>();
        jobs.forEach(job -> out.addAll(Bound.of(job).unbuiltFaults(faults)));
        return out;
    }

    /**
     * The tolerances the results of the kinds that ran were checked with, each once, in the order
     * of the first kind of {@link #ALL} that uses it.
     */
    public static List<String> tolerances(Set<String> kindsRan) {
        Set<String> ran = new HashSet<>();
        ALL.stream()
                .filter(u -> kindsRan.contains(u.kind()) && u.tolerance() != null)
                .forEach(u -> ran.add(u.tolerance()));
        return ALL.stream()
                .map(UseCase::tolerance)
                .filter(t -> t != null && ran.contains(t))
                .distinct()
                .toList();
    }

    /** The kind's own part of phase {@code p}'s report row ({@link UseCase#report}); null when it has none. */
    public static KindReport report(Phase p, PhaseFigures figures) {
        return Bound.of(p.job()).report(p, figures);
    }

    /**
     * Where a mode stands among the kinds' modes, for a colour of its own (the HTML page's charts):
     * 0 for INA, then each kind's fallback and baselines once, in the order of the kinds; -1 for a
     * mode no kind declares.
     */
    public static int colourRank(Mode m) {
        return modes().indexOf(m);
    }

    /** Every host baseline some kind runs, each once, in the order of {@link #colourRank}: what the legends name. */
    public static List<Mode> baselines() {
        return modes().subList(1, modes().size());
    }

    // every mode its own place (ring and all-to-all were both "the fallback", one colour): INA, then each
    // kind's fallback and baselines in the order of ALL
    private static List<Mode> modes() {
        return Stream.concat(
                        Stream.of(Mode.INA),
                        ALL.stream().flatMap(u -> Stream.concat(Stream.of(u.fallback()), u.baselines().stream())))
                .distinct()
                .toList();
    }

    /** nccl-tests' terms of one mode of {@code job} ({@link UseCase#bandwidth}); null for a kind without an array. */
    public static UseCase.Bandwidth bandwidth(Scenario s, JobSpec job, Mode mode) {
        return Bound.of(job).bandwidth(mode, s);
    }

    /** The kinds with a chaos job ({@link UseCase#chaos}), in the order of {@link #ALL}. */
    public static List<UseCase<?>> chaosKinds() {
        return ALL.stream().filter(u -> u.chaos() != null).toList();
    }

    /** What {@code job}'s kind counts its completion times in ({@link UseCase#unit}). */
    public static String unit(JobSpec job) {
        return of(job).unit();
    }

    /** About how much heap {@code job} needs (see {@link UseCase#memoryBytes}). */
    public static long memoryBytes(JobSpec job) {
        return Bound.of(job).memoryBytes();
    }

    /** The use case that runs {@code job}. */
    static UseCase<?> of(JobSpec job) {
        return ALL.stream()
                .filter(u -> u.spec().isInstance(job))
                .findFirst()
                .orElseThrow(() -> new UnsupportedOperationException("no use case runs job '" + job.name() + "' ("
                        + job.common().kind() + ")"));
    }
}
