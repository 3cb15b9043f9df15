package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** T2: one switch's state-entries as one pool over the jobs installed on it (strict grants, best-effort use of the rest). */
class SwitchPoolTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 50 * MS;
    private static final JobKey STRICT = new JobKey(1, 1);
    private static final JobKey EFFORT = new JobKey(2, 1);
    private static final EndpointSet ABM = EndpointSets.parse("[11]");

    private static Contribution c(String pbm, float... values) {
        return new Contribution(EndpointSets.parse(pbm), ReductionOp.SUM, Payload.of(values));
    }

    private static StateKey key(JobKey job, int seq) {
        return new StateKey(job.tenant(), job.job(), 0, seq);
    }

    private static AggregationTable.Outcome open(AggregationTable t, JobKey job, int seq) {
        return t.offer(key(job, seq), ABM, c("[10]", 1f), TIMEOUT, 0);
    }

    /** A pool of 4: the strict job granted 2, the best-effort job granted 1 and free to use the 1 nobody was granted. */
    private static AggregationTable pool() {
        AggregationTable t = new AggregationTable(4096, TIMEOUT);
        t.pool(STRICT, new PoolShare(4, false, false), 2);
        t.pool(EFFORT, new PoolShare(4, true, false), 1);
        return t;
    }

    @Test
    void aStrictJobOpensItsGrantAndIsRefusedPastIt() {
        AggregationTable t = pool();
        assertInstanceOf(AggregationTable.Buffered.class, open(t, STRICT, 1));
        assertInstanceOf(AggregationTable.Buffered.class, open(t, STRICT, 2));
        assertInstanceOf(
                AggregationTable.Refused.class, open(t, STRICT, 3), "past its grant, though the pool has 1 free");
    }

    @Test
    void aBestEffortJobUsesFreeEntriesPastItsGrantThenPassesChunksOn() {
        AggregationTable t = pool();
        assertEquals(1, t.poolFree(), "4 less the grants of 2 and 1");
        assertInstanceOf(AggregationTable.Buffered.class, open(t, EFFORT, 1), "its grant");
        assertInstanceOf(AggregationTable.Buffered.class, open(t, EFFORT, 2), "the entry nobody was granted");
        assertEquals(0, t.poolFree());
        assertInstanceOf(AggregationTable.Refused.class, open(t, EFFORT, 3), "no free entry: passed on");
        assertInstanceOf(
                AggregationTable.Buffered.class,
                open(t, STRICT, 1),
                "the strict grant was never the best-effort job's");
        assertInstanceOf(AggregationTable.Buffered.class, open(t, STRICT, 2));
    }

    @Test
    void aChunkPassedOnPassesOnWholeEvenWhenAnEntryFreesMeanwhile() {
        AggregationTable t = pool();
        open(t, EFFORT, 1);
        open(t, EFFORT, 2);
        assertInstanceOf(AggregationTable.Refused.class, open(t, EFFORT, 3));
        // chunk 1 completes: its entry goes back to the pool
        assertInstanceOf(AggregationTable.Complete.class, t.offer(key(EFFORT, 1), ABM, c("[01]", 2f), TIMEOUT, 1));
        assertEquals(1, t.poolFree(), "chunk 1's entry is back");
        assertInstanceOf(
                AggregationTable.Refused.class,
                t.offer(key(EFFORT, 3), ABM, c("[01]", 2f), TIMEOUT, 2),
                "chunk 3's first contribution went up: an entry here would wait for it until its timer");
        assertInstanceOf(AggregationTable.Buffered.class, open(t, EFFORT, 4), "a new chunk takes the free entry");
    }

    @Test
    void aReleasedGrantGoesBackToThePoolForBestEffortJobs() {
        AggregationTable t = pool();
        open(t, EFFORT, 1);
        open(t, EFFORT, 2);
        assertInstanceOf(AggregationTable.Refused.class, open(t, EFFORT, 3));
        t.release(STRICT);
        assertEquals(2, t.poolFree(), "the strict job's 2 are back");
        assertInstanceOf(AggregationTable.Buffered.class, open(t, EFFORT, 5));
        assertInstanceOf(AggregationTable.Buffered.class, open(t, EFFORT, 6));
        assertInstanceOf(AggregationTable.Refused.class, open(t, EFFORT, 7));
        assertEquals(4, t.liveEntries(), "never more live than the pool holds");
    }

    @Test
    void theRootFoldsAPassedOnContributionExactlyOnceOutsideThePool() {
        AggregationTable root = new AggregationTable(4096, TIMEOUT);
        root.pool(EFFORT, new PoolShare(1, true, true), 1);
        EndpointSet abm = EndpointSets.parse("[111]");
        StateKey held = key(EFFORT, 1);
        StateKey folded = key(EFFORT, 2);
        root.offer(held, abm, c("[100]", 1f), TIMEOUT, 0);
        assertEquals(0, root.poolFree(), "the pool's one entry holds chunk 1");
        // chunk 2 finds no free entry: the root folds it outside the pool, keyed by chunk, its P-BMs told apart
        assertInstanceOf(AggregationTable.Buffered.class, root.offer(folded, abm, c("[100]", 1f, 2f), TIMEOUT, 0));
        assertInstanceOf(
                AggregationTable.Duplicate.class,
                root.offer(folded, abm, c("[100]", 1f, 2f), TIMEOUT, 1),
                "the same contribution passed on twice is not added twice");
        assertInstanceOf(AggregationTable.Buffered.class, root.offer(folded, abm, c("[010]", 10f, 20f), TIMEOUT, 2));
        Emission e = assertInstanceOf(
                        AggregationTable.Complete.class, root.offer(folded, abm, c("[001]", 100f, 200f), TIMEOUT, 3))
                .emission();
        assertEquals(abm, e.pbm());
        assertArrayEquals(new float[] {111f, 222f}, ((Payload.Float32) e.payload()).values(), "each exactly once");
        assertEquals(1, root.outsideFolds(EFFORT));
        assertEquals(0, root.poolFree(), "the fold never took the pool's entry");
    }
}
