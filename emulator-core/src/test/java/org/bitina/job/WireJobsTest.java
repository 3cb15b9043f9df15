package org.bitina.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One registry hands out every wire job id: its blocks never overlap and never hand out a number outside. */
class WireJobsTest {
    @Test
    void theBlocksAreDisjointAndEachHoldsEveryJobIdAScenarioMayGive() {
        WireJobs[] all = WireJobs.values();
        for (int i = 0; i < all.length; i++) {
            assertTrue(all[i].span() > WireJobs.MAX_JOB_ID, all[i] + " holds every job id");
            assertTrue((long) all[i].base() + all[i].span() <= Integer.MAX_VALUE, all[i] + " fits an int");
            for (int j = i + 1; j < all.length; j++) {
                boolean apart = all[i].base() + all[i].span() <= all[j].base()
                        || all[j].base() + all[j].span() <= all[i].base();
                assertTrue(apart, all[i] + " and " + all[j] + " overlap");
            }
        }
    }

    @Test
    void theNumbersAreThoseTheRunsAlwaysHadAndNoneLeavesItsBlock() {
        assertEquals(7, WireJobs.INA.of(7));
        assertEquals(1_000_007, WireJobs.RING.of(7));
        assertEquals(100_000_007, WireJobs.TREE.of(7));
        assertEquals(20_007, WireJobs.iteration(7, 3));
        assertEquals(5_007_003, WireJobs.partition(7, 2));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.RING.of(1_000_000));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.RING.of(-1));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.iteration(WireJobs.MAX_ELASTIC_JOB_ID + 1, 2));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.iteration(9_999, 101));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.partition(WireJobs.MAX_PARTITIONED_JOB_ID + 1, 0));
        assertThrows(IllegalArgumentException.class, () -> WireJobs.partition(1, WireJobs.MAX_PARTITIONS));
        // the largest ids the loader lets through stay in their blocks
        WireJobs.partition(WireJobs.MAX_PARTITIONED_JOB_ID, WireJobs.MAX_PARTITIONS - 1);
        WireJobs.iteration(WireJobs.MAX_ELASTIC_JOB_ID, 99);
        for (WireJobs b : WireJobs.values()) {
            b.of(WireJobs.MAX_JOB_ID);
        }
    }
}
