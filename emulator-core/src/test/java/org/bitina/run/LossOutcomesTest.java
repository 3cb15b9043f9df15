package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Item 2 of L1 ("outcomes under loss"): with 1 % and 5 % loss on every link and no other fault,
 * every mode of every kind ends complete and verified on a k=4 fat-tree, within its phase deadline.
 * The shipped files are used with their fault plans replaced by loss alone (as {@code --set
 * 'faults=[{at=0us,kind=loss,rate=5%}]'} does), the k=8 ones at k=4, and their data made small so
 * that the suite stays fast: recovery does not depend on the size, only on how many packets can be lost.
 */
class LossOutcomesTest {
    @TempDir
    Path dir;

    /** The file with its faults replaced by loss at {@code rate}, and {@code edit} applied. */
    private Scenario lossy(String file, String rate, UnaryOperator<String> edit) throws Exception {
        return Scenarios.reference(
                dir,
                file,
                t -> edit.apply(t.replaceAll("(?s)\nfaults = \\[.*?\n\\]", ""))
                        + "\nfaults = [{ at = 0us, kind = loss, rate = " + rate + " }]\n");
    }

    /** A k=8 file at k=4, its arrays at most {@code elements} long. */
    private static UnaryOperator<String> k4(int elements) {
        return t -> t.replace("kind = fat-tree, k = 8", "kind = fat-tree, k = 4")
                .replaceAll("elements = \\d+", "elements = " + elements);
    }

    /** Every job and mode of the run: complete, verified, nothing given up; the lines that are not. */
    private static List<String> notComplete(Report r) {
        List<String> bad = new ArrayList<>();
        for (Report.JobReport j : r.jobs()) {
            if (!j.outcome().status().equals(Status.COMPLETE)
                    || !j.outcome().verified()
                    || !j.recovery().gaveUp().isEmpty()) {
                bad.add(j.name() + "/" + j.mode() + ": " + j.outcome().status() + ", verified "
                        + j.outcome().verified() + ", missing "
                        + j.outcome().missing() + ", gave up " + j.recovery().gaveUp() + ", "
                        + j.problems().mismatches() + " "
                        + j.problems().unfinished() + " " + j.outcome().note());
            }
        }
        return bad;
    }

    private static void assertAllComplete(Report r) {
        assertFalse(r.jobs().isEmpty());
        assertEquals(List.of(), notComplete(r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void allReduceInaRingAndParameterServerComplete(String rate) throws Exception {
        Report r = Scenarios.run(lossy("fat-tree-k4-allreduce.conf", rate, t -> t));
        assertAllComplete(r);
        Report.JobReport ps = Scenarios.mode(r, "ps");
        assertTrue(ps.recovery().retransmissions() > 0, "the parameter server's workers sent again: " + ps.recovery());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void everyHostBaselineCompletes(String rate) throws Exception {
        assertAllComplete(Scenarios.run(lossy("fat-tree-k4-allreduce-baselines.conf", rate, k4(4096))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void bierIncAndItsVatNeighbourComplete(String rate) throws Exception {
        assertAllComplete(Scenarios.run(lossy("fat-tree-k4-bier-inc.conf", rate, k4(4096))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void parallelTreesOverPartitionsComplete(String rate) throws Exception {
        assertAllComplete(Scenarios.run(lossy("fat-tree-k8-partitions.conf", rate, k4(8000))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void translatedEncodingsCompleteForEveryKind(String rate) throws Exception {
        assertAllComplete(Scenarios.run(lossy(
                "fat-tree-k8-encodings.conf", rate, t -> k4(8000).apply(t).replace("bytes = 1MiB", "bytes = 64KiB"))));
    }

    /**
     * An iteration in which a member fails ends as its plan expects (partial, that member missing);
     * loss adds nobody else to what is missing: a worker that holds a partial result missing the
     * failed member and one whose share was lost asks for the better result (the root folds the lost
     * share in) when the multicast of it does not reach it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void elasticIterationsEndAsTheirMembershipSays(String rate) throws Exception {
        for (String file : List.of("elastic-allreduce.conf", "elastic-bier-inc.conf")) {
            Report base = Scenarios.run(Scenarios.reference(dir, file, t -> t));
            Report r = Scenarios.run(lossy(file, rate, t -> t));
            assertEquals(base.jobs().size(), r.jobs().size());
            for (int i = 0; i < r.jobs().size(); i++) {
                Report.JobReport j = r.jobs().get(i);
                Report.JobReport lossless = base.jobs().get(i);
                String what = file + " " + j.name() + "/" + j.mode() + " row " + i + ": "
                        + j.outcome().missing() + " " + j.outcome().note();
                assertEquals(lossless.outcome().status(), j.outcome().status(), what);
                assertEquals(lossless.outcome().verified(), j.outcome().verified(), what);
                assertEquals(lossless.outcome().missing(), j.outcome().missing(), what);
                // and nobody is short of more chunks than without loss: the failed member's, nothing lost besides
                assertEquals(lossless.problems().unfinished(), j.problems().unfinished(), what);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void maskedAndChecksummedSumsComplete(String rate) throws Exception {
        // S6: masks cancel only when every member's share is in the sum, so a lost share must be recovered, not skipped
        assertAllComplete(Scenarios.run(lossy(
                "fat-tree-k4-allreduce.conf",
                rate,
                t -> t.replace("type = float32", "type = int32")
                        .replace(
                                "completion-timeout = 50ms",
                                "completion-timeout = 50ms\n  security { masking = on, checksum = on }"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void moeAndAllToAllComplete(String rate) throws Exception {
        Report r = Scenarios.run(Scenarios.write(dir, "moe-k4.conf", Scenarios.fatTree(4, """
                        jobs = [{
                          name = moe4, kind = moe, tenant = 1
                          sources = [h1, h5, h9, h13]
                          experts = [{ prefix = e, hosts = ["h3..h4", "h7..h8", "h11..h12", "h15..h16"] }]
                          moe { top-k = 2, hidden = 64, tokens-per-source = 64, capacity-factor = 2.0, seed = 12, granularity = group }
                          completion-timeout = 500ms
                          baselines = [all-to-all]
                        }]
                        faults = [{ at = 0us, kind = loss, rate = %s }]
                        """.formatted(rate))));
        assertAllComplete(r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1%", "5%"})
    void reliableMulticastCompletes(String rate) throws Exception {
        assertAllComplete(Scenarios.run(lossy("shrinking-miss-set.conf", rate, t -> t)));
    }
}
