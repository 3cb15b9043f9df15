package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.bitina.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/**
 * The egress buffer (T3): drop-tail over the bytes waiting behind the packet on the wire, as ns-3's
 * DropTailQueue under a PointToPointNetDevice.
 */
class LinkBufferTest {
    private static final long LATENCY = 1_000;
    /** 8 Gbit/s: one byte per nanosecond, so serialisation times read as byte counts. */
    private static final long BANDWIDTH = 8_000_000_000L;

    private static LinkModel link(long buffer) {
        return new LinkModel(new LinkSpec(LATENCY, BANDWIDTH, 9000, 0.0, buffer), 1);
    }

    @Test
    void thePacketOnTheWireDoesNotCountAgainstTheBuffer() {
        LinkModel link = link(1000);
        // the first goes straight on the wire; the second waits and fills the buffer exactly
        assertEquals(1, link.transmit(1000, 40, 0).copies());
        assertEquals(1, link.transmit(1000, 40, 0).copies());
        assertEquals(1000, link.queuedBytes(0));
        LinkModel.Transmission third = link.transmit(1, 40, 0);
        assertEquals(0, third.copies(), "one byte more than the buffer holds");
        assertEquals(LinkModel.QUEUE_FULL, third.dropReason());
        assertEquals(1, link.queueDrops());
        assertEquals(1, link.lost());
        assertEquals(1000, link.maxQueueBytes());
        assertEquals(2, link.packets(), "a dropped packet is never serialised");
        assertEquals(2000, link.bytes());
    }

    @Test
    void aDroppedPacketTakesNoTimeOnTheLink() {
        LinkModel link = link(1000);
        link.transmit(1000, 40, 0);
        long second = link.transmit(1000, 40, 0).arrivalVt();
        link.transmit(500, 40, 0);
        // the second's serialisation starts at 1000 ns: the queue is empty then, so this one waits alone
        LinkModel.Transmission later = link.transmit(500, 40, 1000);
        assertEquals(1, later.copies());
        assertEquals(second + 500, later.arrivalVt(), "right behind the second, not behind the dropped one");
    }

    @Test
    void theQueueDrainsAsItsPacketsStartOnTheWire() {
        LinkModel link = link(1500);
        link.transmit(1000, 40, 0); // on the wire 0..1000
        link.transmit(1000, 40, 0); // waits, on the wire 1000..2000
        link.transmit(500, 40, 0); // waits, on the wire 2000..2500
        assertEquals(1500, link.queuedBytes(0));
        assertEquals(1500, link.queuedBytes(999));
        assertEquals(500, link.queuedBytes(1000), "the second has started");
        // at 1000 ns 500 bytes wait: 1000 more fit, 1001 do not
        assertEquals(0, link.transmit(1001, 40, 1000).copies());
        assertEquals(1, link.transmit(1000, 40, 1000).copies());
        assertEquals(1500, link.maxQueueBytes());
        assertEquals(1000, link.queuedBytes(2000), "only the last waits");
        assertEquals(0, link.queuedBytes(2500));
    }

    @Test
    void anUnlimitedBufferNeverDropsAndStillMeasuresItsDepth() {
        LinkModel link = link(LinkSpec.UNLIMITED);
        for (int i = 0; i < 1000; i++) {
            assertNull(link.transmit(4000, 40, 0).dropReason());
        }
        assertEquals(0, link.queueDrops());
        assertEquals(999L * 4000, link.maxQueueBytes(), "all but the first wait");
    }

    @Test
    void aPacketOnAnIdleLinkIsNeverDroppedWhateverItsSize() {
        LinkModel link = link(100);
        assertEquals(1, link.transmit(4000, 40, 0).copies(), "nothing waits: it goes on the wire");
        assertEquals(1, link.transmit(4000, 40, 10_000).copies(), "idle again by then");
        assertEquals(0, link.queueDrops());
    }

    @Test
    void resetEmptiesTheQueueAndItsCounters() {
        LinkModel link = link(1000);
        link.transmit(1000, 40, 0);
        link.transmit(1000, 40, 0);
        link.transmit(1000, 40, 0);
        link.reset();
        assertEquals(0, link.queueDrops());
        assertEquals(0, link.maxQueueBytes());
        assertEquals(0, link.queuedBytes(0));
        assertEquals(1, link.transmit(1000, 40, 0).copies());
        assertEquals(1, link.transmit(1000, 40, 0).copies(), "the queue was emptied: it fits again");
    }
}
