package org.bitina.node;

import java.io.PrintStream;
import org.bitina.run.Report;

/** The console summary: one row per job and mode, INA beside its baselines. */
final class Summary {
    private Summary() {
    }

    static void print(Report r, PrintStream out) {
        out.println("clock: " + r.clock() + ("real".equals(r.clock())
                ? " (timers and stragglers on the wall clock: figures vary from run to run)"
                : " (timers, stragglers and faults in modelled time: the same file gives the same figures)"));
        out.printf("%-14s %-11s %-9s %-12s %-8s %10s %12s %14s %14s %14s %9s %8s  %s%n", "job", "mode", "status", "expected",
                "verified", "wall ms", "modelled us", "pkts to root", "max link B", "total link B", "timeouts", "late", "missing");
        for (Report.JobReport j : r.jobs()) {
            // the expected column: what the fault plan makes the scenario expect, and whether this is it
            out.printf("%-14s %-11s %-9s %-12s %-8s %10d %12.1f %14d %14d %14d %9d %8d  %s%n", j.name(), j.mode(), j.status(),
                    j.expected() + (j.asExpected() ? " ok" : " NO"), j.verified() ? "yes" : "NO", j.wallMillis(), j.modeledMicros(),
                    j.packetsIntoRoot(), j.maxLinkBytes(), j.totalLinkBytes(), j.timeouts(), j.lateContributions(),
                    j.missing().isEmpty() ? "-" : String.join(",", j.missing()));
            if ("real".equals(r.clock()) && j.timeouts() > 0) {
                // the number jumped because a wall-clock timer fired; say so where it is read
                out.println("    timers fired on the wall clock: modelled time includes " + j.timeouts() + " timeouts");
            }
            if (j.iteration() != null) {
                org.bitina.usecase.Phase.Iteration it = j.iteration();
                out.println("    iteration " + it.index() + "/" + it.of() + ": " + it.members().size() + " members"
                        + (it.left().isEmpty() ? "" : ", left " + String.join(",", it.left()))
                        + (it.joined().isEmpty() ? "" : ", joined " + String.join(",", it.joined()))
                        + (it.silent().isEmpty() ? "" : ", failing during it " + String.join(",", it.silent()))
                        + (it.index() == 1 ? "" : "; " + it.tablesRewritten().size() + " switches' tables rewritten in "
                        + String.format("%.1f", it.reconfigureMicros()) + " us (modelled)"));
            }
            if (j.admission() != null && !j.admission().admitted()) {
                // the job asked for INA and ran a host baseline: never leave that to a reader of the mode column
                out.println("    INA not admitted: " + j.admission().reason() + "; this " + j.mode() + " phase ran in its place");
            }
            if (j.admission() != null && j.admission().refused() > 0) {
                out.println("    " + j.admission().refused() + " aggregations passed on unaggregated: the job held the "
                        + j.admission().entries() + " entries it reserved per switch");
            }
            for (String m : j.mismatches().stream().limit(3).toList()) {
                out.println("    mismatch: " + m);
            }
            for (String u : j.unfinished().stream().limit(5).toList()) {
                out.println("    unfinished: " + u);
            }
            // why a phase ended early or did not run (a stall, a lost member)
            if (j.note() != null && j.note().startsWith("not run: ")) {
                continue;
            }
            int stalled = j.note() == null ? -1 : j.note().indexOf("stalled: ");
            if (stalled >= 0) {
                out.println("    ended: " + j.note().substring(stalled + "stalled: ".length()));
            }
        }
        out.println("(ina: in-network aggregation; ring, ps, all-to-all, unicast-ack: the host baselines; expected: what the fault plan"
                + " or expect { } says, ok or NO; modelled us: the phase in modelled time; B: bytes)");
        long partial = r.jobs().stream().mapToLong(j -> j.partialChunks().size()).sum();
        if (partial > 0) {
            out.println("partial results: " + partial + " (endpoint, chunk) pairs; see the report's partialChunks");
        }
        for (Report.JobReport j : r.jobs()) {
            if (!j.dropped().isEmpty()) {
                out.println(j.name() + " " + j.mode() + ": " + j.dropped().size() + " dropped (tokens over expert capacity, or messages a"
                        + " device could not handle), e.g. " + j.dropped().get(0));
            }
            if (j.kind().equals("reliable-multicast")) {
                long windows = Math.max(1, j.stats().getOrDefault("windows", 1L));
                long rounds = Math.max(1, j.stats().getOrDefault("rounds", 1L));
                out.printf("%s %s: %d windows, %d rounds (up to %d retransmission rounds a window), %d ACK packets into the source"
                                + " (%.2f per window, %.2f per round), %d duplicates suppressed at receivers%n", j.name(), j.mode(), windows,
                        rounds, j.retransmissionRounds(), j.stats().getOrDefault("ackPacketsIntoSource", 0L),
                        j.stats().getOrDefault("ackPacketsIntoSource", 0L) / (double) windows,
                        j.stats().getOrDefault("ackPacketsIntoSource", 0L) / (double) rounds,
                        j.stats().getOrDefault("duplicatesSuppressed", 0L));
            }
            if (j.sourceUplinkBytes() > 0) {
                out.println(j.name() + " " + j.mode() + ": source uplink bytes " + j.sourceUplinkBytes());
            }
        }
        r.tolerances().forEach(t -> out.println("tolerance: " + t));
        out.println(r.allAsExpected() ? "every job ended as the scenario expects" : "SOME JOBS DID NOT END AS THE SCENARIO EXPECTS");
    }
}
