package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Contribution;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.StateKey;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** S5: admission at job setup, and the reservation as the job's quota on a switch. */
class AdmissionTest {
    /** A host baseline to fall back to: admission carries it, never reads it. */
    private static final Mode RING = Mode.of("ring");

    @Test
    void aJobIsRefusedByTheFirstSwitchWithoutRoomAndAdmittedWhereEveryOneHasIt() {
        Map<String, Integer> capacity = Map.of("s1", 64, "s2", 12, "s3", 8);
        Admission refused = Admission.decide(16, List.of("s1", "s2", "s3"), n -> capacity.getOrDefault(n, 0), RING);
        assertFalse(refused.admitted());
        assertEquals("s2", refused.refusedBy());
        assertEquals("switch s2 has room for 12 aggregation entries; the job needs 16", refused.reason());
        assertEquals(RING, refused.fallback());

        Admission fits = Admission.decide(12, List.of("s1", "s2"), n -> capacity.getOrDefault(n, 0), RING);
        assertTrue(fits.admitted());
        assertNull(fits.reason());
        // no capacity declared: unlimited
        assertTrue(Admission.decide(1 << 20, List.of("s9"), n -> 0, RING).admitted());
    }

    @Test
    void aReservationIsTheJobsQuotaOnTheSwitchAndOtherJobsKeepTheDefault() {
        AggregationTable table = new AggregationTable(100, 0);
        JobKey job = new JobKey(1, 1);
        table.reserve(job, 2);
        FlatBitmap nodeBitmap = FlatBitmap.of(4, 0, 1);
        for (int chunk = 0; chunk < 2; chunk++) {
            assertInstanceOf(AggregationTable.Buffered.class, offer(table, 1, chunk, nodeBitmap));
        }
        AggregationTable.Outcome third = offer(table, 1, 2, nodeBitmap);
        assertInstanceOf(
                AggregationTable.Refused.class, third, "a third open aggregation is over the 2 entries reserved");
        assertTrue(((AggregationTable.Refused) third).reason().contains("quota of 2"));
        // another job, with no reservation here, has the device's default
        for (int chunk = 0; chunk < 5; chunk++) {
            assertInstanceOf(AggregationTable.Buffered.class, offer(table, 2, chunk, nodeBitmap));
        }
        assertEquals(100, table.quota(new JobKey(1, 2)));
    }

    private static AggregationTable.Outcome offer(AggregationTable table, int job, int chunk, FlatBitmap nodeBitmap) {
        Contribution c = new Contribution(FlatBitmap.of(4, 0), ReductionOp.SUM, Payload.of(new float[] {1f}));
        return table.offer(new StateKey(1, job, 0, chunk), nodeBitmap, c, 1_000_000, 0);
    }
}
