package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * The host baselines' schedules, run without actors on {@link ScheduleNet}: every member ends
 * with every chunk verified against the reference, for every member count; each member sends
 * what a closed form of its algorithm says it should, counted independently of the schedule;
 * duplicates change nothing but the count dropped; losses are recovered.
 */
class HostSchedulesTest {
    private static final int[] SIZES = {1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 16};
    /** Racks of three for the hierarchical schedule: member i's leader is 3 floor(i / 3). */
    private static final int RACK = 3;

    private static AllReducePlan plan(Mode mode, int n, int chunks, int window) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            members.add("h" + (i + 1));
        }
        // bits not in member order: the schedules speak member indices, the packets bits
        List<String> bits = new ArrayList<>(members);
        Collections.reverse(bits);
        Map<String, String> uplink = new LinkedHashMap<>();
        if (mode.equals(HostBaselines.HIERARCHICAL)) {
            for (int i = 0; i < n; i++) {
                uplink.put(members.get(i), members.get(i / RACK * RACK));
            }
        }
        DataSpec data = new DataSpec(chunks * 8, ElementType.FLOAT32, ReductionOp.SUM, 8, window, 17, 1 << 16);
        return AllReducePlan.builder()
                .jobName("j")
                .mode(mode)
                .tenant(1)
                .wireJob(7)
                .space(new BitSpace(bits))
                .members(members)
                .data(data)
                .uplink(uplink)
                .timeoutNanos(1_000_000)
                .seed(5)
                .build();
    }

    private static void assertVerified(ScheduleNet net, String what) {
        for (ScheduleWorker w : net.workers.values()) {
            DriverReport r = w.report();
            assertTrue(w.done(), what + " " + r.endpoint());
            assertEquals(List.of(), r.mismatches(), what + " " + r.endpoint());
            assertEquals(r.chunks(), r.verifiedChunks(), what + " " + r.endpoint());
        }
    }

    @Test
    void everyBaselineEndsWithTheReferenceSumAtEveryMemberForEveryMemberCount() {
        for (Mode mode : HostBaselines.MODES) {
            for (int n : SIZES) {
                for (int window : new int[] {1, 4, 64}) {
                    ScheduleNet net = new ScheduleNet(plan(mode, n, 2 * n + 3, window), 0, 0, n).run(Long.MAX_VALUE);
                    assertVerified(net, mode + " n=" + n + " window=" + window);
                    assertEquals(0, net.stat("retransmissions"), mode + " n=" + n + ": no timer fires without loss");
                }
            }
        }
    }

    /** Sends per member, counted from each algorithm's definition (not from its schedule). */
    private static long closedForm(String mode, int n, int m, int chunks) {
        switch (mode) {
            case "ring" -> {
                return ringSends(m, n, chunks);
            }
            case "halving-doubling" -> {
                int p = Integer.highestOneBit(n);
                int r = n - p;
                if (m < 2 * r && m % 2 == 0) {
                    return chunks; // its whole array to its odd neighbour
                }
                // halving: C - C/P over the steps (C a multiple of P), doubling the same; the even neighbour's sum
                long hd = 2L * (chunks - chunks / p);
                return hd + (m < 2 * r ? chunks : 0);
            }
            case "hierarchical" -> {
                int leaders = (n + RACK - 1) / RACK;
                if (m % RACK != 0) {
                    return chunks;
                }
                int rack = Math.min(RACK, n - m);
                return (long) (rack - 1) * chunks + ringSends(m / RACK, leaders, chunks);
            }
            default -> throw new IllegalArgumentException(mode);
        }
    }

    /** The ring: a chunk's reduce-scatter send unless it owns it, its all-gather send unless its successor does. */
    private static long ringSends(int m, int n, int chunks) {
        if (n == 1) {
            return 0;
        }
        long owned = 0;
        long successorOwns = 0;
        for (int c = 0; c < chunks; c++) {
            owned += c % n == m ? 1 : 0;
            successorOwns += c % n == (m + 1) % n ? 1 : 0;
        }
        return 2L * chunks - owned - successorOwns;
    }

    @Test
    void eachMemberSendsWhatItsAlgorithmsClosedFormSays() {
        for (Mode mode : List.of(HostBaselines.RING, HostBaselines.HALVING_DOUBLING, HostBaselines.HIERARCHICAL)) {
            for (int n : SIZES) {
                int chunks = 4 * 16; // a multiple of every power of two up to 16
                ScheduleNet net = new ScheduleNet(plan(mode, n, chunks, 8), 0, 0, 3).run(Long.MAX_VALUE);
                assertVerified(net, mode + " n=" + n);
                for (int m = 0; m < n; m++) {
                    assertEquals(
                            closedForm(mode.name(), n, m, chunks),
                            net.dataSent.get("h" + (m + 1)),
                            mode + " n=" + n + " member " + m);
                }
            }
        }
    }

    @Test
    void halvingDoublingTakesTwoLog2NStepsPerMemberForAPowerOfTwo() {
        for (int n : new int[] {2, 4, 8, 16}) {
            HalvingDoublingSchedule s = new HalvingDoublingSchedule(n, 64);
            for (int m = 0; m < n; m++) {
                // a step is one exchange with one partner in one phase: the partners of the halving, then of the
                // doubling
                List<Integer> partners = new ArrayList<>();
                Set<String> steps = new HashSet<>();
                for (int c = 0; c < 64; c++) {
                    for (HostSchedule.Send x : s.sends(m, c)) {
                        boolean finished = x.when().cardinality() == n;
                        steps.add((finished ? "gather " : "reduce ") + x.to());
                        partners.add(x.to());
                    }
                }
                assertEquals(2 * Integer.numberOfTrailingZeros(n), steps.size(), "n=" + n + " member " + m);
                for (int p : partners) {
                    assertEquals(1, Integer.bitCount(p ^ m), "partners differ in one bit: " + m + " and " + p);
                }
            }
        }
    }

    @Test
    void theDoubleBinaryTreesSpanTheMembersAndEachChunkCrosses2NMinus2Edges() {
        for (int n : SIZES) {
            DoubleBinaryTreeSchedule s = new DoubleBinaryTreeSchedule(n);
            for (int t = 0; t < 2; t++) {
                int roots = 0;
                for (int m = 0; m < n; m++) {
                    int parent = s.place(t, m).parent();
                    if (parent < 0) {
                        roots++;
                        continue;
                    }
                    assertTrue(s.place(t, parent).children().contains(m), "tree " + t + ": " + parent + " knows " + m);
                    // walking up reaches the root in fewer than n steps: no cycle
                    int up = m;
                    int steps = 0;
                    while (s.place(t, up).parent() >= 0 && steps <= n) {
                        up = s.place(t, up).parent();
                        steps++;
                    }
                    assertTrue(steps < n, "tree " + t + " n=" + n + ": " + m + " reaches the root");
                }
                assertEquals(1, roots, "tree " + t + " n=" + n);
            }
            // sends per member: one up per chunk unless the root, one down per child; children counted from the parents
            int chunks = 10;
            ScheduleNet net = new ScheduleNet(plan(HostBaselines.TREE, n, chunks, 4), 0, 0, 3).run(Long.MAX_VALUE);
            assertVerified(net, "tree n=" + n);
            long total = 0;
            for (int m = 0; m < n; m++) {
                long expected = 0;
                for (int c = 0; c < chunks; c++) {
                    int t = DoubleBinaryTreeSchedule.tree(c);
                    expected += s.place(t, m).parent() >= 0 ? 1 : 0;
                    for (int x = 0; x < n; x++) {
                        expected += s.place(t, x).parent() == m ? 1 : 0;
                    }
                }
                assertEquals(expected, net.dataSent.get("h" + (m + 1)), "tree n=" + n + " member " + m);
                total += expected;
            }
            assertEquals(2L * (n - 1) * chunks, total, "every chunk crosses 2(N-1) tree edges");
            if (n >= 4 && n % 2 == 0) {
                // complementary: no member is inner (has children) in both trees
                for (int m = 0; m < n; m++) {
                    boolean inner0 = !s.place(0, m).children().isEmpty();
                    boolean inner1 = !s.place(1, m).children().isEmpty();
                    assertTrue(!(inner0 && inner1), "n=" + n + " member " + m + " is inner in both trees");
                }
            }
        }
    }

    @Test
    void twentyPercentDuplicationChangesNothingButTheDuplicatesDropped() {
        for (Mode mode : HostBaselines.MODES) {
            for (int n : new int[] {3, 8, 13}) {
                ScheduleNet clean = new ScheduleNet(plan(mode, n, 20, 4), 0, 0, 7).run(Long.MAX_VALUE);
                ScheduleNet dup = new ScheduleNet(plan(mode, n, 20, 4), 0, 0.2, 7).run(Long.MAX_VALUE);
                assertVerified(dup, mode + " n=" + n);
                assertEquals(clean.dataSent, dup.dataSent, mode + " n=" + n);
                assertEquals(dup.duplicated, dup.stat("duplicatesDropped"), mode + " n=" + n);
            }
        }
    }

    @Test
    void lossesUpToTwentyPercentAreRecovered() {
        for (Mode mode : HostBaselines.MODES) {
            for (int n : new int[] {4, 7, 16}) {
                for (double loss : new double[] {0.01, 0.05, 0.2}) {
                    ScheduleNet net = new ScheduleNet(plan(mode, n, 20, 4), loss, 0, 11).run(Long.MAX_VALUE);
                    assertVerified(net, mode + " n=" + n + " loss=" + loss);
                }
            }
        }
    }
}
