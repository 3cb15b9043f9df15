package org.bitina.node;

import static org.bitina.node.ConsoleTable.Align.LEFT;
import static org.bitina.node.ConsoleTable.Align.RIGHT;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.bitina.run.Report;
import org.bitina.run.SharedRun;

/**
 * The console's table of a shared run (schedule = shared, T1): one row per job and world, the
 * job in the mix, with its start, JCT, its JCT alone and its slowdown. Nothing for a sequential run.
 */
final class SharedSummary {
    private SharedSummary() {}

    private static final List<String> HEADERS =
            List.of("world", "job", "mode", "start", "end", "JCT", "alone", "slowdown", "verified");
    private static final List<ConsoleTable.Align> ALIGNS =
            List.of(LEFT, LEFT, LEFT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, LEFT);

    static void print(Report r, PrintStream out, boolean colour) {
        List<Report.JobReport> mixed = r.jobs().stream()
                .filter(j -> j.shared() != null && !j.shared().alone())
                .toList();
        if (mixed.isEmpty()) {
            return;
        }
        out.println("shared fabric: each job in its world's mix, against the same job alone (modelled time)");
        ConsoleTable table = new ConsoleTable(HEADERS, ALIGNS);
        for (Report.JobReport j : mixed) {
            SharedRun s = j.shared();
            table.add(List.of(
                    cell(s.world().configName()),
                    cell(j.name()),
                    cell(j.mode().name()),
                    cell(s.startMicros() < 0 ? "never" : Units.micros(s.startMicros())),
                    cell(Units.micros(s.endMicros())),
                    cell(Units.micros(s.jctMicros())),
                    cell(s.aloneMicros() == null ? "-" : Units.micros(s.aloneMicros())),
                    cell(s.slowdown() == null ? "-" : String.format(Locale.ROOT, "%.2fx", s.slowdown())),
                    cell(j.outcome().verified() ? "yes" : "NO")));
        }
        table.lines(colour).forEach(out::println);
        out.println("(slowdown: JCT in the mix over JCT alone in the same world; JCT: end minus start;"
                + " '-': no alone run, or one of the two did not complete verified)");
    }

    private static ConsoleTable.Cell cell(String s) {
        return ConsoleTable.Cell.plain(s);
    }
}
