package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.device.DeviceCommand;
import org.bitina.job.JobCommon;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.scenario.Clock;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.allreduce.TreeSpec;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** What a phase's report says from what the devices report, and whether it is what the scenario expects. */
class ReportAssemblerTest {
    private final List<String> members = List.of("w1", "w2", "w3");
    private final AllReduceSpec job = new AllReduceSpec(
            new JobCommon(
                    "j",
                    "bier-inc",
                    1,
                    1,
                    members,
                    new BitSpace(members),
                    EncodingSpec.FLAT,
                    Duration.ofMillis(50),
                    List.of()),
            new TreeSpec(TreeSpec.Mode.AUTO, null, null),
            new DataSpec(64, ElementType.INT32, ReductionOp.SUM, 16, 4, 1, 1024));

    /** w2 is a silent owner of 1 of the 4 chunks: the others can lack that one chunk, and no more. */
    private Phase failingPhase() {
        return Phase.builder()
                .job(job)
                .mode(Mode.INA)
                .wireJob(1)
                .tables(Map.of())
                .drivers(List.of())
                .awaited(Set.of("w1", "w3"))
                .roots(List.of("w1"))
                .bitSpace(new BitSpace(members))
                .timing(new Phase.Timing(4, 50_000_000L, 0, Duration.ofSeconds(30)))
                .expected(new Phase.Expected(Status.FAILED, Set.of("w2"), 1))
                .note("")
                .build();
    }

    private static DeviceCommand.DeviceStats host(String name, int received, List<String> mismatches) {
        DriverReport r = DriverReport.of(name, DriverReport.Role.INC_WORKER)
                .chunks(4)
                .received(received)
                .mismatches(mismatches)
                .verifiedChunks(received)
                .build();
        return DeviceCommand.DeviceStats.builder(name, false)
                .drivers(List.of(r))
                .build();
    }

    private Report.JobReport report(DeviceCommand.DeviceStats... stats) {
        ReportAssembler a = new ReportAssembler();
        a.phase(failingPhase(), List.of(stats), 0, null, List.of(), List.of());
        return a.report("s.conf", Clock.VIRTUAL, Map.of()).jobs().get(0);
    }

    @Test
    void aFailureTheFaultPlanExplainsIsAsExpected() {
        Report.JobReport j = report(host("w1", 3, List.of()), host("w3", 3, List.of()));
        assertEquals(Status.FAILED, j.outcome().status());
        assertTrue(j.outcome().asExpected(), "each lacks only the silent owner's chunk");
    }

    @Test
    void aFailureBeyondWhatTheFaultPlanExplainsIsNot() {
        // a silent owner and loss: members far short of the one chunk the owner explains
        Report.JobReport j = report(host("w1", 1, List.of()), host("w3", 3, List.of()));
        assertEquals(Status.FAILED, j.outcome().status());
        assertFalse(j.outcome().asExpected(), "w1 lacks 3 chunks; the plan explains 1");
    }

    @Test
    void aFailureWithWrongResultsIsNot() {
        Report.JobReport j =
                report(host("w1", 3, List.of("chunk 0 element 1: got 1, expected 2")), host("w3", 3, List.of()));
        assertEquals(Status.FAILED, j.outcome().status());
        assertFalse(j.outcome().asExpected(), "a wrong result is never the failure a scenario expects");
    }
}
