package org.bitina.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.job.JobSpec;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.SwitchTiming;
import org.bitina.protocol.TrafficFlows;
import org.bitina.security.AttackSpec;
import org.bitina.security.IngressPolicy;
import org.bitina.topology.ClusterSpec;
import org.bitina.topology.Topology;
import org.bitina.wire.InaPacket;

/** One scenario file, validated: topology, jobs, fault plan, cluster layout and the clock that runs it. */
public record Scenario(
        String file,
        Topology topology,
        List<JobSpec> jobs,
        List<FaultSpec> faults,
        ClusterSpec cluster,
        Clock clock,
        Security security,
        List<AttackSpec> attacks,
        StateCapacity capacity,
        Schedule schedule,
        List<TrafficFlows.Spec> traffic,
        Repeat repeat,
        Dcqcn.Settings congestion) {

    public Scenario {
        traffic = traffic == null ? List.of() : List.copyOf(traffic);
        repeat = repeat == null ? Repeat.ONCE : repeat;
        congestion = congestion == null ? Dcqcn.Settings.DEFAULTS : congestion;
    }

    /**
     * How often the file is run ({@code repeat { runs = N }}, or {@code --repeat N}) and which of
     * those runs this is: draw {@code draw} moves every seed ({@link Seeds}), draw 0 none.
     */
    public record Repeat(int runs, int draw) {
        public static final int MAX_RUNS = 1000;
        public static final Repeat ONCE = new Repeat(1, 0);

        /** The seed the links' loss generators start from in this draw. */
        public long linkSeed() {
            return Seeds.forDraw(Seeds.LINKS, draw);
        }
    }

    /** A scenario without background traffic, run once with the file's own seeds. */
    public Scenario(
            String file,
            Topology topology,
            List<JobSpec> jobs,
            List<FaultSpec> faults,
            ClusterSpec cluster,
            Clock clock,
            Security security,
            List<AttackSpec> attacks,
            StateCapacity capacity,
            Schedule schedule) {
        this(
                file,
                topology,
                jobs,
                faults,
                cluster,
                clock,
                security,
                attacks,
                capacity,
                schedule,
                List.of(),
                Repeat.ONCE,
                null);
    }

    /** A scenario whose jobs run one after the other (the default schedule). */
    public Scenario(
            String file,
            Topology topology,
            List<JobSpec> jobs,
            List<FaultSpec> faults,
            ClusterSpec cluster,
            Clock clock,
            Security security,
            List<AttackSpec> attacks,
            StateCapacity capacity) {
        this(file, topology, jobs, faults, cluster, clock, security, attacks, capacity, Schedule.SEQUENTIAL);
    }

    /**
     * How many aggregation entries each switch can hold for a job (S5; the topology's
     * {@code switch-defaults} and {@code switch-overrides}), and the optional realism of the same keys.
     *
     * @param entries   every switch's capacity; 0: unlimited
     * @param overrides capacities of named switches
     * @param speed     every switch's processing delay and adder rate (free by default)
     * @param speeds    those of named switches
     */
    public record StateCapacity(
            int entries,
            Map<String, Integer> overrides,
            SwitchTiming.Spec speed,
            Map<String, SwitchTiming.Spec> speeds) {
        public static final StateCapacity UNLIMITED = new StateCapacity(0, Map.of());

        public StateCapacity {
            overrides = Map.copyOf(overrides);
            speeds = Map.copyOf(speeds);
        }

        /** Entries only: every switch free (no processing delay, an unlimited adder). */
        public StateCapacity(int entries, Map<String, Integer> overrides) {
            this(entries, overrides, SwitchTiming.Spec.FREE, Map.of());
        }

        /** The capacity of switch {@code name}; 0: unlimited. */
        public int of(String name) {
            return overrides.getOrDefault(name, entries);
        }

        /** Switch {@code name}'s processing delay and adder rate (both 0 unless the scenario sets them). */
        public SwitchTiming.Spec speedOf(String name) {
            return speeds.getOrDefault(name, speed);
        }
    }

    /**
     * The scenario's {@code security} section.
     *
     * @param mac                  packets of endpoints carry their job's tag, checked at the first switch (S2); on by default
     * @param maxCompletionTimeout the longest completion timeout a job may set: how long a switch may be made to hold
     *                             soft state for one aggregation (S5); 10 s by default
     * @param rate                 the packets of a job one host port may send per modelled second (S4), or
     *                             null: not limited (the default: an honest job's bursts depend on its windows)
     */
    public record Security(boolean mac, Duration maxCompletionTimeout, IngressPolicy.RateLimit rate) {
        private static final Duration DEFAULT_MAX_TIMEOUT = Duration.ofSeconds(10);
        public static final Security DEFAULT = new Security(true, DEFAULT_MAX_TIMEOUT, null);

        public Security(boolean mac) {
            this(mac, DEFAULT_MAX_TIMEOUT, null);
        }

        /** The bytes of S2 tag an endpoint's packet carries under these settings: the one count every MTU budget uses. */
        public int tagBytes() {
            return mac ? InaPacket.AUTH_TAG_BYTES : 0;
        }
    }

    /**
     * What in this scenario draws packets at random (link loss, or loss, duplication or reordering
     * at a rate), said in a few words; null when nothing does. A figure of such a run rests on one draw.
     */
    public String randomDrops() {
        long lossy = topology.links().stream().filter(l -> l.spec().loss() > 0).count();
        List<String> what = new ArrayList<>();
        if (lossy > 0) {
            what.add("loss on " + lossy + (lossy == 1 ? " link" : " links"));
        }
        faults.stream()
                .filter(f -> (f.kind() == FaultSpec.Kind.LOSS
                                || f.kind() == FaultSpec.Kind.DUPLICATE
                                || f.kind() == FaultSpec.Kind.REORDER)
                        && f.rate() > 0
                        && f.rate() < 1)
                .map(f -> f.kind().configName() + " faults at a rate")
                .distinct()
                .forEach(what::add);
        return what.isEmpty() ? null : String.join(", ", what);
    }

    /** The same scenario under another schedule (a shared run's jobs alone, for their slowdown). */
    public Scenario withSchedule(Schedule s) {
        return new Scenario(
                file,
                topology,
                jobs,
                faults,
                cluster,
                clock,
                security,
                attacks,
                capacity,
                s,
                traffic,
                repeat,
                congestion);
    }

    /** The same scenario under another clock (the command line's {@code --clock}). */
    public Scenario withClock(Clock c) {
        return new Scenario(
                file,
                topology,
                jobs,
                faults,
                cluster,
                c,
                security,
                attacks,
                capacity,
                schedule,
                traffic,
                repeat,
                congestion);
    }

    /** The same scenario with another fault plan (the faults that applied, when some never did). */
    public Scenario withFaults(List<FaultSpec> f) {
        return new Scenario(
                file,
                topology,
                jobs,
                List.copyOf(f),
                cluster,
                clock,
                security,
                attacks,
                capacity,
                schedule,
                traffic,
                repeat,
                congestion);
    }

    /** The same scenario with other security settings. */
    public Scenario withSecurity(Security s) {
        return new Scenario(
                file,
                topology,
                jobs,
                faults,
                cluster,
                clock,
                s,
                attacks,
                capacity,
                schedule,
                traffic,
                repeat,
                congestion);
    }
}
