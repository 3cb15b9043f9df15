package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.device.DeviceCommand;
import org.bitina.job.JobCommon;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.scenario.FaultSpec;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Link;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.allreduce.TreeSpec;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The report's time views: chunk completion, soft state over modelled time, faults on the axis. */
class PhaseTimelineTest {
    private final List<String> members = List.of("w1", "w2");
    private final AllReduceSpec job = new AllReduceSpec(
            new JobCommon(
                    "j",
                    "allreduce",
                    1,
                    1,
                    members,
                    new BitSpace(members),
                    EncodingSpec.FLAT,
                    Duration.ofMillis(50),
                    List.of()),
            new TreeSpec(TreeSpec.Mode.AUTO, null, null),
            new DataSpec(64, ElementType.INT32, ReductionOp.SUM, 16, 4, 1, 1024));
    private final Phase phase = Phase.builder()
            .job(job)
            .mode(Mode.INA)
            .wireJob(1)
            .tables(Map.of())
            .drivers(List.of())
            .awaited(Set.of("w1", "w2"))
            .roots(List.of("s1"))
            .bitSpace(new BitSpace(members))
            .timing(new Phase.Timing(4, 50_000_000L, 0, Duration.ofSeconds(30)))
            .expected(new Phase.Expected(Status.COMPLETE, Set.of(), 0))
            .note("")
            .build();

    private static DriverReport worker(String name, long... vt) {
        CompletionTimes t = new CompletionTimes(vt.length);
        for (int u = 0; u < vt.length; u++) {
            if (vt[u] >= 0) {
                t.done(u, vt[u]);
            }
        }
        t.done(0, 1); // a later result of a unit does not move its time
        return DriverReport.of(name, DriverReport.Role.WORKER)
                .chunks(vt.length)
                .received(vt.length)
                .verifiedChunks(vt.length)
                .done(true)
                .build()
                .withUnitTimes(t);
    }

    @Test
    void aChunkCompletesWhenItsLastEndpointHasItAndOneSomeoneLacksIsLeftOut() {
        Report.Completion c = PhaseTimeline.completion(
                phase, List.of(worker("w1", 1000, 2000, 3000, 4000), worker("w2", 1500, 1000, 9000, -1)));
        assertEquals("chunk", c.unit());
        assertEquals(4, c.units());
        assertEquals(3, c.completed(), "chunk 3 never reached w2");
        assertEquals(1.5, c.minMicros());
        assertEquals(9.0, c.maxMicros());
        assertEquals(2.0, c.p50Micros(), 0.01);
        double[] last = c.cdf().get(c.cdf().size() - 1);
        assertEquals(9.0, last[0], 0.01);
        assertEquals(1.0, last[1]);
        for (int i = 1; i < c.cdf().size(); i++) {
            assertEquals(
                    true,
                    c.cdf().get(i)[0] > c.cdf().get(i - 1)[0]
                            && c.cdf().get(i)[1] >= c.cdf().get(i - 1)[1],
                    "ascending");
        }
        assertNull(PhaseTimeline.completion(phase, List.of()), "no endpoint, no distribution");
    }

    private static DeviceCommand.DeviceStats sw(String name, long[]... steps) {
        return DeviceCommand.DeviceStats.builder(name, true)
                .state(new DeviceCommand.DeviceStats.State(0, 0, List.of(steps), 0, List.of()))
                .build();
    }

    @Test
    void entriesOverTimeSumTheSwitchesExactlyAndKeepEachOnesPeak() {
        // s1 holds one entry over [0, 10 us), s2 one over [5 us, 20 us) and two over [12 us, 14 us)
        Report.StateEntries e = PhaseTimeline.entries(
                List.of(
                        sw("s1", new long[] {0, 1}, new long[] {10_000, 0}),
                        sw("s2", new long[] {5_000, 1}, new long[] {12_000, 2}, new long[] {14_000, 1}, new long[] {
                            20_000, 0
                        }),
                        sw("s3")),
                40_000);
        assertEquals(0.2, e.bucketMicros(), 1e-9, "200 buckets over 40 us");
        assertEquals(Map.of("s1", 1, "s2", 2), e.peaks());
        assertEquals(1, e.total().get(0));
        assertEquals(2, e.total().get(30), "at 6 us both hold one");
        assertEquals(2, e.total().get(60), "at 12 us s2 holds two, s1 none");
        assertEquals(1, e.total().get(80));
        assertEquals(0, e.total().get(120));
        assertEquals(2, e.total().stream().mapToInt(Integer::intValue).max().getAsInt());
        assertNull(PhaseTimeline.entries(List.of(sw("s3")), 40_000), "no entries, no series");
    }

    @Test
    void faultsOnTheAxisAreTheAppliedNetworkFaultsAndThePhasesEndpointFaults() {
        Link l = new Link("s1", "s2", null);
        FaultSpec down =
                new FaultSpec(Duration.ofMillis(2), FaultSpec.Kind.LINK_DOWN, null, l, null, null, 0, List.of(), 0);
        FaultSpec late =
                new FaultSpec(Duration.ofSeconds(9), FaultSpec.Kind.LINK_UP, null, l, null, null, 0, List.of(), 0);
        FaultSpec slow = new FaultSpec(
                Duration.ZERO, FaultSpec.Kind.STRAGGLER, "w9", null, Duration.ofMillis(1), null, 0, List.of(), 0);
        List<Report.FaultMark> marks = PhaseTimeline.faults(List.of(down, late, slow), List.of(down), phase);
        assertEquals(
                List.of(new Report.FaultMark(2000.0, "link-down", "link-down s1-s2")),
                marks,
                "the link-up never came (not applied), w9 runs no driver of this phase");
        assertEquals(
                List.of(),
                PhaseTimeline.faults(List.of(down, late, slow), List.of(), phase),
                "a phase that met no network fault (a shared world's job alone) shows none");
    }
}
