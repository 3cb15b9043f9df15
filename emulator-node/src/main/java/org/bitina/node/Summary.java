package org.bitina.node;

import static org.bitina.node.ConsoleTable.Align.LEFT;
import static org.bitina.node.ConsoleTable.Align.RIGHT;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.bitina.job.Mode;
import org.bitina.run.Report;
import org.bitina.usecase.Phase;
import org.bitina.usecases.UseCases;

/** The console summary: one row per job and mode, INA beside its baselines. */
final class Summary {
    private Summary() {}

    static void print(Report r, PrintStream out) {
        print(r, out, false);
    }

    /** The columns of the table, and how each is aligned. */
    static final List<String> HEADERS = List.of(
            "job",
            "mode",
            "status",
            "expected",
            "verified",
            "wall",
            "modelled",
            "pkts in",
            "max link",
            "total link",
            "timeouts",
            "late",
            "missing");

    static final List<ConsoleTable.Align> ALIGNS =
            List.of(LEFT, LEFT, LEFT, LEFT, LEFT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, LEFT);

    /** One row of the table: human units, the status and the expectation coloured when {@code colour} is on. */
    static List<ConsoleTable.Cell> row(Report.JobReport j) {
        return List.of(
                plain(j.name()),
                plain(j.mode().name()),
                new ConsoleTable.Cell(
                        j.outcome().status().label(),
                        switch (j.outcome().status()) {
                            case COMPLETE -> Summary::green;
                            case PARTIAL -> Summary::yellow;
                            default -> Summary::red;
                        }),
                // the expected column: what the fault plan makes the scenario expect, and whether this is it
                new ConsoleTable.Cell(
                        j.outcome().expected() + (j.outcome().asExpected() ? " ok" : " NO"),
                        j.outcome().asExpected() ? Summary::green : Summary::red),
                new ConsoleTable.Cell(
                        j.outcome().verified() ? "yes" : "NO",
                        j.outcome().verified() ? UnaryOperator.identity() : Summary::red),
                plain(Units.millis(j.timing().wallMillis())),
                plain(Units.micros(j.timing().modeledMicros())),
                plain(Long.toString(j.traffic().packetsIntoRoot())),
                plain(Units.bytes(j.traffic().maxLinkBytes())),
                plain(Units.bytes(j.traffic().totalLinkBytes())),
                plain(Long.toString(j.counts().timeouts())),
                plain(Long.toString(j.counts().lateContributions())),
                plain(
                        j.outcome().missing().isEmpty()
                                ? "-"
                                : Hosts.summary(j.outcome().missing())));
    }

    /** Every host baseline of the kinds, as the legends name them. */
    static String baselineNames() {
        return String.join(", ", UseCases.baselines().stream().map(Mode::name).toList());
    }

    /** What the columns and names mean, printed under the table. */
    static final String LEGEND = "(ina: in-network aggregation; " + baselineNames() + ": the host"
            + " baselines; expected: what the fault plan or expect { } says, ok or NO; wall: the phase on the wall clock;"
            + " modelled: the phase in modelled time; pkts in: packets into the root, source or parameter server (modes"
            + " without one root: the busiest member; the report's maxPacketsIntoHost is the busiest host in every mode);"
            + " link bytes in KiB, MiB, GiB of 1024)";

    /**
     * An INA row against the fastest baseline of its job that completed: {@code ina vs best baseline
     * (tree): 1.42x faster}; when INA is slower, its tree (the phase's note: VAT root, A-BMs, VAT
     * edges that cross several links), where the reason usually is.
     */
    static void comparison(Report r, Report.JobReport j, PrintStream out) {
        if (j.speedup() == null || j.speedup().isEmpty()) {
            return;
        }
        Map.Entry<Mode, Double> best = j.speedup().entrySet().stream()
                .min(Map.Entry.comparingByValue())
                .orElseThrow();
        double x = best.getValue();
        String label = j.name()
                + (j.plan().iteration() == null
                        ? ""
                        : " iteration " + j.plan().iteration().index())
                + (j.shared() == null ? "" : j.shared().alone() ? " (alone)" : " (shared)");
        // the answer sentence's three significant digits: 16.3x in both, not 16.3x above and 16.30x here
        out.println(label + ": ina vs best baseline (" + best.getKey() + "): " + Answer.ratio(x));
        Report.JobReport base = r.jobs().stream()
                .filter(b -> b.name().equals(j.name())
                        && b.mode().equals(best.getKey())
                        && java.util.Objects.equals(
                                b.plan().iteration(), j.plan().iteration())
                        && (b.shared() == null) == (j.shared() == null)
                        && (b.shared() == null
                                || b.shared().alone() == j.shared().alone()))
                .findFirst()
                .orElse(null);
        decidedByRecovery(j, base).ifPresent(out::println);
        if (x < 1 && j.outcome().note() != null && !j.outcome().note().isEmpty()) {
            out.println("    ina's tree: " + j.outcome().note());
        }
    }

    /** The rule a row recovered by: "; first timeout 302 µs, doubling, at most 10 sends" (nothing when unknown). */
    static String policy(Report.Recovery rec) {
        return rec.rtoMicros() <= 0
                ? ""
                : "; first timeout " + Units.micros(rec.rtoMicros()) + ", doubling, at most " + rec.maxSends()
                        + " sends";
    }

    /**
     * Under loss a comparison can be decided by recovery rather than by the protocols: said under the
     * comparison, for INA and the baseline it was compared with, when either sent anything again.
     */
    static Optional<String> decidedByRecovery(Report.JobReport ina, Report.JobReport base) {
        if (base == null || ina.recovery() == null || base.recovery() == null) {
            return Optional.empty();
        }
        Report.Recovery a = ina.recovery();
        Report.Recovery b = base.recovery();
        if (a.retransmissions() == 0 && b.retransmissions() == 0) {
            return Optional.empty();
        }
        return Optional.of("    under loss: " + waited(base, b) + "; " + waited(ina, a));
    }

    private static String waited(Report.JobReport j, Report.Recovery rec) {
        if (rec.retransmissions() == 0) {
            return j.mode() + " sent nothing again";
        }
        return j.mode() + " waited out " + rec.retransmissions() + " timeouts"
                + (rec.rtoMicros() > 0 ? " of " + Units.micros(rec.rtoMicros()) + " or more" : "") + ", "
                + Units.micros(rec.recoveryMicros()) + " of its "
                + Units.micros(j.timing().modeledMicros())
                + " lost to recovery";
    }

    private static ConsoleTable.Cell plain(String s) {
        return ConsoleTable.Cell.plain(s);
    }

    private static String green(String s) {
        return picocli.CommandLine.Help.Ansi.ON.string("@|green " + s + "|@");
    }

    private static String yellow(String s) {
        return picocli.CommandLine.Help.Ansi.ON.string("@|yellow " + s + "|@");
    }

    private static String red(String s) {
        return picocli.CommandLine.Help.Ansi.ON.string("@|bold,red " + s + "|@");
    }

    /** The summary; {@code colour}: ANSI colours on the status columns (only for a terminal). */
    static void print(Report r, PrintStream out, boolean colour) {
        print(r, out, colour, false);
    }

    /**
     * The summary: the answer (one sentence per job) first, then the table; {@code quiet}: only
     * those and the verdict, without the clock line, the legend, the comparisons and tolerances.
     */
    static void print(Report r, PrintStream out, boolean colour, boolean quiet) {
        print(r, out, colour, quiet, false);
    }

    /**
     * As above; a workload's run (its iterations) keeps to its answer, per world and iteration,
     * unless {@code verbose}: its collectives' job rows, their shared table and their kinds' figures
     * (a hundred lines and more) are in the report, the CSV and the page, and on the console with
     * {@code --verbose}.
     */
    static void print(Report r, PrintStream out, boolean colour, boolean quiet, boolean verbose) {
        boolean rows = verbose || r.iterations() == null || r.iterations().isEmpty();
        Answer.sentences(r).forEach(out::println);
        if (quiet) {
            if (rows) {
                table(r, out, colour);
                SharedSummary.print(r, out, colour);
            } else {
                out.println(rowsElsewhere(r));
            }
            TrafficSummary.print(r, out, colour);
            WorkloadSummary.print(r, out);
            Drops.summary(r).ifPresent(out::println);
            verdict(r, out, colour);
            return;
        }
        out.println("clock: " + r.clock()
                + ("real".equals(r.clock())
                        ? " (timers and stragglers on the wall clock: figures vary from run to run)"
                        : " (timers, stragglers and faults in modelled time: the same file gives the same figures)"));
        if (rows) {
            table(r, out, colour);
            SharedSummary.print(r, out, colour);
        } else {
            out.println(rowsElsewhere(r));
        }
        TrafficSummary.print(r, out, colour);
        WorkloadSummary.print(r, out);
        rest(r, out, rows);
        Drops.summary(r).ifPresent(out::println);
        verdict(r, out, colour);
    }

    private static void verdict(Report r, PrintStream out, boolean colour) {
        String verdict = r.allAsExpected()
                ? "every job ended as the scenario expects"
                : "SOME JOBS DID NOT END AS THE SCENARIO EXPECTS";
        out.println(colour ? (r.allAsExpected() ? green(verdict) : red(verdict)) : verdict);
        notApplied(r).ifPresent(out::println);
    }

    /**
     * Faults planned for later than the phases they target lasted (each phase's clock starts at
     * zero): they never happened, which the verdict does not count against the run (its jobs ran
     * and verified without them, exit 0) but says, with when each phase ended in modelled time.
     */
    static Optional<String> notApplied(Report r) {
        Map<String, List<String>> ended = new LinkedHashMap<>();
        for (Report.JobReport j : r.jobs()) {
            for (String f : j.problems().faultsNotApplied()) {
                ended.computeIfAbsent(f, k -> new ArrayList<>())
                        .add(j.name() + " " + j.mode().name() + " at "
                                + Units.micros(j.timing().modeledMicros()));
            }
        }
        if (ended.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        ended.forEach((f, phases) -> parts.add(f + " (the phases ended first: " + String.join(", ", phases) + ")"));
        return Optional.of(
                "faults not applied, planned after the phases ended (modelled time): " + String.join("; ", parts));
    }

    /** The table, with what needs saying about a row under it. */
    private static void table(Report r, PrintStream out, boolean colour) {
        // one table for every row, so the notes printed under a row leave the columns aligned
        // a shared run's rows say which are the mix and which the jobs alone (the reference of a slowdown)
        boolean shared = SharedAnswer.applies(r);
        List<String> headers = new ArrayList<>(HEADERS);
        List<ConsoleTable.Align> aligns = new ArrayList<>(ALIGNS);
        if (shared) {
            headers.add(2, "run");
            aligns.add(2, LEFT);
        }
        ConsoleTable table = new ConsoleTable(headers, aligns);
        r.jobs().forEach(j -> {
            List<ConsoleTable.Cell> cells = new ArrayList<>(row(j));
            if (shared) {
                cells.add(2, plain(j.shared() == null ? "-" : j.shared().alone() ? "alone" : "mix"));
            }
            table.add(cells);
        });
        List<String> lines = table.lines(colour);
        out.println(lines.get(0));
        for (int i = 0; i < r.jobs().size(); i++) {
            Report.JobReport j = r.jobs().get(i);
            out.println(lines.get(i + 1));
            if ("real".equals(r.clock()) && j.counts().timeouts() > 0) {
                // the number jumped because a wall-clock timer fired; say so where it is read
                out.println("    timers fired on the wall clock: modelled time includes "
                        + j.counts().timeouts() + " timeouts");
            }
            if (j.plan().iteration() != null) {
                Phase.Iteration it = j.plan().iteration();
                out.println("    iteration " + it.index() + "/" + it.of() + ": "
                        + it.members().size() + " members"
                        + (it.left().isEmpty() ? "" : ", left " + String.join(",", it.left()))
                        + (it.joined().isEmpty() ? "" : ", joined " + String.join(",", it.joined()))
                        + (it.silent().isEmpty() ? "" : ", failing during it " + String.join(",", it.silent()))
                        + (it.index() == 1
                                ? ""
                                : "; " + it.tablesRewritten().size() + " switches' tables rewritten in "
                                        + Units.micros(it.reconfigureMicros()) + " (modelled)"));
            }
            if (j.plan().admission() != null && !j.plan().admission().admitted()) {
                // the job asked for INA and ran a host baseline: never leave that to a reader of the mode column
                out.println("    INA not admitted: " + j.plan().admission().reason() + "; this " + j.mode()
                        + " phase ran in its place");
            }
            if (j.pool() != null) {
                // T2: the switches' pools say it better than the reservation line
                out.println("    " + PoolLine.of(j));
            } else if (j.plan().admission() != null && j.plan().admission().refused() > 0) {
                out.println("    " + j.plan().admission().refused()
                        + " aggregations passed on unaggregated: the job held the "
                        + j.plan().admission().entries() + " entries it reserved per switch");
            }
            for (String m : j.problems().mismatches().stream().limit(3).toList()) {
                out.println("    mismatch: " + m);
            }
            Report.Recovery rec = j.recovery();
            if (rec != null) {
                for (String g : rec.gaveUp().stream().limit(3).toList()) {
                    out.println("    gave up: " + g);
                }
                if (rec.gaveUp().size() > 3) {
                    out.println("    gave up: ... " + rec.gaveUp().size() + " in all (the report's gaveUp)");
                }
                if (rec.retransmissions() > 0 || rec.resultResends() > 0) {
                    out.println("    recovery: " + rec.retransmissions() + " retransmissions, " + rec.resultResends()
                            + " results resent, " + Units.micros(rec.recoveryMicros()) + " lost to it (modelled)"
                            + policy(rec));
                }
            }
            for (String u : j.problems().unfinished().stream().limit(5).toList()) {
                out.println("    unfinished: " + u);
            }
            // why a phase ended early or did not run (a stall, a lost member)
            if (j.outcome().ended() != null
                    && j.outcome().ended().ran()
                    && j.outcome().ended().why() != null) {
                out.println("    ended: " + j.outcome().ended().why());
            }
        }
    }

    /** In place of a workload's job table: how many rows there are, whether all ended as expected, where they are. */
    private static String rowsElsewhere(Report r) {
        long notAsExpected =
                r.jobs().stream().filter(j -> !j.outcome().asExpected()).count();
        return r.jobs().size() + " job rows (each collective of each iteration, per world), "
                + (notAsExpected == 0 ? "every one as expected" : notAsExpected + " NOT as expected")
                + ": --verbose prints them; --report, --csv and --html hold every figure";
    }

    /** Under the table: the legend, comparisons, per-kind figures (with {@code rows}) and tolerances. */
    private static void rest(Report r, PrintStream out, boolean rows) {
        out.println(
                SharedAnswer.applies(r)
                        ? LEGEND.replace(
                                "; pkts in:", "; run: in a shared run, the world's mix or the job alone; pkts in:")
                        : LEGEND);
        long partial = r.jobs().stream()
                .mapToLong(j -> j.problems().partialChunks().size())
                .sum();
        if (partial > 0) {
            out.println("partial results: " + partial + " (endpoint, chunk) pairs; see the report's partialChunks");
        }
        // a workload's collectives are compared per type and as an iteration (WorkloadSummary), not one by one
        boolean workload = r.iterations() != null && !r.iterations().isEmpty();
        for (Report.JobReport j : r.jobs()) {
            if (!workload) {
                comparison(r, j, out);
            }
        }
        for (Report.JobReport j : r.jobs()) {
            if (!j.problems().dropped().isEmpty()) {
                out.println(j.name() + " " + j.mode() + ": "
                        + j.problems().dropped().size()
                        // what each kind drops differs (tokens over an expert's capacity, a peer given up on): the
                        // first says
                        + " dropped by policy, e.g. "
                        + j.problems().dropped().get(0));
            }
            if (!j.problems().deviceFailures().isEmpty()) {
                // the emulator's own fault, not the scenario's: the row is not as expected
                out.println(j.name() + " " + j.mode() + ": "
                        + j.problems().deviceFailures().size()
                        + " messages a device could not handle (a fault of the emulator), e.g. "
                        + j.problems().deviceFailures().get(0));
            }
            if (j.kindReport() != null && rows) {
                // the kind's own figures (its report part), headline first: MoE's source uplink, multicast's ACKs
                out.println(j.name() + " " + j.mode() + ": " + KindFigures.line(j.kindReport()));
            }
        }
        r.tolerances().forEach(t -> out.println("tolerance: " + t));
    }
}
