package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bitina.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/** One link direction in modelled time: queueing, serialisation, latency, and seeded loss, duplication and reordering. */
class LinkModelTest {
    private static final long MS = 1_000_000L;
    private static final long LATENCY = 2_000;
    /** 8 Gbit/s: one byte per nanosecond, so serialisation times read as byte counts. */
    private static final long BANDWIDTH = 8_000_000_000L;

    private static final LinkSpec SPEC = new LinkSpec(LATENCY, BANDWIDTH, 9000, 0.0);

    private static long serialisation(int bytes) {
        return bytes * 8L * 1_000_000_000L / BANDWIDTH;
    }

    @Test
    void aPacketOnAnIdleLinkArrivesAfterItsSerialisationAndTheLatency() {
        LinkModel link = new LinkModel(SPEC, 1);
        LinkModel.Transmission t = link.transmit(1500, 40, 10_000);
        assertEquals(1, t.copies());
        assertEquals(10_000 + serialisation(1500) + LATENCY, t.arrivalVt());
        assertEquals(0, t.wallDelayNanos());
        assertNull(t.dropReason());
    }

    @Test
    void aLinkDownAtAModelledTimeLosesOnlyWhatArrivesFromThenOn() {
        LinkModel link = new LinkModel(SPEC, 1);
        assertFalse(link.lostInFlight(30_000), "up: nothing is lost with it");
        link.setUp(false, 20_000);
        assertFalse(link.lostInFlight(19_999), "arrived before the link went down");
        assertTrue(link.lostInFlight(20_000));
        assertTrue(link.lostInFlight(25_000));
        link.setUp(true, 40_000);
        assertFalse(link.lostInFlight(45_000), "up again");
    }

    @Test
    void serialisationIsBytesOverBandwidthRoundedUp() {
        // 1 byte at 3 bit/ns takes 8/3 ns: the link is busy for 3
        LinkModel link = new LinkModel(new LinkSpec(0, 3_000_000_000L, 1500, 0.0), 1);
        assertEquals(3, link.transmit(1, 0, 0).arrivalVt());
        assertEquals(3 + 2667, link.transmit(1000, 0, 0).arrivalVt(), "8000 bits at 3 bit/ns after the first packet");
    }

    @Test
    void packetsSentWhileTheLinkIsBusyQueueBehindEachOther() {
        LinkModel link = new LinkModel(SPEC, 1);
        long first = link.transmit(1000, 40, 0).arrivalVt();
        long second = link.transmit(500, 40, 0).arrivalVt();
        long third = link.transmit(200, 40, 100).arrivalVt();
        assertEquals(serialisation(1000) + LATENCY, first);
        assertEquals(serialisation(1000) + serialisation(500) + LATENCY, second, "departs when the first has left");
        assertEquals(
                serialisation(1000) + serialisation(500) + serialisation(200) + LATENCY,
                third,
                "sent at 100 ns, still behind both");
        // once the queue has drained, a packet departs when it is sent
        long later = 1 * MS;
        assertEquals(
                later + serialisation(300) + LATENCY,
                link.transmit(300, 40, later).arrivalVt());
    }

    @Test
    void countersAddUpPacketsBytesAndHeaderBytes() {
        LinkModel link = new LinkModel(SPEC, 1);
        link.transmit(1000, 40, 0);
        link.transmit(64, 48, 0);
        assertEquals(2, link.packets());
        assertEquals(1064, link.bytes());
        assertEquals(88, link.headerBytes());
        assertEquals(0, link.lost());
    }

    @Test
    void aPacketOverTheMtuIsDroppedAndNeverOccupiesTheLink() {
        LinkModel link = new LinkModel(new LinkSpec(LATENCY, BANDWIDTH, 1500, 0.0), 1);
        LinkModel.Transmission t = link.transmit(1501, 40, 0);
        assertEquals(0, t.copies());
        assertEquals("packet of 1501 bytes exceeds the MTU of 1500", t.dropReason());
        assertEquals(1, link.lost());
        assertEquals(0, link.packets(), "never put on the link");
        assertEquals(
                serialisation(1500) + LATENCY,
                link.transmit(1500, 40, 0).arrivalVt(),
                "an MTU-sized packet fits and is not queued");
    }

    @Test
    void aDownLinkDropsEverythingUntilItIsUpAgain() {
        LinkModel link = new LinkModel(SPEC, 1);
        link.setUp(false);
        LinkModel.Transmission t = link.transmit(100, 40, 5);
        assertEquals(0, t.copies());
        assertEquals("link down", t.dropReason());
        assertEquals(1, link.lost());
        assertEquals(0, link.packets());
        link.setUp(true);
        assertTrue(link.isUp());
        assertEquals(5 + serialisation(100) + LATENCY, link.transmit(100, 40, 5).arrivalVt());
    }

    @Test
    void lossDropsAboutItsRateAndALostPacketStillTookItsTimeOnTheLink() {
        LinkModel link = new LinkModel(SPEC, 42);
        link.setLoss(0.25);
        int n = 20_000;
        int lost = 0;
        long expectedArrival = 0;
        for (int i = 0; i < n; i++) {
            LinkModel.Transmission t = link.transmit(100, 40, 0);
            expectedArrival += serialisation(100);
            assertEquals(expectedArrival + LATENCY, t.arrivalVt(), "lost or not, each packet was serialised");
            if (t.copies() == 0) {
                lost++;
                assertEquals("lost on the link", t.dropReason());
            }
        }
        assertEquals(lost, link.lost());
        assertEquals(n, link.packets(), "lost packets were sent: they count on the link");
        // 20 000 draws at 25 %: four standard deviations are 1.2 points
        assertEquals(0.25, (double) lost / n, 0.012);
    }

    @Test
    void theSpecsLossRateAppliesUntilAFaultChangesIt() {
        LinkModel link = new LinkModel(new LinkSpec(LATENCY, BANDWIDTH, 9000, 0.5), 7);
        for (int i = 0; i < 1000; i++) {
            link.transmit(100, 40, 0);
        }
        assertTrue(link.lost() > 400 && link.lost() < 600, "about half lost: " + link.lost());
        link.setLoss(0);
        long before = link.lost();
        for (int i = 0; i < 1000; i++) {
            link.transmit(100, 40, 0);
        }
        assertEquals(before, link.lost(), "a loss rate of 0 loses nothing");
    }

    @Test
    void duplicationSendsTwoCopiesAtAboutItsRate() {
        LinkModel link = new LinkModel(SPEC, 3);
        link.setDuplicate(0.3);
        int n = 20_000;
        int twice = 0;
        for (int i = 0; i < n; i++) {
            int copies = link.transmit(100, 40, 0).copies();
            assertTrue(copies == 1 || copies == 2);
            twice += copies - 1;
        }
        assertEquals(0.3, (double) twice / n, 0.013);
        assertEquals(n, link.packets(), "a duplicate is made past the link: it is counted once");
    }

    @Test
    void aReorderedPacketIsHeldBackOneToThreeMillisecondsOnTopOfAnyWallDelay() {
        LinkModel link = new LinkModel(SPEC, 5);
        link.setReorder(1.0);
        link.setWallDelayNanos(4 * MS);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 2000; i++) {
            long hold = link.transmit(100, 40, 0).wallDelayNanos();
            min = Math.min(min, hold);
            max = Math.max(max, hold);
        }
        assertTrue(min >= 5 * MS && max < 7 * MS, "holds in [5 ms, 7 ms): " + min + ".." + max);
        assertTrue(max - min > MS, "the hold varies, so packets overtake each other: " + min + ".." + max);
        link.setReorder(0);
        assertEquals(
                4 * MS,
                link.transmit(100, 40, 0).wallDelayNanos(),
                "without reordering only the delay fault holds a packet");
    }

    private static List<LinkModel.Transmission> lossyRun(long seed) {
        LinkModel link = new LinkModel(SPEC, seed);
        link.setLoss(0.2);
        link.setDuplicate(0.2);
        link.setReorder(0.2);
        List<LinkModel.Transmission> out = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            out.add(link.transmit(64 + i % 1000, 40, i * 100L));
        }
        return out;
    }

    @Test
    void oneSeedRepeatsTheSameLossDuplicationAndReorderingAnotherDoesNot() {
        List<LinkModel.Transmission> a = lossyRun(11);
        assertEquals(a, lossyRun(11), "a run repeats exactly for its seed");
        assertNotEquals(a, lossyRun(12));
        assertTrue(
                a.stream().anyMatch(t -> t.copies() == 0)
                        && a.stream().anyMatch(t -> t.copies() == 2)
                        && a.stream().anyMatch(t -> t.wallDelayNanos() > 0),
                "all three faults happened in the run compared");
    }

    @Test
    void resetZeroesTheCountersAndEmptiesTheQueue() {
        LinkModel link = new LinkModel(SPEC, 1);
        link.setLoss(0.5);
        for (int i = 0; i < 100; i++) {
            link.transmit(1000, 40, 0);
        }
        link.reset();
        assertEquals(0, link.packets());
        assertEquals(0, link.bytes());
        assertEquals(0, link.headerBytes());
        assertEquals(0, link.lost());
        link.setLoss(0);
        assertEquals(
                serialisation(1000) + LATENCY,
                link.transmit(1000, 40, 0).arrivalVt(),
                "nothing is queued ahead any more");
    }

    @Test
    void redMarksBetweenKminAndKmaxWithARisingProbabilityEveryPacketAboveAndNeverAnAck() {
        // 1000-byte packets into a queue that only grows: the depth a packet joins rises by 1000 each time
        LinkSpec red = new LinkSpec(LATENCY, BANDWIDTH, 9000, 0.0, LinkSpec.UNLIMITED, 10_000, 30_000, 0.5);
        int trials = 4000;
        int marked = 0;
        int markedAbove = 0;
        int markedBelow = 0;
        for (int seed = 0; seed < trials; seed++) {
            LinkModel link = new LinkModel(red, seed);
            link.transmit(1000, 40, 0); // on the wire: the queue starts behind it
            for (int q = 1; q <= 40; q++) {
                boolean m = link.transmit(1000, 40, 0).marked();
                long depth = q * 1000L;
                if (depth <= 10_000) {
                    markedBelow += m ? 1 : 0;
                } else if (depth > 30_000) {
                    markedAbove += m ? 1 : 0;
                } else if (depth == 20_000) {
                    marked += m ? 1 : 0; // halfway: pmax / 2
                }
            }
            assertFalse(link.transmit(1000, 40, 0, false).marked(), "an ACK's class is never marked");
        }
        assertEquals(0, markedBelow, "nothing at or below kmin");
        assertEquals(10 * trials, markedAbove, "everything above kmax");
        // 0.25 of 4000 draws: 1000, sd 27; 5 sd either way
        assertTrue(Math.abs(marked - 1000) < 140, "halfway between kmin and kmax: " + marked);
    }

    @Test
    void markingLeavesTheLossDrawsAsTheyWere() {
        LinkSpec lossy = new LinkSpec(LATENCY, BANDWIDTH, 9000, 0.3, LinkSpec.UNLIMITED);
        LinkModel plain = new LinkModel(lossy, 7);
        LinkModel red = new LinkModel(lossy.withRed(1000, 50_000, 0.5), 7);
        for (int i = 0; i < 200; i++) {
            assertEquals(
                    plain.transmit(1000, 40, 0).copies(),
                    red.transmit(1000, 40, 0).copies(),
                    "packet " + i);
        }
    }
}
