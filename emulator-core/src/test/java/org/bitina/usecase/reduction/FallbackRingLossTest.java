package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Mode;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.EndpointDriver.Out;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * S6's fallback ring under loss (L1): a ring packet that is lost goes again after the timeout, a
 * copy of one already taken is acknowledged and never added twice, and a member that gets no
 * acknowledgement after {@link RecoveryPolicy#RING_SENDS} sends gives up on the chunk and says so.
 * Three members, chunk 0: its owner is w1, w2 starts, the sum goes w2 -> w3 -> w1, then round.
 */
class FallbackRingLossTest {
    private static final long MS = 1_000_000L;
    private static final long RTO = 10 * MS; // no path model here: the completion timeout
    private final List<String> members = List.of("w1", "w2", "w3");
    private final BitSpace space = new BitSpace(members);
    private final AllReducePlan plan = AllReducePlan.builder()
            .jobName("j")
            .mode(Mode.INA)
            .tenant(1)
            .wireJob(1)
            .space(space)
            .members(members)
            .data(new DataSpec(1, ElementType.FLOAT32, ReductionOp.SUM, 1, 1, 3, 1024))
            .uplink(Map.of("w1", "s1", "w2", "s1", "w3", "s1"))
            .timeoutNanos(RTO)
            .seed(3)
            .build();
    private final EndpointSet all = space.setOf(members);
    private final FallbackRing w1 = new FallbackRing(plan, "w1", 1);
    private final FallbackRing w2 = new FallbackRing(plan, "w2", 1);
    private final FallbackRing w3 = new FallbackRing(plan, "w3", 1);

    private static Payload v(float x) {
        return Payload.of(new float[] {x});
    }

    private static InaPacket only(List<Out> out, String to) {
        List<InaPacket> ps = out.stream()
                .filter(o -> o.frame().destination().equals(to))
                .map(o -> o.frame().packet())
                .toList();
        assertEquals(1, ps.size(), "one packet to " + to + " in " + out);
        return ps.get(0);
    }

    private static boolean isAck(InaPacket p) {
        return p.payload().elementType() == ElementType.NONE;
    }

    @Test
    void aLostRingPacketGoesAgainAndItsCopyIsNeverAddedTwice() {
        FallbackRing.Step s = w2.failed(0, all, v(2), 0, 0);
        InaPacket toW3 = only(s.out(), "w3");
        FallbackRing.Step at3 = w3.onPacket(toW3, v(3), 0, 0);
        assertTrue(isAck(only(at3.out(), "w2")));
        w2.onPacket(only(at3.out(), "w2"), v(2), 0, 0);
        InaPacket toW1 = at3.out().stream()
                .map(Out::frame)
                .filter(f -> f.destination().equals("w1"))
                .findFirst()
                .orElseThrow()
                .packet();
        // w3's packet to w1 is lost: w3 sends it again, flagged, after the timeout
        assertEquals(RTO, w3.nextDeadline());
        FallbackRing.Retries again = w3.onTimer(RTO, RTO);
        assertEquals(List.of(), again.gaveUp());
        InaPacket resent = only(again.out(), "w1");
        assertTrue(resent.header().has(Flags.RETRANSMIT));
        assertEquals(toW1.endpoints(), resent.endpoints());
        FallbackRing.Step at1 = w1.onPacket(resent, v(1), RTO, RTO);
        assertNotNull(at1.result());
        assertEquals(6f, ((Payload.Float32) at1.result().payload()).values()[0], "1 + 2 + 3");
        // w1's acknowledgement is lost too: the copy that comes is acknowledged again, not added again
        FallbackRing.Step copy = w1.onPacket(resent, v(1), 2 * RTO, 2 * RTO);
        assertNull(copy.result());
        assertNull(copy.problem());
        assertEquals(1, copy.out().size());
        assertTrue(isAck(only(copy.out(), "w3")));
        w3.onPacket(only(copy.out(), "w3"), v(3), 2 * RTO, 2 * RTO);
        assertEquals(Long.MAX_VALUE, w3.nextDeadline(), "acknowledged: nothing more to send");
        // the all-gather goes on from w1 and reaches every member once
        FallbackRing.Step g2 = w2.onPacket(only(at1.out(), "w2"), v(2), RTO, RTO);
        assertEquals(6f, ((Payload.Float32) g2.result().payload()).values()[0]);
        FallbackRing.Step g3 = w3.onPacket(only(g2.out(), "w3"), v(3), RTO, RTO);
        assertEquals(6f, ((Payload.Float32) g3.result().payload()).values()[0]);
        assertNull(w3.onPacket(only(g2.out(), "w3"), v(3), RTO, RTO).result(), "a copy of the sum: taken once");
    }

    @Test
    void aMemberWhoseNextNeverAnswersGivesUpOnTheChunkAndSaysSo() {
        w2.failed(0, all, v(2), 0, 0);
        long t = 0;
        int sends = 1;
        FallbackRing.Retries r;
        do {
            t = w2.nextDeadline();
            r = w2.onTimer(t, t);
            sends += r.out().size();
        } while (r.gaveUp().isEmpty());
        assertEquals(RecoveryPolicy.RING_SENDS, sends);
        assertEquals(
                List.of(new FallbackRing.GaveUp(
                        0, "chunk 0: no result after 16 sends of its fallback ring packet to w3")),
                r.gaveUp());
        assertEquals(Long.MAX_VALUE, w2.nextDeadline());
        assertTrue(t > 16 * RTO, "with backoff: " + t);
    }
}
