package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;

/** The optional switch realism: processing before egress, and one adder of finite rate. */
class SwitchTimingTest {
    private static InaPacket packet(PacketType type, int elements) {
        return new InaPacket(InaHeader.of(type, 1, 1, 0), FlatBitmap.of(4, 0), Payload.of(new float[elements]));
    }

    @Test
    void aPacketThroughASwitchWithProcessingLeavesThatMuchLater() {
        SwitchTiming t = new SwitchTiming(new SwitchTiming.Spec(300, 0));
        long ready = t.added(5_000, packet(PacketType.CONTRIBUTION, 256));
        assertEquals(5_000, ready, "an unlimited adder takes no time");
        assertEquals(5_300, t.egress(ready));
        assertEquals(7_300, t.egress(t.added(7_000, packet(PacketType.RESULT, 256))));
    }

    @Test
    void twoAggregationsBackToBackQueueOnTheAdder() {
        double rate = 3.2e12;
        SwitchTiming t = new SwitchTiming(new SwitchTiming.Spec(0, rate));
        int bytes = 256 * 4;
        long add = (long) Math.ceil(bytes * 8 * 1e9 / rate);
        assertTrue(add > 0);
        long first = t.added(1_000, packet(PacketType.CONTRIBUTION, 256));
        long second = t.added(1_000, packet(PacketType.CONTRIBUTION, 256));
        assertEquals(1_000 + add, first);
        assertEquals(1_000 + 2 * add, second, "the second waits for the first");
        // one arriving after the adder is free starts at once
        assertEquals(10_000 + add, t.added(10_000, packet(PacketType.COMBINE, 256)));
        // a packet travelling away from the root is replicated, not added
        assertEquals(10_001, t.added(10_001, packet(PacketType.RESULT, 256)));
        t.reset();
        assertEquals(add, t.added(0, packet(PacketType.INC_REVERSE, 256)), "a new phase finds the adder free");
    }

    @Test
    void aFreeSpecChangesNoTimeAndANegativeOneIsRefused() {
        SwitchTiming t = new SwitchTiming(SwitchTiming.Spec.FREE);
        assertTrue(SwitchTiming.Spec.FREE.free());
        assertEquals(42, t.egress(t.added(42, packet(PacketType.CONTRIBUTION, 256))));
        assertThrows(IllegalArgumentException.class, () -> new SwitchTiming.Spec(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SwitchTiming.Spec(0, -1));
    }
}
