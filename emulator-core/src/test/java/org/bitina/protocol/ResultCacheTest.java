package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The root's result cache (L1, SwitchML's shadow copy): a retransmission of a finished chunk is answered, never summed again. */
class ResultCacheTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 50 * MS;
    private static final StateKey K = new StateKey(1, 1, 0, 3);
    private static final EndpointSet ABM = EndpointSets.parse("[1100]");

    private static Contribution c(String pbm, float... values) {
        return new Contribution(EndpointSets.parse(pbm), ReductionOp.SUM, Payload.of(values));
    }

    private static float[] values(Emission e) {
        return ((Payload.Float32) e.payload()).values();
    }

    @Test
    void aRetransmittedContributionOfACompletedChunkIsAnsweredFromTheCacheAndNeverSummedTwice() {
        AggregationTable root = new AggregationTable(16, 500 * MS);
        root.offer(K, ABM, c("[1000]", 1f, 2f), TIMEOUT, 0);
        Emission result = assertInstanceOf(
                        AggregationTable.Complete.class, root.offer(K, ABM, c("[0100]", 10f, 20f), TIMEOUT, MS))
                .emission();
        root.cacheResult(result, 100 * MS);

        // w1 lost the result and sends its contribution again: the table answers with the result it keeps
        var again = root.offer(K, ABM, c("[1000]", 1f, 2f), TIMEOUT, 5 * MS);
        AggregationTable.Duplicate d = assertInstanceOf(AggregationTable.Duplicate.class, again);
        assertSame(result, d.cached());
        assertArrayEquals(new float[] {11f, 22f}, values(d.cached()), "the one sum, not 12, 24");
        assertEquals(0, root.liveEntries(), "no second aggregation opened");
        // and again: still the same answer, still nothing added
        var third = root.offer(K, ABM, c("[1000]", 1f, 2f), TIMEOUT, 6 * MS);
        assertArrayEquals(new float[] {11f, 22f}, values(((AggregationTable.Duplicate) third).cached()));
        assertEquals(0, root.liveEntries());
    }

    @Test
    void theCacheForgetsAResultOnceNoMemberCanStillAskButTheTombstoneStillRefusesASecondSum() {
        AggregationTable root = new AggregationTable(16, 500 * MS);
        root.offer(K, ABM, c("[1000]", 1f), TIMEOUT, 0);
        Emission result = ((AggregationTable.Complete) root.offer(K, ABM, c("[0100]", 2f), TIMEOUT, 0)).emission();
        root.cacheResult(result, 100 * MS);
        root.expire(100 * MS);
        assertNull(root.cachedResult(K));
        var late = root.offer(K, ABM, c("[0100]", 2f), TIMEOUT, 101 * MS);
        AggregationTable.Duplicate d = assertInstanceOf(AggregationTable.Duplicate.class, late);
        assertNull(d.cached(), "nothing to answer with");
        assertEquals(0, root.liveEntries());
    }

    @Test
    void aBetterResultReplacesTheCachedOneAndAJobsEndClearsIt() {
        AggregationTable root = new AggregationTable(16, 500 * MS);
        root.offer(K, ABM, c("[1000]", 1f), TIMEOUT, 0);
        Emission partial = root.expire(TIMEOUT).get(0);
        root.cacheResult(partial, 200 * MS);
        Emission better = partial.foldIn(c("[0100]", 2f), TIMEOUT + MS);
        root.cacheResult(better, 60 * MS);
        assertArrayEquals(new float[] {3f}, values(root.cachedResult(K)));
        root.expire(100 * MS);
        assertSame(better, root.cachedResult(K), "kept as long as the first result was to be");
        root.clearJob(1, 1);
        assertNull(root.cachedResult(K));
    }
}
