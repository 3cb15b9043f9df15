package org.bitina.usecase;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.protocol.JobTables;
import org.bitina.security.Admission;
import org.bitina.topology.BitSpace;

/**
 * One phase of a run: a job in one mode (INA, or a baseline), with everything the runner
 * installs and starts for it, and what the scenario expects of it. Built by the job's
 * {@link UseCase}; the runner needs nothing else of the kind.
 *
 * @param tables    control-plane state per node
 * @param drivers   the endpoint drivers the hosts run
 * @param awaited   endpoints whose completion ends the phase
 * @param roots     the nodes whose incoming packets the report counts (VAT root, PS, MoE
 *                  sources), or null to take the busiest member (ring)
 * @param uplinks   endpoints whose links' bytes the report sums as {@code sourceUplinkBytes} (MoE sources)
 * @param bitSpace  what the phase's BIFTs are built over, again at a reroute: the job's
 *                  endpoints, or the leaves when they are a BIER-INC job's edge (B6)
 * @param admission what admission control (S5) decided for the job's INA mode: on its INA
 *                  phase, or on the baseline that ran instead; null on other baselines
 * @param iteration for an elastic job's INA phases (A8): which iteration, its members, and
 *                  what changed since the one before; null otherwise
 * @param more      further trees the phase installs beside its own, each a wire job of its own (H2: the
 *                  trees over a job's partitions, whose roots feed the phase's own tree, the second stage)
 */
public record Phase(
        JobSpec job,
        Mode mode,
        int wireJob,
        Map<String, JobTables> tables,
        List<DriverSpec> drivers,
        Set<String> awaited,
        List<String> roots,
        Set<String> uplinks,
        BitSpace bitSpace,
        Timing timing,
        Expected expected,
        String note,
        Admission admission,
        Iteration iteration,
        List<Tree> more) {

    /**
     * One tree of a phase: a wire job, the bit space its BIFTs are built over (again at a
     * reroute), and its tables per node.
     *
     * @param name what the report calls it (a partition's name; the phase's own tree is the job's)
     * @param root where its aggregation ends (a partition root), for the report
     */
    public record Tree(String name, int wireJob, BitSpace bitSpace, Map<String, JobTables> tables, String root) {
        public Tree withTables(Map<String, JobTables> t) {
            return new Tree(name, wireJob, bitSpace, t, root);
        }
    }

    public Phase {
        more = more == null ? List.of() : List.copyOf(more);
    }

    /** A phase built field by field: every field named, none counted ({@link Builder}). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this phase's fields, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .job(job)
                .mode(mode)
                .wireJob(wireJob)
                .tables(tables)
                .drivers(drivers)
                .awaited(awaited)
                .roots(roots)
                .uplinks(uplinks)
                .bitSpace(bitSpace)
                .timing(timing)
                .expected(expected)
                .note(note)
                .admission(admission)
                .iteration(iteration)
                .more(more);
    }

    /**
     * Builds a {@link Phase}. Job, mode, tables, drivers, awaited, bit space, timing and expected
     * are required; the rest defaults to a phase whose roots the report takes from the busiest
     * member (null), with no uplinks, an empty note, no admission decision, no iteration and no
     * further trees.
     */
    public static final class Builder {
        private JobSpec job;
        private Mode mode;
        private int wireJob;
        private Map<String, JobTables> tables;
        private List<DriverSpec> drivers;
        private Set<String> awaited;
        private List<String> roots;
        private Set<String> uplinks = Set.of();
        private BitSpace bitSpace;
        private Timing timing;
        private Expected expected;
        private String note = "";
        private Admission admission;
        private Iteration iteration;
        private List<Tree> more = List.of();

        private Builder() {}

        public Builder job(JobSpec v) {
            job = v;
            return this;
        }

        public Builder mode(Mode v) {
            mode = v;
            return this;
        }

        public Builder wireJob(int v) {
            wireJob = v;
            return this;
        }

        public Builder tables(Map<String, JobTables> v) {
            tables = v;
            return this;
        }

        public Builder drivers(List<DriverSpec> v) {
            drivers = v;
            return this;
        }

        public Builder awaited(Set<String> v) {
            awaited = v;
            return this;
        }

        public Builder roots(List<String> v) {
            roots = v;
            return this;
        }

        public Builder uplinks(Set<String> v) {
            uplinks = v;
            return this;
        }

        public Builder bitSpace(BitSpace v) {
            bitSpace = v;
            return this;
        }

        public Builder timing(Timing v) {
            timing = v;
            return this;
        }

        public Builder expected(Expected v) {
            expected = v;
            return this;
        }

        public Builder note(String v) {
            note = v;
            return this;
        }

        public Builder admission(Admission v) {
            admission = v;
            return this;
        }

        public Builder iteration(Iteration v) {
            iteration = v;
            return this;
        }

        public Builder more(List<Tree> v) {
            more = v;
            return this;
        }

        public Phase build() {
            require(job, "job");
            require(mode, "mode");
            require(tables, "tables");
            require(drivers, "drivers");
            require(awaited, "awaited");
            require(bitSpace, "bitSpace");
            require(timing, "timing");
            require(expected, "expected");
            require(note, "note");
            return new Phase(
                    job, mode, wireJob, tables, drivers, awaited, roots, uplinks, bitSpace, timing, expected, note,
                    admission, iteration, more);
        }

        private static void require(Object v, String field) {
            if (v == null) {
                throw new IllegalStateException("a Phase needs its " + field);
            }
        }
    }

    /** Every tree the phase installs: its own first, then the others ({@link #more}). */
    public List<Tree> trees() {
        List<Tree> all = new ArrayList<>(1 + more.size());
        all.add(new Tree(
                job.name(), wireJob, bitSpace, tables, roots == null || roots.isEmpty() ? null : roots.get(0)));
        all.addAll(more);
        return all;
    }

    /** The wire jobs of every tree of the phase (its drivers' packets carry one of them). */
    public Set<Integer> wireJobs() {
        Set<Integer> jobs = new LinkedHashSet<>();
        trees().forEach(t -> jobs.add(t.wireJob()));
        return jobs;
    }

    /** The phase with every tree's tables changed by {@code change} (node, tables) -> tables. */
    public Phase mapTables(BiFunction<String, JobTables, JobTables> change, String moreNote) {
        Map<String, JobTables> own = new LinkedHashMap<>();
        tables.forEach((n, t) -> own.put(n, change.apply(n, t)));
        List<Tree> others = new ArrayList<>();
        for (Tree tree : more) {
            Map<String, JobTables> m = new LinkedHashMap<>();
            tree.tables().forEach((n, t) -> m.put(n, change.apply(n, t)));
            others.add(tree.withTables(m));
        }
        return toBuilder().tables(own).note(note + moreNote).more(others).build();
    }

    /**
     * One iteration of an elastic job (A8).
     *
     * @param tablesRewritten    the switches whose tables for the job changed since the previous iteration
     *                           (A-BM, VAT parent or root), in topology order
     * @param reconfigureMicros  modelled time to rewrite them: the controller, at the VAT root, sends each
     *                           its tables and waits for the acknowledgement (twice the longest path latency)
     */
    public record Iteration(
            int index,
            int of,
            List<String> members,
            List<String> left,
            List<String> joined,
            List<String> silent,
            List<String> tablesRewritten,
            double reconfigureMicros) {}

    /**
     * @param units            results each awaited endpoint waits for: chunks, tokens or windows
     * @param timeoutNanos     the completion (or round) timeout the phase's partial results wait out
     * @param maxStraggleNanos the longest straggler delay a fault plan adds
     * @param deadline         a generous bound; a phase that passes it ends as failed, naming who did not finish.
     *     Given as the plan's bound for its own waits (timeouts, rounds); the stragglers' delays are
     *     added here, one rule for every kind: each unit may be held by the longest straggler in turn
     */
    public record Timing(int units, long timeoutNanos, long maxStraggleNanos, Duration deadline) {
        /** The furthest a deadline reaches: a timer past it would be beyond the scheduler's range. */
        public static final Duration MAX_DEADLINE = Duration.ofDays(1);

        public Timing {
            // a constant bound failed a run whose only fault was a 5 s straggler: the plan's faults decide
            deadline = withStragglers(deadline, units, maxStraggleNanos);
        }

        /** {@code deadline} plus {@code units} times the longest straggle, at most {@link #MAX_DEADLINE}. */
        static Duration withStragglers(Duration deadline, int units, long maxStraggleNanos) {
            long max = MAX_DEADLINE.toNanos();
            long straggle = maxStraggleNanos <= 0
                    ? 0
                    : Math.max(1, units) > max / maxStraggleNanos ? max : Math.max(1, units) * maxStraggleNanos;
            return Duration.ofNanos(Math.min(max, Math.min(max, deadline.toNanos()) + Math.min(max, straggle)));
        }
    }

    /**
     * What the scenario expects: a status; for partial, the endpoints the faults may take away;
     * for failed, how many units (chunks, tokens, windows) an endpoint that did not finish may
     * lack at most: what the fault plan explains, and no more (a failure for another reason,
     * or wrong results, is not the failure the scenario expects).
     */
    public record Expected(Status status, Set<String> missing, int maxShortfall, boolean exact) {
        public Expected(Status status, Set<String> missing, int maxShortfall) {
            this(status, missing, maxShortfall, false);
        }

        public Expected(Status status, Set<String> missing) {
            this(status, missing, Integer.MAX_VALUE);
        }

        /** What the scenario's {@code expect} says: this status, exactly these endpoints missing (null: not checked). */
        public static Expected exactly(Status status, Set<String> missing) {
            return new Expected(status, missing, Integer.MAX_VALUE, true);
        }

        /** Complete when nothing is silent; else {@code otherwise}, naming the silent. */
        public static Expected unless(Set<String> silent, Status otherwise) {
            return new Expected(silent.isEmpty() ? Status.COMPLETE : otherwise, Set.copyOf(silent));
        }
    }

    public int units() {
        return timing.units();
    }

    /** The phase with {@code more} drivers beside its own (a scenario's attackers). */
    public Phase withMoreDrivers(List<DriverSpec> extra) {
        List<DriverSpec> all = new ArrayList<>(drivers);
        all.addAll(extra);
        return toBuilder().drivers(List.copyOf(all)).build();
    }

    /** The phase with admission control's decision (S5). */
    public Phase withAdmission(Admission a) {
        return toBuilder().admission(a).build();
    }

    /** The phase as iteration {@code i} of an elastic job. */
    public Phase withIteration(Iteration i) {
        return toBuilder().iteration(i).build();
    }

    public Phase withExpected(Expected e) {
        return toBuilder().expected(e).build();
    }

    /**
     * The phase after its tree was repaired mid-run: new tables, the cut-off endpoints no longer
     * awaited (unless that leaves none), a new root counted beside the old one (packets into the root, either way), what
     * happened in the note.
     */
    public Phase repaired(Map<String, JobTables> t, Set<String> cutOff, String root, String moreNote) {
        Set<String> still = new LinkedHashSet<>(awaited);
        still.removeAll(cutOff);
        if (still.isEmpty()) {
            // nobody is left joined: the phase cannot end as partial, it ends failed naming who did not finish
            still.addAll(awaited);
        }
        List<String> r = roots == null || roots.contains(root)
                ? roots
                : Stream.concat(roots.stream(), Stream.of(root)).toList();
        return toBuilder()
                .tables(t)
                .awaited(Set.copyOf(still))
                .roots(r)
                .note(note + moreNote)
                .build();
    }

    public Phase withTables(Map<String, JobTables> t, String moreNote) {
        return toBuilder().tables(t).note(note + moreNote).build();
    }
}
