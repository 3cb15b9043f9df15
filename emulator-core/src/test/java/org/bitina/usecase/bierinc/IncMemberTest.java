package org.bitina.usecase.bierinc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The BFIR side of seed 001 without a network: parts, retransmissions that overtake aggregates, asking again, finality. */
class IncMemberTest {
    private static final long MS = 1_000_000L;
    private final BitSpace space = new BitSpace(List.of("w1", "w2", "w3", "w4"));
    private final DataSpec data = new DataSpec(64, ElementType.INT32, ReductionOp.SUM, 64, 4, 5, 1024);
    private final AllReducePlan base = AllReducePlan.builder()
            .jobName("j")
            .mode(Mode.INA)
            .tenant(1)
            .wireJob(1)
            .space(space)
            .members(List.of("w1", "w2", "w3", "w4"))
            .data(data)
            .timeoutNanos(10 * MS)
            .seed(5)
            .build();
    private final AllReduceData values = new AllReduceData(data);

    private IncPlan plan(IncPlan.Collective c, List<String> owners) {
        return new IncPlan(base, c, space, Map.of(), owners, 80 * MS);
    }

    /** The network's reduction of {@code members}' shares of chunk 0, to w1 (BFIR-id 0). */
    private Frame part(int flags, int... members) {
        Payload sum = null;
        for (int m : members) {
            Payload p = values.payload(m, 0);
            if (sum == null) {
                sum = p.copy();
            } else {
                ReductionOp.SUM.apply(sum, p);
            }
        }
        InaHeader h = InaHeader.of(PacketType.INC_REVERSE, 1, 1, 0)
                .withOp(ReductionOp.SUM)
                .withDestination(0)
                .withSource(members[0])
                .withFlags(flags);
        return new Frame(new InaPacket(h, FlatBitmap.of(4, members), sum), "w1", 0);
    }

    @Test
    void aOneMemberJobEndsAtModelledTimeZeroNotAtTheWallClock() {
        BitSpace one = new BitSpace(List.of("w1"));
        AllReducePlan alone = AllReducePlan.builder()
                .jobName("j")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(1)
                .space(one)
                .members(List.of("w1"))
                .data(data)
                .timeoutNanos(10 * MS)
                .seed(5)
                .build();
        IncMember w1 = new IncMember(
                new IncPlan(alone, IncPlan.Collective.ALLREDUCE, one, Map.of(), List.of("w1"), 80 * MS), "w1");
        w1.start(1_078_960_368_000L);
        assertTrue(w1.done());
        assertEquals(0, w1.report().lastVt(), "nothing crossed a link: no modelled time passed");
        assertEquals(w1.report().chunks(), w1.report().verifiedChunks());
    }

    @Test
    void anAggregateReplacesTheRetransmittedSharesItHoldsAndTheResultIsFinal() {
        IncMember w1 = new IncMember(plan(IncPlan.Collective.ALLREDUCE, List.of("w1")), "w1");
        List<EndpointDriver.Out> setup = w1.start(0);
        assertEquals(1, setup.size());
        assertEquals(-1, setup.get(0).frame().packet().header().seq(), "the first forward packet builds the tree");
        // w3's share again, outside the tree, overtakes the aggregate that already holds it
        assertTrue(w1.onDeliver(part(Flags.RETRANSMIT, 2), MS).isEmpty());
        assertTrue(w1.onDeliver(part(0, 3), MS).isEmpty());
        List<EndpointDriver.Out> result = w1.onDeliver(part(0, 1, 2), 2 * MS);
        assertEquals(1, result.size(), "complete: the result goes down the tree");
        InaPacket r = result.get(0).frame().packet();
        assertEquals(PacketType.INC_FORWARD, r.header().type());
        assertTrue(r.header().has(Flags.LAST), "a complete result is final");
        assertNull(r.provenance(), "complete: no provenance needed");
        DriverReport rep = w1.report();
        assertEquals(List.of(), rep.mismatches(), "w3 counted once, and the sum verifies");
        assertEquals(1, rep.verifiedChunks());
        assertTrue(w1.done());
    }

    @Test
    void twoAggregatesThatOverlapAreNamedNotAdded() {
        IncMember w1 = new IncMember(plan(IncPlan.Collective.ALLREDUCE, List.of("w1")), "w1");
        w1.start(0);
        w1.onDeliver(part(0, 1, 2), MS);
        w1.onDeliver(part(0, 2, 3), MS);
        assertTrue(
                w1.report().mismatches().get(0).contains("overlaps"),
                w1.report().mismatches().toString());
        assertFalse(w1.done());
    }

    @Test
    void theOwnerAsksTheMissingAgainThenSettlesPartialNamingThem() {
        IncMember w1 = new IncMember(plan(IncPlan.Collective.ALLREDUCE, List.of("w1")), "w1");
        w1.start(0);
        w1.onDeliver(part(Flags.PARTIAL, 1, 2), 5 * MS);
        assertFalse(w1.done(), "a partial from the network's timers is not final: the owner has not given up");
        long at = w1.nextDeadline();
        assertEquals(5 * MS + 80 * MS, at, "a wait after the first part");
        List<EndpointDriver.Out> ask = w1.onTimer(at);
        InaPacket request = ask.get(ask.size() - 1).frame().packet();
        assertTrue(request.header().has(Flags.RETRANSMIT));
        assertEquals(0, request.payload().elements(), "a request carries no data");
        assertEquals(FlatBitmap.of(4, 3), request.endpoints(), "only w4 is asked");
        for (int i = 0; i < RecoveryPolicy.INC_ASKS - 1; i++) {
            w1.onTimer(w1.nextDeadline());
        }
        List<EndpointDriver.Out> settle = w1.onTimer(w1.nextDeadline());
        InaPacket last = settle.get(0).frame().packet();
        assertTrue(last.header().has(Flags.LAST) && last.header().has(Flags.PROVENANCE));
        EndpointSet holds = last.provenance();
        assertEquals(
                FlatBitmap.of(4, 0, 1, 2), holds, "B4: the provenance leaves out exactly the BFER that did not answer");
        assertTrue(w1.done());
        assertEquals(List.of("w4"), w1.report().partialChunks().get(0).missing());
        assertEquals(List.of(), w1.report().mismatches());
    }

    @Test
    void aMemberAnswersARequestForAShareItSentAndWaitsForATreeForOneItDidNot() {
        IncMember w2 = new IncMember(plan(IncPlan.Collective.ALLREDUCE, List.of("w1")), "w2");
        w2.start(0);
        InaHeader ask =
                InaHeader.of(PacketType.INC_FORWARD, 1, 1, 0).withSource(0).withFlags(Flags.RETRANSMIT);
        List<EndpointDriver.Out> before =
                w2.onDeliver(new Frame(new InaPacket(ask, FlatBitmap.of(4, 1), Payload.EMPTY), null, 0), MS);
        assertEquals(1, before.size(), "no tree seen yet: the request stands for it, the share goes in its turn");
        assertFalse(before.get(0).frame().packet().header().has(Flags.RETRANSMIT));
        List<EndpointDriver.Out> again =
                w2.onDeliver(new Frame(new InaPacket(ask, FlatBitmap.of(4, 1), Payload.EMPTY), null, 0), MS);
        assertTrue(
                again.get(0).frame().packet().header().has(Flags.RETRANSMIT), "sent already: it may be lost, so again");
    }

    @Test
    void reduceEndsAtTheRootAndBroadcastSendsTheRootsData() {
        IncMember root = new IncMember(plan(IncPlan.Collective.REDUCE, List.of("w1")), "w1");
        root.start(0);
        assertTrue(root.onDeliver(part(0, 1, 2, 3), MS).isEmpty(), "a reduce broadcasts nothing");
        assertTrue(root.done());
        assertEquals(1, root.report().verifiedChunks());
        assertTrue(
                new IncMember(plan(IncPlan.Collective.REDUCE, List.of("w1")), "w2").done(),
                "only the root waits for a result");

        IncMember from = new IncMember(plan(IncPlan.Collective.BROADCAST, List.of("w1")), "w1");
        List<EndpointDriver.Out> out = from.start(0);
        assertEquals(1, out.size());
        IncMember to = new IncMember(plan(IncPlan.Collective.BROADCAST, List.of("w1")), "w3");
        to.start(0);
        to.onDeliver(new Frame(out.get(0).frame().packet().withEndpoints(FlatBitmap.of(4, 2)), null, 0), MS);
        assertTrue(to.done());
        assertEquals(1, to.report().verifiedChunks(), "w3 holds w1's data, checked against it");
    }

    @Test
    void anOwnerThatHearsNothingSendsItsFirstForwardPacketAgainBackedOffUntilAPartComes() {
        // a path model: the first wait 1 ms, doubled up to 80 ms (IncPlan.wait)
        IncMember w1 = new IncMember(
                new IncPlan(base, IncPlan.Collective.ALLREDUCE, space, Map.of(), List.of("w1"), 80 * MS, MS), "w1");
        w1.start(0);
        // the first forward packet was lost on w1's own uplink: nobody has the tree, nobody sends
        assertEquals(MS, w1.nextDeadline(), "the first wait, not the longest one");
        List<EndpointDriver.Out> again = w1.onTimer(MS);
        assertEquals(1, again.size(), "the tree's first packet alone, no request");
        assertEquals(-1, again.get(0).frame().packet().header().seq());
        assertEquals(MS + 2 * MS, w1.nextDeadline(), "backed off");
        w1.onDeliver(part(0, 1, 2), 2 * MS);
        assertEquals(2 * MS + MS, w1.nextDeadline(), "a part came: the tree exists, the asks take over");
    }

    @Test
    void withoutAPathModelAnOwnerThatHearsNothingWaitsTheLongestWaitAsBefore() {
        IncMember w1 = new IncMember(plan(IncPlan.Collective.ALLREDUCE, List.of("w1")), "w1");
        w1.start(0);
        assertEquals(80 * MS, w1.nextDeadline());
    }
}
