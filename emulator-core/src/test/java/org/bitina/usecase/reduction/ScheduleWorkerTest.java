package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Straggler;
import org.bitina.wire.ElementType;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** A ring's members run by {@link ScheduleWorker} without a network: window, duplicates, loss, stragglers, S6's absence. */
class ScheduleWorkerTest {
    private static final long MS = 1_000_000L;
    private static final List<String> MEMBERS = List.of("w1", "w2", "w3");
    private final BitSpace space = new BitSpace(MEMBERS);

    /** Five chunks over three members: owners 0, 1, 2, 0, 1. */
    private static DataSpec data(int window) {
        return new DataSpec(5 * 16, ElementType.INT32, ReductionOp.SUM, 16, window, 11, 1 << 16);
    }

    private AllReducePlan plan(int window, Map<String, Straggler> stragglers, Set<String> silent) {
        return AllReducePlan.builder()
                .jobName("j")
                .mode(Mode.of("ring"))
                .tenant(1)
                .wireJob(1_000_001)
                .space(space)
                .members(MEMBERS)
                .data(data(window))
                .timeoutNanos(10 * MS)
                .stragglers(stragglers)
                .silent(silent)
                .seed(3)
                .build();
    }

    /** 60 chunks; DCQCN's published defaults but for the CNP interval, 10 us; every member's NIC at {@code lineBps}. */
    private AllReducePlan dcqcn(int window, long lineBps) {
        Dcqcn.Settings d = Dcqcn.Settings.DEFAULTS;
        Dcqcn.Settings s = new Dcqcn.Settings(
                d.kminBytes(),
                d.kmaxBytes(),
                d.pmax(),
                10_000,
                d.g(),
                d.alphaNanos(),
                d.decreaseNanos(),
                d.increaseNanos(),
                d.fastRecovery(),
                d.rateAiBps(),
                d.rateHaiBps(),
                d.minRateBps(),
                d.rateOnFirstCnp(),
                d.clampTarget());
        Map<String, Long> rates = new java.util.HashMap<>();
        MEMBERS.forEach(m -> rates.put(m, lineBps));
        return plan(window, Map.of(), Set.of()).toBuilder()
                .data(new DataSpec(60 * 16, ElementType.INT32, ReductionOp.SUM, 16, window, 11, 1 << 16))
                .congestion(s, rates)
                .build();
    }

    /** The data frames {@code from} sent to {@code to}, in order. */
    private static List<Frame> sends(ScheduleNet net, String from, String to) {
        int src = MEMBERS.indexOf(from);
        return net.sent.stream()
                .filter(f -> f.destination().equals(to) && f.packet().header().source() == src)
                .toList();
    }

    @Test
    void underDcqcnAMemberPacesEachPeerAtItsQueuePairsRateFromLineRate() {
        long line = 200_000_000L; // 5 ns a bit: a packet's serialisation outlasts the net's 1 us latency
        AllReducePlan dcqcn = dcqcn(5, line);
        ScheduleNet paced = new ScheduleNet(dcqcn, 0, 0, 1).run(Long.MAX_VALUE);
        assertAllVerified(paced);
        List<Frame> out = sends(paced, "w1", "w2");
        assertTrue(out.size() >= 60, "w1 sends its ring successor every chunk at least once: " + out.size());
        for (int i = 1; i < out.size(); i++) {
            long bits = 8L * PacketCodec.encodedSize(out.get(i - 1).packet());
            assertTrue(
                    out.get(i).vt() - out.get(i - 1).vt() >= 5 * bits,
                    "packet " + i + " leaves one serialisation at line rate after the one before");
        }
        // the same ring without congestion control sends back to back
        AllReducePlan plain = dcqcn.toBuilder().congestion(null, Map.of()).build();
        List<Frame> free = sends(new ScheduleNet(plain, 0, 0, 1).run(Long.MAX_VALUE), "w1", "w2");
        boolean together = false;
        for (int i = 1; i < free.size(); i++) {
            together |= free.get(i).vt() - free.get(i - 1).vt()
                    < 5L * 8 * PacketCodec.encodedSize(free.get(i - 1).packet());
        }
        assertTrue(together, "without pacing some packets leave closer than a serialisation");
        assertEquals(0, paced.stat("rateCuts"), "no mark, no cut");
    }

    @Test
    void underDcqcnAMarkedPacketBringsACnpOnItsAcknowledgementAtMostOncePerIntervalAndTheSenderSlowsDown() {
        long line = 100_000_000_000L;
        ScheduleNet marked = new ScheduleNet(dcqcn(2, line), 0, 0, 1).marking().run(Long.MAX_VALUE);
        assertAllVerified(marked);
        long data = marked.dataFrames;
        assertEquals(data, marked.stat("ecnMarked"), "every data packet arrived marked");
        long cnps = marked.stat("cnpsSent");
        assertTrue(cnps > 0 && cnps < data, "at most one CNP per peer per 10 us: " + cnps + " of " + data);
        assertEquals(cnps, marked.stat("cnpsTaken"), "no loss: every CNP reaches its sender");
        assertTrue(marked.stat("rateCuts") > 0, "the senders cut their rates");
        long lowest = marked.workers.values().stream()
                .mapToLong(w -> w.report().stats().get("lowestRateBps"))
                .min()
                .orElseThrow();
        assertTrue(lowest < line, "a queue pair ran below line rate: " + lowest);
        DriverReport r = marked.workers.get("w1").report();
        assertEquals(
                r.stats().get("lowestRateBps"),
                r.pace().points().stream().mapToLong(p -> p[1]).min().orElseThrow(),
                "the rate curve's least is the lowest rate");
        ScheduleNet unmarked = new ScheduleNet(dcqcn(2, line), 0, 0, 1).run(Long.MAX_VALUE);
        assertEquals(0, unmarked.stat("cnpsSent"));
        assertTrue(marked.now > unmarked.now, "the slowed senders finish later: " + marked.now + " " + unmarked.now);
    }

    private static void assertAllVerified(ScheduleNet net) {
        for (ScheduleWorker w : net.workers.values()) {
            DriverReport r = w.report();
            assertTrue(w.done(), r.endpoint());
            assertEquals(List.of(), r.mismatches(), r.endpoint());
            assertEquals(r.chunks(), r.verifiedChunks(), r.endpoint());
        }
    }

    @Test
    void threeMembersEachEndWithEveryChunkReducedAndVerifiedAndEveryDataPacketAcknowledged() {
        ScheduleNet net = new ScheduleNet(plan(2, Map.of(), Set.of()), 0, 0, 1).run(Long.MAX_VALUE);
        assertAllVerified(net);
        assertEquals(5 * 2 * (MEMBERS.size() - 1), net.dataFrames, "every chunk crosses 2(N-1) ring links");
        assertEquals(net.dataFrames, net.ackFrames, "one acknowledgement per data packet");
        assertEquals(0, net.stat("retransmissions"), "no timer fires without a loss");
    }

    @Test
    void reduceScatterStartsAtTheOwnersSuccessorWithOnlyItsOwnContribution() {
        AllReducePlan plan = plan(5, Map.of(), Set.of());
        for (String m : MEMBERS) {
            int index = MEMBERS.indexOf(m);
            List<EndpointDriver.Out> out = new ScheduleWorker(plan, m).start(0);
            List<Long> chunks =
                    out.stream().map(o -> o.frame().packet().header().seq()).toList();
            List<Long> expected = new ArrayList<>();
            for (int c = 0; c < 5; c++) {
                if ((c % MEMBERS.size() + 1) % MEMBERS.size() == index) {
                    expected.add((long) c);
                }
            }
            assertEquals(expected, chunks, m + " starts the chunks of its predecessor");
            String successor = MEMBERS.get((index + 1) % MEMBERS.size());
            for (EndpointDriver.Out o : out) {
                InaPacket p = o.frame().packet();
                assertEquals(successor, o.frame().destination());
                assertEquals(PacketType.UNICAST, p.header().type());
                assertEquals(1_000_001, p.header().job());
                assertEquals(FlatBitmap.of(3, index), p.endpoints(), "only its own contribution");
            }
        }
    }

    @Test
    void theWindowBoundsThePacketsInFlight() {
        for (int window : new int[] {1, 2, 3}) {
            ScheduleNet net = new ScheduleNet(plan(window, Map.of(), Set.of()), 0, 0, 1).run(Long.MAX_VALUE);
            assertAllVerified(net);
            for (String m : MEMBERS) {
                assertTrue(net.mostInFlight.get(m) <= window, m + " window " + window + ": " + net.mostInFlight);
            }
            assertTrue(window > 1 || net.mostInFlight.values().stream().allMatch(x -> x == 1));
        }
        // window 1: the lowest chunk due goes first
        ScheduleNet net = new ScheduleNet(plan(1, Map.of(), Set.of()), 0, 0, 1);
        List<Long> firstSends = new ArrayList<>();
        for (EndpointDriver.Out o : net.workers.get("w2").start(0)) {
            firstSends.add(o.frame().packet().header().seq());
        }
        assertEquals(List.of(0L), firstSends, "w2 starts chunk 0 (owned by w1) and nothing of chunk 3 yet");
        net = new ScheduleNet(plan(1, Map.of(), Set.of()), 0, 0, 1).run(Long.MAX_VALUE);
        assertAllVerified(net);
        AllReducePlan wide = plan(5, Map.of(), Set.of());
        assertEquals(
                List.of(0L, 3L),
                new ScheduleWorker(wide, "w2")
                        .start(0).stream()
                                .map(o -> o.frame().packet().header().seq())
                                .toList());
    }

    @Test
    void twentyPercentDuplicationSendsTheSamePacketsAndDropsExactlyTheDuplicates() {
        ScheduleNet clean = new ScheduleNet(plan(2, Map.of(), Set.of()), 0, 0, 5).run(Long.MAX_VALUE);
        ScheduleNet dup = new ScheduleNet(plan(2, Map.of(), Set.of()), 0, 0.2, 5).run(Long.MAX_VALUE);
        assertAllVerified(dup);
        assertTrue(dup.duplicated > 0, "the link duplicated some frames");
        assertEquals(clean.dataSent, dup.dataSent, "the same data packets per member");
        assertEquals(clean.ackFrames, dup.ackFrames, "and the same acknowledgements");
        assertEquals(dup.duplicated, dup.stat("duplicatesDropped"), "every duplicate dropped and counted");
        assertEquals(0, dup.stat("retransmissions"));
    }

    @Test
    void lostPacketsAreSentAgainUntilEveryMemberHasEveryChunk() {
        for (double loss : new double[] {0.01, 0.05, 0.2}) {
            ScheduleNet net = new ScheduleNet(plan(2, Map.of(), Set.of()), loss, 0, 9).run(Long.MAX_VALUE);
            assertAllVerified(net);
            assertTrue(net.lost == 0 || net.stat("retransmissions") >= 1, "loss " + loss);
        }
    }

    @Test
    void aRetransmissionOfAPacketAlreadyTakenIsAcknowledgedAgainButNotAdded() {
        ScheduleWorker w3 = new ScheduleWorker(plan(5, Map.of(), Set.of()), "w3");
        w3.start(0);
        AllReduceData values = new AllReduceData(data(5));
        // chunk 3 is w1's: w2 starts it, w3 adds its own and passes it on to w1
        InaHeader h = InaHeader.of(PacketType.UNICAST, 1, 1_000_001, 3)
                .withOp(ReductionOp.SUM)
                .withSource(1);
        Frame fromW2 = new Frame(new InaPacket(h, FlatBitmap.of(3, 1), values.payload(1, 3)), "w3", 100);
        List<EndpointDriver.Out> first = w3.onDeliver(fromW2, 100);
        assertEquals(PacketType.ACK, first.get(0).frame().packet().header().type());
        assertEquals(
                FlatBitmap.of(3, 1, 2), first.get(1).frame().packet().endpoints(), "w3 adds its own and passes it on");
        assertTrue(w3.onDeliver(fromW2, 200).isEmpty(), "a link's duplicate: dropped, not acknowledged again");
        Frame again = new Frame(
                new InaPacket(h.withFlags(Flags.RETRANSMIT), FlatBitmap.of(3, 1), values.payload(1, 3)), "w3", 300);
        List<EndpointDriver.Out> out = w3.onDeliver(again, 300);
        assertEquals(1, out.size());
        assertEquals(
                PacketType.ACK, out.get(0).frame().packet().header().type(), "the first acknowledgement may be lost");
        assertEquals(2L, w3.report().stats().get("duplicatesDropped"));
    }

    @Test
    void aSilentMemberStopsTheRingSoNobodyFinishesAndNobodyIsWrong() {
        ScheduleNet net = new ScheduleNet(plan(2, Map.of(), Set.of("w2")), 0, 0, 1).run(Long.MAX_VALUE);
        for (ScheduleWorker w : net.workers.values()) {
            assertFalse(w.done(), w.report().endpoint());
            assertEquals(0, w.report().received(), "every chunk's reduce-scatter passes w2");
            assertEquals(List.of(), w.report().mismatches());
        }
        assertFalse(net.workers.get("w1").report().dropped().isEmpty(), "the sends to w2 are given up, and named");
    }

    @Test
    void aStragglerHoldsBackOnlyTheChunksItIsSlowOn() {
        Straggler slow = new Straggler(7 * MS, 0, Set.of(3L));
        ScheduleWorker w3 = new ScheduleWorker(plan(5, Map.of("w3", slow), Set.of()), "w3");
        // w3 starts the chunks owned by w2: 1 and 4; chunk 3 passes it in the reduce-scatter
        for (EndpointDriver.Out o : w3.start(0)) {
            assertEquals(
                    0,
                    o.wallDelayNanos(),
                    "chunk " + o.frame().packet().header().seq());
        }
        AllReduceData values = new AllReduceData(data(5));
        // chunk 3 is w1's: w2 starts it, w3 adds its own and passes it on to w1
        InaHeader h = InaHeader.of(PacketType.UNICAST, 1, 1_000_001, 3)
                .withOp(ReductionOp.SUM)
                .withSource(1);
        Frame fromW2 = new Frame(new InaPacket(h, FlatBitmap.of(3, 1), values.payload(1, 3)), "w3", 100);
        List<EndpointDriver.Out> out = w3.onDeliver(fromW2, 0);
        assertEquals(0, out.get(0).wallDelayNanos(), "the acknowledgement is not held back");
        assertEquals(7 * MS, out.get(1).wallDelayNanos());
        assertEquals(100 + 7 * MS, out.get(1).frame().vt(), "modelled time carries the delay too");
        assertEquals(FlatBitmap.of(3, 1, 2), out.get(1).frame().packet().endpoints());
    }

    @Test
    void aChunkThatComesBackHoldingThisMembersOwnContributionIsAnError() {
        ScheduleWorker w1 = new ScheduleWorker(plan(5, Map.of(), Set.of()), "w1");
        w1.start(0);
        InaHeader h = InaHeader.of(PacketType.UNICAST, 1, 1_000_001, 1)
                .withOp(ReductionOp.SUM)
                .withSource(2);
        AllReduceData values = new AllReduceData(data(5));
        w1.onDeliver(new Frame(new InaPacket(h, FlatBitmap.of(3, 0, 2), values.payload(0, 1)), "w1", 0), 0);
        assertEquals(
                List.of("chunk 1 from w3 holds [101], which overlaps what this member holds, [100]"),
                w1.report().mismatches());
        assertFalse(
                w1.accepts(new InaPacket(h.withType(PacketType.CONTRIBUTION), FlatBitmap.of(3, 1), Payload.EMPTY)),
                "a baseline member takes unicasts and their acknowledgements only");
    }

    @Test
    void aRingOfOneHasItsOwnDataAsTheResult() {
        BitSpace one = new BitSpace(List.of("w1"));
        ScheduleWorker w1 = new ScheduleWorker(
                AllReducePlan.builder()
                        .jobName("j")
                        .mode(Mode.of("ring"))
                        .tenant(1)
                        .wireJob(1)
                        .space(one)
                        .members(List.of("w1"))
                        .data(data(2))
                        .timeoutNanos(MS)
                        .seed(3)
                        .build(),
                "w1");
        assertTrue(w1.start(0).isEmpty(), "nothing to send");
        assertTrue(w1.done());
        assertEquals(5, w1.report().verifiedChunks());
    }

    /** The ring's first half alone: each chunk's sum ends at its owner, who alone keeps it. */
    private static final class ReduceScatterOnly implements HostSchedule {
        private final RingSchedule ring = new RingSchedule(MEMBERS.size());

        @Override
        public int members() {
            return MEMBERS.size();
        }

        @Override
        public List<Send> sends(int member, int chunk) {
            // the ring's sends but the finished sum's (those are its all-gather)
            return ring.sends(member, chunk).stream()
                    .filter(x -> !x.when().equals(HostSchedule.all(MEMBERS.size())))
                    .toList();
        }

        @Override
        public boolean keeps(int member, int chunk) {
            return chunk % MEMBERS.size() == member;
        }
    }

    @Test
    void aMemberIsDoneWithTheChunksItKeepsAndChecksOnlyThoseWhenTheScheduleKeepsSomeElsewhere() {
        ScheduleNet net =
                new ScheduleNet(plan(2, Map.of(), Set.of()), new ReduceScatterOnly(), 0, 0, 1).run(Long.MAX_VALUE);
        // five chunks, owners 0, 1, 2, 0, 1: w1 and w2 keep two, w3 one
        List<Integer> kept = List.of(2, 2, 1);
        for (String m : MEMBERS) {
            ScheduleWorker w = net.workers.get(m);
            DriverReport r = w.report();
            assertTrue(w.done(), m);
            assertEquals(List.of(), r.mismatches(), m);
            assertEquals(kept.get(MEMBERS.indexOf(m)), r.chunks(), m);
            assertEquals(r.chunks(), r.verifiedChunks(), m);
        }
        assertEquals(5 * (MEMBERS.size() - 1), net.dataFrames, "each chunk crosses N-1 ring links");
    }
}
