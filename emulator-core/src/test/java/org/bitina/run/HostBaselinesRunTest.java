package org.bitina.run;

import static org.bitina.run.Scenarios.mode;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.bitina.job.Status;
import org.bitina.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host AllReduce baselines (L2) on the emulated network: each verified against the reference
 * on the seed's Fig. 1 and on a fat tree with an odd member set spread unevenly over racks; each
 * completes verified under 1 % and 5 % loss on k=4; 20 % duplication costs the ring nothing but
 * the duplicates, dropped and counted.
 */
class HostBaselinesRunTest {
    private static final List<String> SCHEDULES = List.of("ring", "tree", "halving-doubling", "hierarchical");
    private static final String ALL = "baselines = [ring, tree, halving-doubling, hierarchical, ps]";

    @TempDir
    Path dir;

    private static void assertCompleteAndVerified(Report r, String mode, String what) {
        Report.JobReport j = mode(r, mode);
        assertEquals(
                Status.COMPLETE,
                j.outcome().status(),
                what + " " + mode + ": " + j.problems().mismatches()
                        + j.problems().unfinished() + j.outcome().note());
        assertTrue(j.outcome().verified(), what + " " + mode);
        assertTrue(j.outcome().asExpected(), what + " " + mode);
    }

    /** The k=4 file with {@code members}, every baseline, and {@code faults} in place of its fault plan. */
    private Report k4(String members, String faults, String file) throws IOException, ScenarioException {
        UnaryOperator<String> edit = t -> t.replace("members = all", "members = " + members)
                        .replace("baselines = [ring, ps]", ALL)
                        .replaceAll("(?s)faults = \\[.*\\]", "")
                + "\nfaults = " + faults + "\n";
        Path sub = dir.resolve(file);
        sub.toFile().mkdirs();
        return run(reference(sub, "fat-tree-k4-allreduce.conf", edit));
    }

    @Test
    void everyBaselineEndsWithTheReferenceSumOnFig1AndOnAnUnevenFatTreeMemberSet()
            throws IOException, ScenarioException {
        Report fig1 = run(reference(
                dir,
                "paper-fig1-allreduce.conf",
                t -> t.replace("baselines = [ring, ps]", ALL)
                        .replace("completion-timeout = 50ms", "completion-timeout = 5s")));
        for (String m : SCHEDULES) {
            assertCompleteAndVerified(fig1, m, "fig1");
        }
        // seven members (not a power of two) over five racks of one or two
        Report ft = k4("[h1, h2, h5, h7, h8, h11, h16]", "[]", "seven");
        for (String m : SCHEDULES) {
            assertCompleteAndVerified(ft, m, "k=4, 7 members");
            assertEquals(0L, mode(ft, m).recovery().retransmissions(), m + ": no timer fires without a loss");
        }
        assertTrue(
                mode(ft, "hierarchical").outcome().note().contains("5 racks"),
                mode(ft, "hierarchical").outcome().note());
    }

    @Test
    void everyBaselineCompletesVerifiedAtOneAndFivePercentLossOnK4() throws IOException, ScenarioException {
        for (String rate : List.of("1%", "5%")) {
            Report r = k4("all", "[{ at = 0us, kind = loss, rate = " + rate + " }]", "loss" + rate.charAt(0));
            for (String m : SCHEDULES) {
                assertCompleteAndVerified(r, m, "loss " + rate);
                assertTrue(mode(r, m).recovery().retransmissions() > 0, m + " at " + rate + " sent again");
            }
        }
    }

    @Test
    void theRingAtTwentyPercentDuplicationSendsWhatItSendsWithoutAndDropsTheDuplicates()
            throws IOException, ScenarioException {
        Report clean = k4("all", "[]", "clean");
        Report dup = k4("all", "[{ at = 0us, kind = duplicate, rate = 20% }]", "dup");
        for (String m : SCHEDULES) {
            Report.JobReport a = mode(clean, m);
            Report.JobReport b = mode(dup, m);
            assertCompleteAndVerified(dup, m, "duplication");
            assertEquals(a.stats().get("dataSends"), b.stats().get("dataSends"), m + ": the same data packets");
            assertEquals(a.stats().get("acks"), b.stats().get("acks"), m + ": the same acknowledgements");
            assertEquals(0L, b.recovery().retransmissions(), m);
            assertEquals(0L, a.stats().get("duplicatesDropped"), m);
            assertTrue(b.stats().get("duplicatesDropped") > 0, m + ": duplicates dropped and counted");
            // every frame more than the clean run carried is a duplicate the network made
            assertTrue(b.traffic().packets() > a.traffic().packets(), m);
        }
    }
}
