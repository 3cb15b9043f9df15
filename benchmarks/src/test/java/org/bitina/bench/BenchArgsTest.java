package org.bitina.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The benchmarks' command lines refuse what they do not know, and report spread beside medians. */
class BenchArgsTest {
    @Test
    void aMisspelledOptionIsRefusedNotPassedOver() {
        assertThrows(
                CommandLine.UnmatchedArgumentException.class,
                () -> new CommandLine(new ScenarioBench.Options()).parseArgs("f.conf", "--repaet", "2"));
        assertThrows(
                CommandLine.UnmatchedArgumentException.class,
                () -> new CommandLine(new ChaosBench.Options()).parseArgs("--sedes", "5"));
        assertThrows(
                CommandLine.UnmatchedArgumentException.class,
                () -> new CommandLine(new RemoteBench.Options()).parseArgs("--round", "5"));
        assertThrows(
                CommandLine.UnmatchedArgumentException.class,
                () -> new CommandLine(new DeterminismBench.Options()).parseArgs("--run", "3", "a.conf"));
        assertThrows(
                CommandLine.ParameterException.class,
                () -> new CommandLine(new ScenarioBench.Options()).parseArgs("f.conf", "--repeat", "two"));
    }

    @Test
    void theOptionsAreRead() {
        ScenarioBench.Options o = new ScenarioBench.Options();
        new CommandLine(o).parseArgs("f.conf", "--repeat", "5", "--clock", "both", "--members", "3");
        assertEquals(Path.of("f.conf"), o.file);
        assertEquals(5, o.repeat);
        assertEquals("both", o.clocks);
        assertEquals(List.of(3), o.members);
        ScenarioBench.Options counts = new ScenarioBench.Options();
        new CommandLine(counts).parseArgs("f.conf", "--members", "1,3");
        assertEquals(List.of(1, 3), counts.members, "several member counts, alternated run by run");
    }

    @Test
    void remoteSendsTheMessagesAskedForWhenTheyAreWholeAcks() {
        assertEquals(2000, RemoteBench.roundedMessages(2000), "--messages 2000 once sent 8000");
        assertEquals(2000, RemoteBench.roundedMessages(1));
        assertEquals(4000, RemoteBench.roundedMessages(2001));
    }

    @Test
    void aSpreadIsTheMedianWithTheMinimumAndMaximum() {
        Spread s = Spread.of(new double[] {5, 1, 3, 9});
        assertEquals(4, s.median());
        assertEquals(1, s.min());
        assertEquals(9, s.max());
        assertEquals("4 [1..9]", s.format("%.0f"));
    }
}
