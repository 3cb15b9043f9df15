package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/** An egress queue's bounded depth curve (T3): the most bytes per interval, coarser as a phase grows. */
class QueueCurveTest {
    @Test
    void keepsTheMostBytesOfEachIntervalAndLeavesOutIntervalsWithoutAPacket() {
        QueueCurve c = new QueueCurve();
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
    void aLongPhaseDoublesTheIntervalUntilItFitsAndKeepsTheMaximum() {
        QueueCurve c = new QueueCurve();
        long max = 0;
        for (long t = 0; t < 10_000_000; t += 777) {
            long bytes = (t * 31) % 65_537;
            max = Math.max(max, bytes);
            c.record(t, bytes);
        }
        List<long[]> p = c.points();
        assertTrue(p.size() <= QueueCurve.BUCKETS, "bounded: " + p.size());
        assertTrue(c.bucketNanos() * QueueCurve.BUCKETS > 10_000_000 - 777, "the phase fits");
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
