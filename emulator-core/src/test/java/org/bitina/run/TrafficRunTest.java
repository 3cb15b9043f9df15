package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Status;
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.Schedule;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.traffic.TrafficPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Background traffic end to end (T3): permutation flows beside two tenants' AllReduce jobs on a
 * k=4 fat-tree, through the same ports and buffers; flow counts and completion times from the
 * run, a slowdown against the traffic alone, the jobs verified, the same report twice.
 */
class TrafficRunTest {
    @TempDir
    Path dir;

    private static String shared(String buffer, String traffic) {
        return fatTree(4, "topology.link-defaults { " + buffer + " }\n" + """
                schedule = shared
                worlds = [ina]
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                  baselines = [ring]
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-1 }
                  data { elements = 16384, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                  baselines = [ring]
                }]
                """ + traffic);
    }

    private static final String PERMUTATION =
            "traffic = [{ kind = permutation, load = 30%, flow-size = 64KiB, start = 0us, stop = 60us, seed = 3 }]\n";

    private static TrafficReport row(Report r, boolean alone) {
        return r.traffic().stream()
                .filter(t -> t.alone() == alone)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no traffic row alone=" + alone + " in " + r.traffic()));
    }

    @Test
    void permutationTrafficBesideTwoJobsFinishesItsFlowsIsSlowedDownAndTheJobsVerifyTheSameTwice()
            throws IOException, ScenarioException {
        Scenario s = write(dir, "traffic.conf", shared("buffer = 256KiB", PERMUTATION));
        Report first = run(s);
        for (Report.JobReport j : first.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
        assertEquals(2, first.traffic().size(), "the entry in the ina mix, and alone: " + first.traffic());
        TrafficReport mixed = row(first, false);
        TrafficReport alone = row(first, true);
        assertEquals(Schedule.World.INA, mixed.world());
        assertEquals("permutation", mixed.kind());
        // the schedule is pure: the flows the run started are those the entry's plan draws
        List<TrafficFlows.Flow> planned = TrafficPlan.of(s, 0).flows();
        assertTrue(planned.size() > 4, "a few flows at least: " + planned.size());
        for (TrafficReport t : List.of(mixed, alone)) {
            assertEquals(planned.size(), t.flows(), "flows started");
            // nothing is dropped with 256 KiB buffers: every flow finishes, every byte arrives
            assertEquals(t.flows(), t.finished(), t.toString());
            assertEquals(planned.stream().mapToLong(TrafficFlows.Flow::bytes).sum(), t.bytes());
            // a 64 KiB flow takes at least its serialisation at 100 Gbps (5.2 us) and its hops' latency
            assertTrue(t.fctP50Micros() >= 64 * 1024 * 8 / 100e3, t.toString());
            assertTrue(t.fctP50Micros() <= t.fctP99Micros() && t.fctP99Micros() <= t.fctMaxMicros(), t.toString());
        }
        assertNotNull(mixed.slowdown(), mixed.toString());
        double expected = new BigDecimal(mixed.fctP99Micros() / alone.fctP99Micros())
                .round(new MathContext(3))
                .doubleValue();
        assertEquals(expected, mixed.slowdown(), 1e-9);
        assertEquals(alone.fctP99Micros(), mixed.aloneP99Micros());
        // the jobs' packets queue ahead of the flows' on the shared uplinks
        assertTrue(mixed.slowdown() >= 1.0, mixed.toString());
        assertSameRun(first, run(s), "background traffic beside two jobs");
    }

    @Test
    void atEightKibBuffersEveryFlowFinishesThroughItsResendsAndTheJobsStillVerify()
            throws IOException, ScenarioException {
        String heavy =
                "traffic = [{ kind = permutation, load = 60%, flow-size = 128KiB, start = 0us, stop = 40us, seed = 5 }]\n";
        Scenario s = write(dir, "small.conf", shared("buffer = 8KiB", heavy));
        Report r = run(s);
        assertJobsVerify(r);
        long drops = r.links().stream().mapToLong(LinkReport::queueDrops).sum();
        assertTrue(drops > 0, "an 8 KiB buffer overflows under the jobs and 60 % traffic");
        for (LinkReport l : r.links()) {
            // buffers are the switches' egress ports'; a host's NIC queues what its drivers hand it
            if (!l.from().matches("h\\d+")) {
                assertTrue(l.maxQueueBytes() <= 8 * 1024, l.toString());
            }
        }
        assertEveryFlowFinishedThroughItsResends(s, row(r, false));
    }

    @Test
    void atTwoPercentLossEveryFlowFinishesAtLeastOneTimeoutLaterAndTheSameTwice()
            throws IOException, ScenarioException {
        Scenario s = write(dir, "lossy.conf", shared("buffer = 256KiB, loss = 2%", PERMUTATION));
        Report r = run(s);
        assertJobsVerify(r);
        for (TrafficReport t : r.traffic()) {
            assertEveryFlowFinishedThroughItsResends(s, t);
        }
        assertSameRun(r, run(s), "background traffic at 2 % loss");
    }

    private static void assertJobsVerify(Report r) {
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
    }

    /**
     * Every flow finished once (every byte arrived, none twice), packets were resent, and the slowest
     * flow waited at least one retransmission timeout: its completion includes its recovery.
     */
    private static void assertEveryFlowFinishedThroughItsResends(Scenario s, TrafficReport t) {
        TrafficPlan plan = TrafficPlan.of(s, 0);
        long planned = plan.flows().stream().mapToLong(TrafficFlows.Flow::bytes).sum();
        assertEquals(plan.flows().size(), t.flows(), t.toString());
        assertEquals(t.flows(), t.finished(), "every flow finished: " + t);
        assertEquals(planned, t.bytes(), "every byte arrived, none counted twice: " + t);
        assertEquals(List.of(), t.gaveUp());
        assertTrue(t.timeouts() > 0 && t.retransmissions() >= t.timeouts(), t.toString());
        long shortestTimeout = plan.drivers().stream()
                .flatMap(d -> d.policies().stream())
                .mapToLong(RecoveryPolicy::rtoNanos)
                .min()
                .orElseThrow();
        assertTrue(t.fctMaxMicros() * 1000 >= shortestTimeout, shortestTimeout + " ns: " + t);
    }

    @Test
    void trafficIsRefusedUnderTheSequentialScheduleWithAClearError() {
        String text = fatTree(4, """
                jobs = [{ name = a, kind = allreduce, members = [h1, h2], tree { mode = auto, root = core-1 },
                          data { elements = 256 } }]
                traffic = [{ kind = permutation, load = 30%, stop = 50us }]
                """);
        ScenarioException e = assertThrows(ScenarioException.class, () -> write(dir, "seq.conf", text));
        assertTrue(e.getMessage().contains("traffic is for schedule = shared"), e.getMessage());
    }
}
