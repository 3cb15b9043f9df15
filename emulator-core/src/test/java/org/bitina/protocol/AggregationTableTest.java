package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

class AggregationTableTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 50 * MS;
    private static final StateKey K = new StateKey(1, 1, 0, 7);

    private static EndpointSet bm(String s) {
        return EndpointSets.parse(s);
    }

    private static Contribution c(String pbm, float... values) {
        return new Contribution(bm(pbm), ReductionOp.SUM, Payload.of(values));
    }

    private final AggregationTable table = new AggregationTable(16, 500 * MS);

    @Test
    void s7ForwardsS1ResultBecauseAndIsZero() {
        AggregationTable s7 = new AggregationTable(16, TIMEOUT);
        var out = s7.offer(K, bm("[00110000]"), c("[11000000]", 1f), TIMEOUT, 0);
        assertInstanceOf(AggregationTable.Forward.class, out);
        assertEquals(0, s7.liveEntries(), "forwarding creates no state");
    }

    @Test
    void s6CompletesWith11110000WhenBothChildrenArrived() {
        AggregationTable s6 = new AggregationTable(16, TIMEOUT);
        EndpointSet abm = bm("[11110000]");
        var first = s6.offer(K, abm, c("[11000000]", 1f, 2f), TIMEOUT, 0);
        AggregationTable.Buffered b = assertInstanceOf(AggregationTable.Buffered.class, first);
        assertEquals(bm("[00110000]"), b.missing());
        var second = s6.offer(K, abm, c("[00110000]", 10f, 20f), TIMEOUT, 3 * MS);
        Emission e = assertInstanceOf(AggregationTable.Complete.class, second).emission();
        assertEquals(bm("[11110000]"), e.pbm(), "the result's P-BM is the node bitmap");
        assertEquals(abm, e.nodeBitmap());
        assertArrayEquals(new float[] {11f, 22f}, ((Payload.Float32) e.payload()).values());
        assertTrue(e.missing().isEmpty());
        assertEquals(0, s6.liveEntries());
    }

    @Test
    void anAggregateCarriesTheOrOfItsContributionsCongestionMarks() {
        EndpointSet abm = bm("[11110000]");
        for (boolean firstMarked : new boolean[] {false, true}) {
            for (boolean secondMarked : new boolean[] {false, true}) {
                AggregationTable s6 = new AggregationTable(16, TIMEOUT);
                Contribution a = c("[11000000]", 1f);
                Contribution b = c("[00110000]", 2f);
                s6.offer(K, abm, marked(a, firstMarked), TIMEOUT, 0);
                Emission e = assertInstanceOf(
                                AggregationTable.Complete.class, s6.offer(K, abm, marked(b, secondMarked), TIMEOUT, MS))
                        .emission();
                assertEquals(firstMarked || secondMarked, e.congested(), firstMarked + " " + secondMarked);
                assertEquals(e.congested(), e.withPayload(e.payload()).congested(), "kept when a payload changes");
            }
        }
    }

    private static Contribution marked(Contribution c, boolean congested) {
        return new Contribution(c.pbm(), c.op(), c.payload(), c.vt(), c.holds(), congested);
    }

    @Test
    void duplicateNeverCompletesEarlyNorCountsTwice() {
        EndpointSet abm = bm("[1110]");
        table.offer(K, abm, c("[1000]", 1f), TIMEOUT, 0);
        assertInstanceOf(AggregationTable.Duplicate.class, table.offer(K, abm, c("[1000]", 1f), TIMEOUT, 1));
        assertInstanceOf(AggregationTable.Buffered.class, table.offer(K, abm, c("[0100]", 2f), TIMEOUT, 2));
        assertInstanceOf(
                AggregationTable.Duplicate.class,
                table.offer(K, abm, c("[1100]", 3f), TIMEOUT, 3),
                "a P-BM already covered by what is held is a duplicate");
        Emission e = ((AggregationTable.Complete) table.offer(K, abm, c("[0010]", 4f), TIMEOUT, 4)).emission();
        assertArrayEquals(new float[] {7f}, ((Payload.Float32) e.payload()).values());
    }

    @Test
    void overlappingButNotContainedPbmIsRejected() {
        EndpointSet abm = bm("[1110]");
        table.offer(K, abm, c("[1000]", 1f), TIMEOUT, 0);
        var out = table.offer(K, abm, c("[1100]", 5f), TIMEOUT, 1);
        assertTrue(
                assertInstanceOf(AggregationTable.Rejected.class, out).reason().contains("twice"));
        assertEquals(DropReason.PBM_OVERLAP, ((AggregationTable.Rejected) out).why());
    }

    @Test
    void bitsOutsideTheNodeBitmapAreRejected() {
        var out = table.offer(K, bm("[1100]"), c("[0110]", 1f), TIMEOUT, 0);
        assertTrue(
                assertInstanceOf(AggregationTable.Rejected.class, out).reason().contains("outside the node bitmap"));
        assertEquals(DropReason.PBM_OUTSIDE_NODE_BITMAP, ((AggregationTable.Rejected) out).why());
        assertEquals(0, table.liveEntries());
    }

    @Test
    void mismatchedPayloadsAndOpsAreRejected() {
        EndpointSet abm = bm("[1110]");
        table.offer(K, abm, c("[1000]", 1f, 2f), TIMEOUT, 0);
        assertInstanceOf(AggregationTable.Rejected.class, table.offer(K, abm, c("[0100]", 1f), TIMEOUT, 1));
        assertInstanceOf(
                AggregationTable.Rejected.class,
                table.offer(
                        K, abm, new Contribution(bm("[0100]"), ReductionOp.MAX, Payload.of(new float[2])), TIMEOUT, 1));
        assertInstanceOf(
                AggregationTable.Rejected.class,
                table.offer(
                        K, abm, new Contribution(bm("[0100]"), ReductionOp.SUM, Payload.of(new int[2])), TIMEOUT, 1));
    }

    @Test
    void concurrentSequenceIdsNeverMix() {
        EndpointSet abm = bm("[11]");
        StateKey k2 = new StateKey(1, 1, 0, 8);
        StateKey otherJob = new StateKey(1, 2, 0, 7);
        StateKey otherTenant = new StateKey(2, 1, 0, 7);
        table.offer(K, abm, c("[10]", 1f), TIMEOUT, 0);
        table.offer(k2, abm, c("[10]", 100f), TIMEOUT, 0);
        table.offer(otherJob, abm, c("[01]", 1000f), TIMEOUT, 0);
        table.offer(otherTenant, abm, c("[01]", 5000f), TIMEOUT, 0);
        Emission e = ((AggregationTable.Complete) table.offer(K, abm, c("[01]", 2f), TIMEOUT, 1)).emission();
        assertArrayEquals(new float[] {3f}, ((Payload.Float32) e.payload()).values());
        Emission e2 = ((AggregationTable.Complete) table.offer(k2, abm, c("[01]", 200f), TIMEOUT, 1)).emission();
        assertArrayEquals(new float[] {300f}, ((Payload.Float32) e2.payload()).values());
        assertEquals(2, table.liveEntries());
    }

    @Test
    void timeoutEmitsAPartialNamingExactlyWhatItHolds() {
        EndpointSet abm = bm("[11110000]");
        table.offer(K, abm, c("[11000000]", 1f), TIMEOUT, 10 * MS);
        table.offer(K, abm, c("[00100000]", 2f), TIMEOUT, 20 * MS);
        assertEquals(60 * MS, table.nextDeadline(), "deadline runs from the first arrival");
        assertTrue(table.expire(60 * MS - 1).isEmpty());
        List<Emission> out = table.expire(60 * MS);
        assertEquals(1, out.size());
        Emission e = out.get(0);
        assertTrue(e.partial());
        assertEquals(bm("[11100000]"), e.pbm());
        assertEquals(bm("[00010000]"), e.missing());
        assertArrayEquals(new float[] {3f}, ((Payload.Float32) e.payload()).values());
        assertEquals(Long.MAX_VALUE, table.nextDeadline());
    }

    @Test
    void lateContributionIsForwardedOnceAndNeverAddedTwice() {
        EndpointSet abm = bm("[1100]");
        table.offer(K, abm, c("[1000]", 1f), TIMEOUT, 0);
        Emission partial = table.expire(TIMEOUT).get(0);
        assertEquals(bm("[1000]"), partial.pbm());
        var late = table.offer(K, abm, c("[0100]", 2f), TIMEOUT, TIMEOUT + 1);
        AggregationTable.Late l = assertInstanceOf(AggregationTable.Late.class, late);
        assertEquals(bm("[0100]"), l.pbm());
        assertEquals(0, table.liveEntries(), "a late contribution opens no new aggregation");
        assertInstanceOf(AggregationTable.Duplicate.class, table.offer(K, abm, c("[0100]", 2f), TIMEOUT, TIMEOUT + 2));
        assertInstanceOf(AggregationTable.Duplicate.class, table.offer(K, abm, c("[1000]", 1f), TIMEOUT, TIMEOUT + 3));
    }

    @Test
    void tombstonesAreForgottenAfterTheirTime() {
        AggregationTable t = new AggregationTable(4, 100 * MS);
        EndpointSet abm = bm("[11]");
        t.offer(K, abm, c("[10]", 1f), TIMEOUT, 0);
        t.offer(K, abm, c("[01]", 1f), TIMEOUT, 0);
        assertInstanceOf(AggregationTable.Duplicate.class, t.offer(K, abm, c("[10]", 1f), TIMEOUT, 99 * MS));
        t.expire(100 * MS);
        assertInstanceOf(
                AggregationTable.Buffered.class,
                t.offer(K, abm, c("[10]", 1f), TIMEOUT, 101 * MS),
                "after the tombstone time a key may be reused");
    }

    @Test
    void liveEntriesPerJobAreBounded() {
        AggregationTable t = new AggregationTable(2, TIMEOUT);
        EndpointSet abm = bm("[11]");
        t.offer(new StateKey(1, 1, 0, 1), abm, c("[10]", 1f), TIMEOUT, 0);
        t.offer(new StateKey(1, 1, 0, 2), abm, c("[10]", 1f), TIMEOUT, 0);
        var refused = t.offer(new StateKey(1, 1, 0, 3), abm, c("[10]", 1f), TIMEOUT, 0);
        assertTrue(assertInstanceOf(AggregationTable.Refused.class, refused)
                .reason()
                .contains("quota of 2"));
        assertInstanceOf(
                AggregationTable.Buffered.class,
                t.offer(new StateKey(1, 2, 0, 3), abm, c("[10]", 1f), TIMEOUT, 0),
                "another job has its own quota");
        t.offer(new StateKey(1, 1, 0, 1), abm, c("[01]", 1f), TIMEOUT, 0);
        assertInstanceOf(
                AggregationTable.Buffered.class,
                t.offer(new StateKey(1, 1, 0, 3), abm, c("[10]", 1f), TIMEOUT, 0),
                "completion frees quota");
        assertEquals(3, t.peakEntries());
    }

    @Test
    void installedCbmDrivesCompletionWithoutARegisteredBitmap() {
        EndpointSet cbm = bm("[01100110]");
        assertNull(table.install(K, cbm, TIMEOUT, 0));
        assertTrue(table.has(K));
        assertInstanceOf(
                AggregationTable.Forward.class,
                table.offer(new StateKey(1, 1, 0, 99), null, c("[01000000]", 1f), TIMEOUT, 1),
                "no state for this token: forward");
        table.offer(K, null, c("[01100000]", 1f), TIMEOUT, 1);
        Emission e = ((AggregationTable.Complete) table.offer(K, null, c("[00000110]", 2f), TIMEOUT, 2)).emission();
        assertEquals(cbm, e.pbm());
    }

    @Test
    void installedCbmThatHearsNothingExpiresEmpty() {
        table.install(K, bm("[0110]"), TIMEOUT, 0);
        Emission e = table.expire(TIMEOUT).get(0);
        assertTrue(e.pbm().isEmpty());
        assertEquals(bm("[0110]"), e.missing());
        assertEquals(Payload.EMPTY, e.payload());
    }

    @Test
    void acksWithEmptyPayloadsAggregateByBitmapAlone() {
        EndpointSet abm = bm("[111]");
        for (String pbm : new String[] {"[100]", "[010]"}) {
            table.offer(K, abm, new Contribution(bm(pbm), ReductionOp.NONE, Payload.EMPTY), TIMEOUT, 0);
        }
        var out = table.offer(K, abm, new Contribution(bm("[001]"), ReductionOp.NONE, Payload.EMPTY), TIMEOUT, 0);
        assertEquals(
                bm("[111]"),
                assertInstanceOf(AggregationTable.Complete.class, out)
                        .emission()
                        .pbm());
    }

    @Test
    void int32ReductionsAreExactForEveryOp() {
        int[][] inputs = {{3, -7, Integer.MAX_VALUE}, {5, 2, 1}, {-1, 9, 0}};
        for (ReductionOp op :
                new ReductionOp[] {ReductionOp.SUM, ReductionOp.PRODUCT, ReductionOp.MAX, ReductionOp.MIN}) {
            AggregationTable t = new AggregationTable(4, TIMEOUT);
            EndpointSet abm = bm("[111]");
            AggregationTable.Outcome out = null;
            for (int i = 0; i < 3; i++) {
                out = t.offer(
                        K,
                        abm,
                        new Contribution(EndpointSets.of(Encoding.FLAT, 3, 1, i), op, Payload.of(inputs[i].clone())),
                        TIMEOUT,
                        0);
            }
            int[] expected = inputs[0].clone();
            op.apply(expected, inputs[1]);
            op.apply(expected, inputs[2]);
            Emission e = assertInstanceOf(AggregationTable.Complete.class, out).emission();
            assertArrayEquals(expected, ((Payload.Int32) e.payload()).values(), op.name());
        }
    }

    @Test
    void bufferedBytesAreTrackedAndReleasedOnCompletionTimeoutAndJobEnd() {
        EndpointSet abm = bm("[11]");
        table.offer(K, abm, c("[10]", new float[64]), TIMEOUT, 0);
        assertEquals(256, table.bufferedBytes(), "one float32 accumulator of 64 elements");
        table.offer(K, abm, c("[01]", new float[64]), TIMEOUT, 0);
        assertEquals(0, table.bufferedBytes(), "a complete entry releases its buffer");
        StateKey timesOut = new StateKey(1, 1, 0, 8);
        table.offer(timesOut, abm, c("[10]", new float[32]), TIMEOUT, 0);
        table.offer(new StateKey(1, 1, 0, 9), abm, c("[10]", new float[16]), TIMEOUT, TIMEOUT);
        assertEquals(128 + 64, table.bufferedBytes(), "two entries, each holding one accumulator");
        assertEquals(1, table.expire(TIMEOUT).size());
        assertEquals(64, table.bufferedBytes(), "the entry that timed out released its buffer, the other did not");
        table.clearJob(1, 1);
        assertEquals(0, table.bufferedBytes(), "the job's end releases what is left");
        assertEquals(256, table.peakBufferedBytes(), "the peak is kept");
    }

    @Test
    void entriesOverTimeCountEachEntryFromItsFirstContributionToItsEmissionInModelledTime() {
        EndpointSet abm = bm("[1100]");
        StateKey k2 = new StateKey(1, 1, 0, 8);
        table.offer(K, abm, new Contribution(bm("[1000]"), ReductionOp.SUM, Payload.of(new float[1]), 100), TIMEOUT, 0);
        table.offer(
                k2, abm, new Contribution(bm("[1000]"), ReductionOp.SUM, Payload.of(new float[1]), 150), TIMEOUT, 0);
        table.offer(K, abm, new Contribution(bm("[0100]"), ReductionOp.SUM, Payload.of(new float[1]), 300), TIMEOUT, 0);
        List<long[]> steps = table.entriesOverTime(List.of(K.jobKey()));
        // K lives [100, 300); k2 from 150 and still live: it counts to the end
        assertEquals(
                List.of("100:1", "150:2", "300:1"),
                steps.stream().map(x -> x[0] + ":" + x[1]).toList());
        // a partial at its timer leaves at first arrival + timeout in modelled time
        table.expire(TIMEOUT + 1);
        assertEquals(
                List.of("100:1", "150:2", "300:1", (150 + TIMEOUT) + ":0"),
                table.entriesOverTime(List.of(K.jobKey())).stream()
                        .map(x -> x[0] + ":" + x[1])
                        .toList());
        assertEquals(List.of(), table.entriesOverTime(List.of(new JobKey(2, 1))), "another job's entries are its own");
        // both contributions at one instant: held for a nanosecond, not lost from the series
        AggregationTable t = new AggregationTable(16, 500 * MS);
        t.offer(K, abm, new Contribution(bm("[1000]"), ReductionOp.SUM, Payload.of(new float[1]), 700), TIMEOUT, 0);
        t.offer(K, abm, new Contribution(bm("[0100]"), ReductionOp.SUM, Payload.of(new float[1]), 700), TIMEOUT, 0);
        assertEquals(
                List.of("700:1", "701:0"),
                t.entriesOverTime(List.of(K.jobKey())).stream()
                        .map(x -> x[0] + ":" + x[1])
                        .toList());
    }
}
