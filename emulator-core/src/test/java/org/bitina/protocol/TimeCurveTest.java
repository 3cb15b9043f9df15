package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/**
 * A bounded curve over modelled time: an egress queue's depth (T3, the most bytes per interval), a
 * sender's rate and a worker's window (the least and the most per interval), coarser as a phase grows.
 */
class TimeCurveTest {
    @Test
    void keepsTheMostBytesOfEachIntervalAndLeavesOutIntervalsWithoutAPacket() {
        TimeCurve c = new TimeCurve();
        c.record(0, 100);
        c.record(500, 300);
        c.record(1023, 200);
        c.record(5000, 40);
        assertEquals(1024, c.bucketNanos());
        List<long[]> p = c.points();
        assertEquals(2, p.size());
        assertArrayEquals(new long[] {0, 300}, p.get(0));
        assertArrayEquals(new long[] {4096, 40}, p.get(1));
    }

    @Test
    void keepsTheLeastAndTheMostOfEachIntervalThroughCoarsening() {
        TimeCurve c = new TimeCurve();
        c.record(100, 50);
        c.record(900, 20);
        c.record(1500, 70);
        List<long[]> r = c.range().points();
        assertArrayEquals(new long[] {0, 20, 50}, r.get(0));
        assertArrayEquals(new long[] {1024, 70, 70}, r.get(1));
        c.record(TimeCurve.BUCKETS * 1024L, 5); // past the last interval: 2,048 ns each now
        assertEquals(2048, c.bucketNanos());
        r = c.range().points();
        assertArrayEquals(new long[] {0, 20, 70}, r.get(0));
        assertArrayEquals(new long[] {TimeCurve.BUCKETS * 1024L, 5, 5}, r.get(1));
    }

    @Test
    void curvesOfSeveralEndpointsMergeOnTheCoarsestInterval() {
        TimeCurve.Range fine = new TimeCurve.Range(1024, List.of(new long[] {0, 8, 9}, new long[] {3072, 4, 6}));
        TimeCurve.Range coarse = new TimeCurve.Range(2048, List.of(new long[] {2048, 5, 10}));
        TimeCurve.Range m = TimeCurve.Range.merge(List.of(fine, coarse));
        assertEquals(2048, m.bucketNanos());
        assertEquals(2, m.points().size());
        assertArrayEquals(new long[] {0, 8, 9}, m.points().get(0));
        assertArrayEquals(new long[] {2048, 4, 10}, m.points().get(1), "3,072 lies in 2,048's interval");
        assertNull(TimeCurve.Range.merge(List.of()), "no endpoint kept a curve");
    }

    @Test
    void aLongPhaseDoublesTheIntervalUntilItFitsAndKeepsTheMaximum() {
        TimeCurve c = new TimeCurve();
        long max = 0;
        for (long t = 0; t < 10_000_000; t += 777) {
            long bytes = (t * 31) % 65_537;
            max = Math.max(max, bytes);
            c.record(t, bytes);
        }
        List<long[]> p = c.points();
        assertTrue(p.size() <= TimeCurve.BUCKETS, "bounded: " + p.size());
        assertTrue(c.bucketNanos() * TimeCurve.BUCKETS > 10_000_000 - 777, "the phase fits");
        assertEquals(max, p.stream().mapToLong(x -> x[1]).max().orElseThrow());
        for (int i = 1; i < p.size(); i++) {
            assertTrue(p.get(i)[0] > p.get(i - 1)[0], "in time order");
        }
    }

    @Test
    void aLinkKeepsACurveOnlyWithAFiniteBufferAndItsMaximumIsTheQueuesMaximum() {
        // 100 Gb/s: a 1,000-byte packet is 80 ns on the wire
        LinkSpec unlimited = new LinkSpec(1000, 100_000_000_000L, 4096, 0, LinkSpec.UNLIMITED);
        assertNull(new LinkModel(unlimited, 1).queueCurve());
        LinkModel l = new LinkModel(new LinkSpec(1000, 100_000_000_000L, 4096, 0, 3000), 1);
        for (int i = 0; i < 6; i++) {
            l.transmit(1000, 40, 10); // one on the wire, three wait, two find the buffer full
        }
        l.transmit(1000, 40, 100_000); // long after: the queue is empty again
        assertEquals(3000, l.maxQueueBytes());
        assertEquals(2, l.queueDrops());
        List<long[]> p = l.queueCurve().points();
        assertEquals(3000, p.stream().mapToLong(x -> x[1]).max().orElseThrow());
        assertEquals(0, p.get(p.size() - 1)[1], "an empty queue at the last packet");
        l.reset();
        assertTrue(l.queueCurve().points().isEmpty(), "a new phase starts a new curve");
    }

    @Test
    void aPacketJoiningAQueueAboveTheEcnThresholdIsMarkedAndCountedAndNothingElseChanges() {
        LinkSpec marking = new LinkSpec(1000, 100_000_000_000L, 4096, 0, LinkSpec.UNLIMITED, 2500);
        LinkSpec plain = new LinkSpec(1000, 100_000_000_000L, 4096, 0);
        LinkModel m = new LinkModel(marking, 1);
        LinkModel p = new LinkModel(plain, 1);
        for (int i = 0; i < 5; i++) {
            // queued 0 (on the wire), 1000, 2000, 3000, 4000 bytes: the last two above 2,500
            LinkModel.Transmission a = m.transmit(1000, 40, 10);
            LinkModel.Transmission b = p.transmit(1000, 40, 10);
            assertEquals(b.arrivalVt(), a.arrivalVt(), "marking delays nothing");
            assertEquals(b.copies(), a.copies(), "and drops nothing");
        }
        assertEquals(2, m.ecnMarks());
        assertEquals(0, p.ecnMarks());
        assertTrue(marking.ecnMarking());
        assertTrue(!plain.ecnMarking() && !marking.unbuffered().ecnMarking(), "a host's NIC marks nothing");
        m.reset();
        assertEquals(0, m.ecnMarks());
    }
}
